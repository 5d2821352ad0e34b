#include "solver/passes/structural_parameters.hpp"


namespace acausal {

void fold_structural_parameters(DaeSystem& dae) {
  long folded = 0;
  for (const auto& p : dae.parameters) folded += p.attributes.structural;
  if (folded > 0) {
    Rewriter fold([&](const Node* leaf) -> const Node* {
      int p = dae.parameter_of.find(leaf);
      return p >= 0 && dae.parameters[p].attributes.structural ? Expr(dae.parameters[p].value).node() : nullptr;
    });
    for (auto& eq : dae.equations) eq.residual = fold(eq.residual);
    for (auto& eq : dae.initial_equations) eq.residual = fold(eq.residual);
    for (auto& d : dae.discretes) {
      if (d.defined) d.definition = fold(d.definition);
      d.clock.start = fold(d.clock.start);
      d.clock.interval = fold(d.clock.interval);
    }
    for (auto& w : dae.whens) {
      for (auto& c : w.conditions) c = fold(c);
      for (auto& a : w.actions) a.value = fold(a.value);
    }
  }
  PassReport& r = dae.report.add("structural_parameters");
  r.counts = {{"folded", folded}};
}

}  // namespace acausal
