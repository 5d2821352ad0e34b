#include "solver/derivative_aliases.hpp"

#include <chrono>
#include <unordered_map>

namespace acausal {

namespace {

struct DerivativeAlias {
  const Node* derivative = nullptr;
  Expr value;
  Expr pivot;  // a, divided by
};

// der(s) as an affine function of a single unknown x when `residual` is
// a·der(s) + b·x + c with parameter-only a, b, c.
DerivativeAlias derivative_alias(const DaeSystem& dae, const Expr& residual) {
  // A Der leaf's argument is listed too: keep the leaves the residual really depends on.
  std::vector<std::pair<const Node*, Expr>> terms;
  for (const Node* leaf : unknown_leaves(residual)) {
    Expr d = diff(residual, Expr(leaf));
    if (!(d.is_const() && d.value() == 0.0)) terms.emplace_back(leaf, d);
  }
  if (terms.size() != 2) return {};
  if (terms[1].first->op == Op::Der) std::swap(terms[0], terms[1]);
  const auto& [derivative, a] = terms[0];
  const auto& [other, b] = terms[1];
  if (derivative->op != Op::Der || other->op != Op::Var) return {};
  if (!is_parametric(a) || !is_parametric(b)) return {};
  auto parameters = [&](const Node* p) { return dae.parameter_value(p); };
  if (a.is_const() ? a.value() == 0.0 : evaluate(a, parameters) == 0.0) return {};
  Rewriter zero([&](const Node* leaf) { return leaf == derivative || leaf == other ? Expr(0.0).node() : nullptr; });
  return {derivative, -(b * Expr(other) + zero(residual)) / a, a};
}

}  // namespace

void substitute_derivative_aliases(DaeSystem& dae) {
  auto t0 = std::chrono::steady_clock::now();
  std::unordered_map<const Node*, Expr> alias;  // der(s) -> expression of one unknown
  std::vector<bool> defining(dae.equations.size(), false);
  for (std::size_t e = 0; e < dae.equations.size(); ++e) {
    DerivativeAlias found = derivative_alias(dae, dae.equations[e].residual);
    if (!found.derivative || !alias.emplace(found.derivative, found.value).second) continue;
    defining[e] = true;
    if (!found.pivot.is_const())
      dae.nonzero_conditions.push_back({found.pivot, "reading " + dae.describe(dae.equations[e]) + " as a definition of " +
                                                         dae.print(Expr(found.derivative))});
  }
  if (!alias.empty()) {
    Rewriter substitute([&](const Node* leaf) -> const Node* {
      auto it = alias.find(leaf);
      return it == alias.end() ? nullptr : it->second.node();
    });
    for (std::size_t e = 0; e < dae.equations.size(); ++e)
      if (!defining[e]) dae.equations[e].residual = substitute(dae.equations[e].residual);
    for (auto& v : dae.variables)
      if (v.definition) v.definition = substitute(Expr(v.definition)).node();
  }
  PassReport& r = dae.report.add("derivative_aliases");
  r.counts = {{"substituted", static_cast<long>(alias.size())}};
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace acausal
