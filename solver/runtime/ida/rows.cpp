// Output rows: the grid, exact outputs, non-finite values caught, the statistics.
#include "solver/runtime/ida/session_run.hpp"

#include <algorithm>
#include <numeric>

namespace acausal {

double SessionRun::output_time(long k) const {
  if (given_times) return k == 0 ? options.t_start : options.output_times[k - (drop_initial_row ? 1 : 0)];
  return std::min(options.t_start + k * options.output_interval, options.t_end);
}

void SessionRun::drop_first_rows(std::size_t count) {
  count = std::min(count, result.time_.size());
  if (count == 0) return;
  const std::size_t n_frozen = result.modes_.size() / result.time_.size();
  const std::size_t sensitivity_row = result.sensitivities_.size() / result.time_.size();
  result.time_.erase(result.time_.begin(), result.time_.begin() + count);
  result.y_.erase(result.y_.begin(), result.y_.begin() + count * n);
  result.yp_.erase(result.yp_.begin(), result.yp_.begin() + count * n);
  result.modes_.erase(result.modes_.begin(), result.modes_.begin() + count * n_frozen);
  result.sensitivities_.erase(result.sensitivities_.begin(), result.sensitivities_.begin() + count * sensitivity_row);
  // A change that applied from a dropped row applies from the first kept one;
  // of several such, the latest holds there.
  auto& changes = result.parameter_changes_;
  for (auto& change : changes) change.first = change.first > count ? change.first - count : 0;
  while (changes.size() > 1 && changes[1].first == 0) changes.erase(changes.begin());
}

Result SessionRun::take_result() {
  if (drop_initial_row) drop_first_rows(1);
  return std::move(result);
}

// No NaN or infinity reaches a result silently. Observed variables are
// checked in solve order, so the message names where a non-finite value
// arose rather than what it spread to. `observed` holds the row's inputs.
void SessionRun::check_observed(double at) {
  observed.run();
  for (std::size_t k = 0; k < m.observed_variables.size(); ++k) {
    double value = observed.output(k);
    if (std::isfinite(value)) continue;
    const DaeVariable& v = m.dae.variables[m.observed_variables[k]];
    const int from = v.solved_from >= 0 ? v.solved_from : v.fixed_by;
    throw SimulationError(where + ": " + v.name + " = " + format_number(value) + " at t = " + format_number(at) +
                              ", from " +
                              (from >= 0 ? m.dae.describe(m.dae.consumed_equations[from])
                                         : "its alias " + m.dae.print(Expr(v.definition))),
                          at, 0, "", result);
  }
}

// A model without unknowns: every row is a function of time and parameters.
void SessionRun::row_without_unknowns(double at) {
  update_delayed(at);  // all exact: arguments of time and parameters
  relations.inputs()[0] = at;
  std::copy(modes.begin() + delay_offset, modes.end(), relations.inputs() + m.delay_register());
  relations.run();
  for (int i = 0; i < n_modes; ++i) modes[i] = relations.output(i) != 0.0 ? 1.0 : 0.0;
  observed.inputs()[0] = at;
  std::copy(modes.begin(), modes.end(), observed.inputs() + m.mode_register());
  check_observed(at);
  result.time_.push_back(at);
  result.modes_.insert(result.modes_.end(), modes.begin(), modes.end());
}

void SessionRun::fail(const std::string& what, int flag, double at) {
  if (integ.interrupted())
    throw SimulationInterrupted(where + ": interrupted at t = " + format_number(at), at, flag, "interrupted", result);
  std::string nonfinite;
  if (integ.nonfinite_equation >= 0)
    nonfinite = "; the residual of " + m.dae.describe(m.dae.equations[integ.nonfinite_equation]) +
                " was not finite at t = " + format_number(integ.nonfinite_time);
  throw SimulationError(where + ": " + what + " at t = " + format_number(at) + ": " + flag_name(flag) +
                            (integ.last_message.empty() ? "" : " (" + integ.last_message + ")") + nonfinite,
                        at, flag, integ.last_message, result);
}

void SessionRun::make_exact(double at) {
  auto started = Clock::now();
  ExactOutputs::Outcome outcome = exact.solve(
      y, yp, load_at(at));
  stats.exact_outputs_seconds += seconds_since(started);
  ++(outcome.exact ? stats.exact_rows : stats.inexact_rows);
  stats.exact_iterations += outcome.iterations;
  stats.exact_factorizations = exact.factorizations();
  if (outcome.nonfinite_equation >= 0)
    throw SimulationError(where + ": " + m.dae.describe(m.dae.equations[outcome.nonfinite_equation]) +
                              " is not finite at t = " + format_number(at),
                          at, 0, "", result);
}

void SessionRun::record(double at) {
  update_delayed(at);
  if (options.exact_outputs) make_exact(at);
  for (int i = 0; i < n; ++i)
    if (!std::isfinite(y[i]) || !std::isfinite(yp[i]))
      throw SimulationError(where + ": " + (std::isfinite(y[i]) ? "der(" : "") +
                                m.dae.variables[m.variable_of_slot[i]].name + (std::isfinite(y[i]) ? ")" : "") +
                                " is not finite at t = " + format_number(at),
                            at, 0, "", result);
  integ.load(at, 0.0, y, yp, observed);
  check_observed(at);
  integ.nonfinite_equation = -1;  // a trial point IDA recovered from is no cause of a later failure
  if (result.time_.size() >= max_rows)
    throw SimulationError(where + ": the result reached max_output_bytes = " + format_number(options.max_output_bytes) +
                              " at t = " + format_number(at) + " (" + std::to_string(result.event_times_.size()) +
                              " events so far add two rows each)",
                          at, 0, "", result);
  result.time_.push_back(at);
  result.y_.insert(result.y_.end(), y, y + n);
  result.yp_.insert(result.yp_.end(), yp, yp + n);
  result.modes_.insert(result.modes_.end(), modes.begin(), modes.end());
  // IDA's error test leaves the algebraic unknowns out (and their
  // sensitivities): as the exact outputs do for the values, the row's
  // sensitivities are solved from the states' with the model's equations.
  if (sensitivities) {
    sensitivities->make_consistent(at, y, yp);
    for (int j = 0; j < sensitivities->count(); ++j) {
      result.sensitivities_.insert(result.sensitivities_.end(), sensitivities->values(j), sensitivities->values(j) + n);
      result.sensitivities_.insert(result.sensitivities_.end(), sensitivities->derivatives(j),
                                   sensitivities->derivatives(j) + n);
    }
  }
}

void SessionRun::statistics() {
  if (!s.ida) return;
  long v = 0;
  IDAGetNumSteps(s.ida, &v), stats.steps = before_reinit.steps + v;
  IDAGetNumResEvals(s.ida, &v), stats.residual_evaluations = before_reinit.residual_evaluations + v;
  IDAGetNumJacEvals(s.ida, &v), stats.jacobian_evaluations = before_reinit.jacobian_evaluations + v;
  IDAGetNumNonlinSolvIters(s.ida, &v), stats.nonlinear_iterations = before_reinit.nonlinear_iterations + v;
  IDAGetNumNonlinSolvConvFails(s.ida, &v),
      stats.nonlinear_convergence_failures = before_reinit.nonlinear_convergence_failures + v;
  IDAGetNumErrTestFails(s.ida, &v), stats.error_test_failures = before_reinit.error_test_failures + v;
  stats.restarts = restarts;
  stats.reinitializations = reinitializations;
  if (!m.state_event_modes.empty())
    IDAGetNumGEvals(s.ida, &v), stats.root_evaluations = before_reinit.root_evaluations + v;
}

// The equations a failed solve leaves most violated, with their unknowns,
// at y and y' as they are (IDA leaves the values it started from).
std::string SessionRun::worst_residuals(double at) {
  integ.load(at, 0.0, y, yp, integ.residual);
  integ.residual.run();
  auto size = [&](int i) {
    double r = integ.residual.output(i);
    return std::isfinite(r) ? std::fabs(r) : std::numeric_limits<double>::infinity();
  };
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  const int shown = std::min(n, 3);
  std::partial_sort(order.begin(), order.begin() + shown, order.end(), [&](int a, int b) { return size(a) > size(b); });
  std::string out;
  for (int k = 0; k < shown && size(order[k]) > 0; ++k) {
    const DaeEquation& eq = m.dae.equations[order[k]];
    std::string unknowns;
    for (const Node* leaf : unknown_leaves(eq.residual)) {
      int slot = m.slot_of_variable[m.dae.variable_index(leaf)];
      std::string name = m.dae.print(Expr(leaf));
      unknowns +=
          (unknowns.empty() ? "" : ", ") + name + " = " + format_number(leaf->op == Op::Der ? yp[slot] : y[slot]);
    }
    out += std::string(k ? "; " : "") + m.dae.describe(eq) + " (residual " +
           format_number(integ.residual.output(order[k])) + (unknowns.empty() ? "" : ", with " + unknowns) + ")";
  }
  return out.empty() ? std::string("(every residual is zero there)") : out;
}

}  // namespace acausal
