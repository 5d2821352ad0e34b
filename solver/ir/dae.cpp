#include "solver/ir/dae.hpp"

#include <sstream>
#include <stdexcept>

#include "solver/symbolic/errors.hpp"

namespace acausal {

int SymbolIndex::at(const Node* symbol) const {
  int i = find(symbol);
  if (i < 0) throw std::out_of_range("symbol '" + symbol_name(symbol) + "' is not part of the model");
  return i;
}

void SymbolIndex::set(const Node* symbol, int index) {
  if (index_.empty()) first_ = symbol->symbol;
  if (symbol->symbol < first_) {
    index_.insert(index_.begin(), first_ - symbol->symbol, -1);
    first_ = symbol->symbol;
  }
  std::size_t k = symbol->symbol - first_;
  if (k >= index_.size()) index_.resize(k + 1, -1);
  index_[k] = index;
}

std::string DaeSystem::print(const Expr& e, std::size_t max_chars) const {
  return to_string(e, [this](const Node* n) -> std::string {
    if (int v = variable_of.find(n); v >= 0) return variables[v].name;
    if (int p = parameter_of.find(n); p >= 0) return parameters[p].name;
    if (auto it = discrete_of.find(n); it != discrete_of.end()) {
      const DaeDiscrete& d = discretes[it->second];
      return n == d.pre ? "pre(" + d.name + ")" : d.name;
    }
    return symbol_name(n);
  }, max_chars);
}

// A side of an equation is cut after this many characters: a message names the
// equation and its component, it need not print a page of expression.
constexpr std::size_t described_side_chars = 240;

std::string DaeSystem::describe(const DaeEquation& eq) const {
  return print(eq.source.lhs, described_side_chars) + " = " + print(eq.source.rhs, described_side_chars) + "  [" +
         (eq.origin >= 0 ? origins[eq.origin] : std::string("?")) + "]";
}

int DaeSystem::variable_index(const Node* leaf) const {
  while (leaf->op == Op::Der) leaf = leaf->arg[0];
  return variable_of.find(leaf);
}

double DaeSystem::parameter_value(const Node* param) const { return parameters[parameter_of.at(param)].value; }

void DaeSystem::check_parameter_conditions(const std::function<double(const Node*)>& value) const {
  for (const auto& c : parameter_conditions) {
    if (evaluate(c.condition, value) != 0.0) continue;
    std::string values;
    for_each_postorder(c.condition.node(), [&](const Node* n) {
      if (!parameter_of.contains(n)) return;
      values += (values.empty() ? "" : ", ") + parameters[parameter_of.at(n)].name + " = " + format_number(value(n));
    });
    throw ModelError(c.requirement + " (" + values + ")");
  }
}

Rewriter definition_rewriter(const DaeSystem& dae) {
  return Rewriter(
      [&dae](const Node* leaf) -> const Node* {
        if (leaf->op != Op::Var) return nullptr;
        int v = dae.variable_of.find(leaf);
        return v < 0 ? nullptr : dae.variables[v].definition;
      },
      // Sorting leaves no algebraic cycle, so one can only pass through a delay.
      [&dae](const Node* leaf) {
        throw ModelError("'" + dae.model_name + "': " + dae.print(Expr(leaf)) +
                         " is defined through a delay() of itself with no state in between (" +
                         dae.print(Expr(dae.variables[dae.variable_of.at(leaf)].definition)) +
                         "); a delay in an algebraic loop needs a state (an integrator or a lag) in the loop");
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
  if (!warnings.empty()) out << "warnings (" << warnings.size() << "):\n";
  for (const auto& w : warnings) out << "  [" << w.kind << "] " << w.message << '\n';
  return out.str();
}

}  // namespace acausal
