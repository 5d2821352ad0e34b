#include "solver/passes/derivative_aliases.hpp"

#include <algorithm>
#include <unordered_map>

namespace acausal {

namespace {

struct DerivativeAlias {
  const Node* derivative = nullptr;
  Expr value;
  Expr pivot;  // a, divided by
};

// der(s) as an affine function of other unknowns when `residual` is
// a·der(s) + Σ b_i·x_i + c with parameter-only a, b_i, c (one derivative, the
// x_i variables: w_rel = w_b - w_a as well as v = der(s)).
DerivativeAlias derivative_alias(const DaeSystem& dae, const Expr& residual) {
  const auto leaves = unknown_leaves(residual);
  if (std::count_if(leaves.begin(), leaves.end(), [](const Node* n) { return n->op == Op::Der; }) != 1) return {};
  // A delayed value is no parameter: an equation reading one is not affine in the unknowns alone.
  if (contains_delay(residual.node())) return {};
  const auto partials = gradient(residual);
  const Node* derivative = nullptr;
  Expr a, rest(0.0);
  for (const auto& [leaf, d] : partials) {
    if (!is_parametric(d)) return {};
    if (leaf->op == Op::Der) {
      derivative = leaf;
      a = d;
    } else {
      rest = rest + d * Expr(leaf);
    }
  }
  if (!derivative) return {};
  auto parameters = [&](const Node* p) { return dae.parameter_value(p); };
  if (a.is_const() ? a.value() == 0.0 : evaluate(a, parameters) == 0.0) return {};
  Rewriter zero([&](const Node* leaf) { return leaf->op == Op::Var || leaf->op == Op::Der ? Expr(0.0).node() : nullptr; });
  return {derivative, -(rest + zero(residual)) / a, a};
}

}  // namespace

void substitute_derivative_aliases(DaeSystem& dae) {
  std::unordered_map<const Node*, Expr> alias;  // der(s) -> affine expression of other unknowns
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
    // Definitions (observed variables) keep der(s): at a solution both read the same value.
    for (std::size_t e = 0; e < dae.equations.size(); ++e)
      if (!defining[e]) dae.equations[e].residual = substitute(dae.equations[e].residual);
    // An initial equation on the derivative of an observed variable reads
    // der(der(phi)) once definitions are substituted: with der(phi) = w it is
    // der(w), a state's derivative that initialization solves for.
    for (auto& eq : dae.initial_equations) eq.residual = substitute(eq.residual);
    // A delay's argument is evaluated from the recorded y and y' at past
    // instants, so a second derivative in it (der(der(phi)) of a delayed
    // relative speed) must read der(w) instead.
    for (auto& v : dae.variables)
      if (v.definition && contains_delay(v.definition)) v.definition = substitute(Expr(v.definition)).node();
    // Root functions should read states, not IDA's y' (events.cpp). A
    // derivative may be affine only once others are read through their
    // aliases (engine.w = der(phi_b) - der(phi_rel) with der(phi_b) = w_in):
    // those further aliases serve events alone, the equations stay as they are
    // so the solver sees the structure it was given.
    for (bool found_more = true; found_more;) {
      found_more = false;
      Rewriter read_aliases([&](const Node* leaf) -> const Node* {  // a fresh memo: the map grows
        auto it = alias.find(leaf);
        return it == alias.end() ? nullptr : it->second.node();
      });
      for (std::size_t e = 0; e < dae.equations.size(); ++e) {
        if (defining[e]) continue;
        DerivativeAlias more = derivative_alias(dae, read_aliases(dae.equations[e].residual));
        if (!more.derivative || !more.pivot.is_const() || !alias.emplace(more.derivative, more.value).second) continue;
        defining[e] = found_more = true;
      }
    }
    for (const auto& [derivative, value] : alias) dae.derivative_aliases.emplace_back(derivative, value.node());
  }
  PassReport& r = dae.report.add("derivative_aliases");
  r.counts = {{"substituted", static_cast<long>(alias.size())}};
}

}  // namespace acausal
