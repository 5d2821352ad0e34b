#include "solver/passes/event_clock.hpp"

namespace acausal {

void add_event_clock(DaeSystem& dae) {
  PassReport& r = dae.report.add("event_clock");
  r.counts = {{"added", 0}};
  if (dae.discretes.empty() && dae.whens.empty()) return;
  for (int v = 0; v < static_cast<int>(dae.variables.size()); ++v)
    if (dae.is_unknown(v)) return;
  DaeVariable clock;
  clock.name = event_clock_name;
  clock.unit = "s";
  clock.start_given = true;  // 0 is meant: the value never matters
  clock.symbol = derived_symbol(Op::Var, nullptr, "event clock", clock.name).node();
  dae.variable_of.set(clock.symbol, static_cast<int>(dae.variables.size()));
  dae.variables.push_back(clock);
  const Equation eq{der(Expr(clock.symbol)), Expr(0.0)};
  dae.origins.push_back("the event clock of a model without continuous unknowns");
  dae.equations.push_back({eq.residual(), eq, static_cast<int>(dae.origins.size()) - 1});
  r.counts = {{"added", 1}};
}

}  // namespace acausal
