#include "solver/dae.hpp"

#include <sstream>

#include "solver/errors.hpp"

namespace acausal {

std::string DaeSystem::print(const Expr& e) const {
  return to_string(e, [this](const Node* n) -> std::string {
    if (n->op == Op::Var) {
      if (auto it = variable_of.find(n); it != variable_of.end()) return variables[it->second].name;
    } else if (n->op == Op::Param) {
      if (auto it = parameter_of.find(n); it != parameter_of.end()) return parameters[it->second].name;
    }
    return symbol_name(n);
  });
}

std::string DaeSystem::describe(const DaeEquation& eq) const {
  return print(eq.source.lhs) + " = " + print(eq.source.rhs) + "  [" + (eq.origin >= 0 ? origins[eq.origin] : std::string("?")) + "]";
}

int DaeSystem::variable_index(const Node* leaf) const {
  while (leaf->op == Op::Der) leaf = leaf->arg[0];
  auto it = variable_of.find(leaf);
  return it == variable_of.end() ? -1 : it->second;
}

double DaeSystem::parameter_value(const Node* param) const { return parameters[parameter_of.at(param)].value; }

void DaeSystem::check_parameter_conditions(const std::function<double(const Node*)>& value) const {
  for (const auto& c : parameter_conditions) {
    if (evaluate(c.condition, value) != 0.0) continue;
    std::string values;
    for_each_postorder({c.condition.node()}, [&](const Node* n) {
      if (n->op != Op::Param || !parameter_of.count(n)) return;
      values += (values.empty() ? "" : ", ") + parameters[parameter_of.at(n)].name + " = " + format_number(value(n));
    });
    throw ModelError(c.requirement + " (" + values + ")");
  }
}

Rewriter definition_rewriter(const DaeSystem& dae) {
  return Rewriter([&dae](const Node* leaf) -> const Node* {
    if (leaf->op != Op::Var) return nullptr;
    auto it = dae.variable_of.find(leaf);
    return it == dae.variable_of.end() ? nullptr : dae.variables[it->second].definition;
  });
}

void substitute_definitions(DaeSystem& dae) {
  Rewriter substitute = definition_rewriter(dae);
  for (auto& eq : dae.equations) eq.residual = substitute(eq.residual);
  for (auto& eq : dae.initial_equations) eq.residual = substitute(eq.residual);
  for (auto& v : dae.variables)
    if (v.definition) v.definition = substitute(Expr(v.definition)).node();
}

std::string CompileReport::str() const {
  std::ostringstream out;
  for (const auto& p : passes) {
    out << p.pass;
    out.precision(3);
    out << " (" << std::fixed << p.seconds * 1e3 << " ms)";
    out.unsetf(std::ios::fixed);
    for (const auto& [what, n] : p.counts) out << "  " << what << "=" << n;
    out << '\n';
    for (const auto& note : p.notes) out << "    " << note << '\n';
  }
  auto list = [&](const char* title, const std::vector<std::string>& names) {
    out << title << " (" << names.size() << "):";
    std::size_t shown = 0;
    for (const auto& n : names) {
      if (++shown > 20) {
        out << " ...";
        break;
      }
      out << ' ' << n;
    }
    out << '\n';
  };
  list("states", states);
  list("algebraic unknowns", algebraic);
  return out.str();
}

}  // namespace acausal
