// Writes docs/components.md from the component classes themselves, so the
// reference cannot drift from the code (a CTest compares the two).
//   ./build/docs/components_md > docs/components.md      (or: make docs)
#include <acausal/acausal.hpp>
#include <acausal/components/library.hpp>

#include <cmath>
#include <iostream>
#include <sstream>
#include <string>

using namespace acausal;

namespace {

std::string cell(const std::string& s) { return s.empty() ? "" : "`" + s + "`"; }

std::string bounds(const ParameterAttributes& a) {
  std::string out;
  if (std::isfinite(a.min)) out += "≥ " + format_number(a.min);
  if (std::isfinite(a.max)) out += std::string(out.empty() ? "" : ", ") + "≤ " + format_number(a.max);
  for (std::size_t i = 0; i < a.choices.size(); ++i) out += (i ? ", " : "one of: ") + std::to_string(i) + " " + a.choices[i];
  if (a.structural) out += std::string(out.empty() ? "" : "; ") + "structural";
  return out;
}

// An assembly's parts with their parameters as the assembly sets them,
// one row per part (set them by path: `wheel_rl.mu`).
void parts(const Component& assembly) {
  if (assembly.children().empty()) return;
  std::cout << "| part | type | parameters (by path `part.name`: default, bounds) |\n|---|---|---|\n";
  auto rows = [](auto& self, const Component& parent, const std::string& prefix) -> void {
    for (const Component* part : parent.children()) {
      std::string cells;
      for (const auto& p : part->parameters()) {
        const std::string b = bounds(p.attributes);
        cells += std::string(cells.empty() ? "" : ", ") + "`" + p.name + "` = " + format_number(p.value) +
                 (p.attributes.unit.empty() ? "" : " " + p.attributes.unit) + (b.empty() ? "" : " (" + b + ")");
      }
      std::cout << "| `" << prefix << part->name() << "` | " << part->type_name() << " | " << cells << " |\n";
      self(self, *part, prefix + part->name() + ".");
    }
  };
  rows(rows, assembly, "");
  std::cout << "\n";
}

template <class T>
void document(const std::string& domain, const std::string& name) {
  T c("c");
  std::cout << "### " << domain << "." << name << "\n\n";
  std::cout << "Connectors: ";
  for (std::size_t i = 0; i < c.connectors().size(); ++i) {
    const Connector* k = c.connectors()[i];
    std::cout << (i ? ", " : "") << "`" << k->name() << "` (" << k->type();
    if (!k->members().empty() && k->members()[0].name.empty())
      std::cout << (k->members()[0].causality == Causality::input ? " input" : " output");
    std::cout << ")";
  }
  if (c.connectors().empty()) std::cout << "none";
  std::cout << "\n\n";
  if (!c.parameters().empty()) {
    std::cout << "| parameter | unit | default | bounds |\n|---|---|---|---|\n";
    for (const auto& p : c.parameters())
      std::cout << "| `" << p.name << "` | " << p.attributes.unit << " | " << format_number(p.value) << " | "
                << bounds(p.attributes) << " |\n";
    std::cout << "\n";
  }
  parts(c);
  if (!c.requirements().empty()) {
    std::cout << "Requires:";
    for (const auto& [condition, text] : c.requirements()) std::cout << "\n- " << text;
    std::cout << "\n\n";
  }
  std::string variables;
  for (const auto& v : c.variables())
    if (v.causality == Causality::internal)
      variables += (variables.empty() ? "" : ", ") + cell(v.name) + (v.attributes.unit.empty() ? "" : " [" + v.attributes.unit + "]");
  if (!variables.empty()) std::cout << "Variables: " << variables << "\n\n";
  std::cout << "```\n";
  for (const auto& eq : c.equations()) std::cout << eq.lhs.str() << " = " << eq.rhs.str() << "\n";
  for (const auto& init : c.initial_equations())
    std::cout << "initial: " << init.equation.lhs.str() << " = " << init.equation.rhs.str()
              << (init.active.is_const() ? "" : "  when " + init.active.str()) << "\n";
  if (c.equations().empty()) std::cout << "(equations set by set_table)\n";
  std::cout << "```\n\n";
}

}  // namespace

int main() {
  std::cout << "# Component reference\n\n"
               "Generated from the code by `docs/components_md.cpp` (`make docs`); a test fails when this file "
               "and the code disagree. Requirements are relations between parameters, checked at `compile()` and "
               "at every `simulate()`. Flow variables (`tau`, `f`) are positive when they act on the component "
               "that owns the connector. The physics of each component is described in its header, "
               "`components/<domain>/<name>.hpp`.\n\n";
  std::string last;
#define ACAUSAL_DOCUMENT(domain, Name)                                     \
  if (last != #domain) std::cout << "## " << (last = #domain) << "\n\n"; \
  document<domain::Name>(#domain, #Name);
  ACAUSAL_LIBRARY(ACAUSAL_DOCUMENT)
#undef ACAUSAL_DOCUMENT
}
