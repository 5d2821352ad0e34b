// Events: relations read from the values, consistent re-initialization, the
// event iteration of Modelica's hybrid semantics, the sensitivities' jumps.
#include "solver/runtime/ida/session_run.hpp"

#include <algorithm>
#include <numeric>

namespace acausal {

bool SessionRun::evaluate_relations(double at, bool only_time_events) {
  bool changed = false;
  auto read = [&](bool time_events) {
    relations.run();
    for (int k = 0; k < n_modes; ++k) {
      if (switched_by_root[k] || m.dae.modes[k].time_event != time_events) continue;
      double value = relations.output(k) != 0.0 ? 1.0 : 0.0;
      changed |= value != modes[k];
      modes[k] = value;
    }
  };
  if (!only_time_events) {
    integ.load_relations(at, y, yp, relations);
    read(false);
  }
  // A time event's relation takes the value it has just after its instant:
  // `time > 0.5` read at t = 0.5 itself is false, and would stay false for
  // the rest of the run, since no later event reads it again. Its indicator
  // is a function of time alone, so the next double after `at` is its right limit.
  if (!timed_modes.empty()) {  // relations of time alone (time >= startTime) or of time and frozen values
    integ.load_relations(std::nextafter(at, std::numeric_limits<double>::infinity()), y, yp, relations);
    read(true);
  }
  set_modes();
  return changed;
}

// Consistent values after the start or an event: the initialization plan at
// t0 when it needs one, otherwise states stay and IDA computes the rest.
void SessionRun::make_consistent(double at, bool at_start) {
  consistent_in_event = true;
  states_jumped = false;
  frozen_at_consistency = modes;
  double t_next = std::min(at + options.output_interval, options.t_end);
  // An event at the end itself (a root on t_end): IDACalcIC still needs a step to look along.
  if (!(t_next - at > 1e-10 * (1.0 + std::fabs(at)))) t_next = at + options.output_interval;
  if (at_start && m.initialization.custom) {
    initialize(m, at, parameters, modes, y, yp);
    check(IDAReInit(s.ida, at, s.y, s.yp), "IDAReInit");
    if (sensitivities) {
      sensitivities->set_states(initialization_sensitivities(m, at, parameters, modes, y, yp, sensitivity_parameters));
      hand_over_sensitivities(at);
    }
    return;
  }
  if (!at_start) {
    statistics();
    before_reinit = stats;
  }
  check(IDAReInit(s.ida, at, s.y, s.yp), "IDAReInit");
  // The sensitivities' consistent values follow from the states' by one linear solve (below).
  if (sensitivities) sensitivities->suspend(s.ida);
  check(IDASetStopTime(s.ida, t_next), "IDASetStopTime");
  int flag = IDACalcIC(s.ida, IDA_YA_YDP_INIT, t_next);
  // IDACalcIC's Newton test is 100 times stricter than the integrator's. A
  // value that is zero at the consistent point carries the residual's
  // roundoff, which a tight atol (1e-12 on forces of 1e4 N) weighs above that
  // test: the iteration cannot converge though the point is as consistent as
  // doubles allow. The integrator's own test then decides.
  if (flag == IDA_LINESEARCH_FAIL || flag == IDA_CONV_FAIL) {
    check(IDAReInit(s.ida, at, s.y, s.yp), "IDAReInit");
    check(IDASetNonlinConvCoefIC(s.ida, 0.33), "IDASetNonlinConvCoefIC");
    flag = IDACalcIC(s.ida, IDA_YA_YDP_INIT, t_next);
    check(IDASetNonlinConvCoefIC(s.ida, 0.0033), "IDASetNonlinConvCoefIC");
  }
  // The line search can stall on a first guess far from the solution (axle
  // loads guessed 0 under a sprung body) where full Newton steps converge.
  if (flag == IDA_LINESEARCH_FAIL) {
    check(IDAReInit(s.ida, at, s.y, s.yp), "IDAReInit");
    check(IDASetLineSearchOffIC(s.ida, SUNTRUE), "IDASetLineSearchOffIC");
    flag = IDACalcIC(s.ida, IDA_YA_YDP_INIT, t_next);
    check(IDASetLineSearchOffIC(s.ida, SUNFALSE), "IDASetLineSearchOffIC");
  }
  // Near rounding (rtol 1e-12) IDACalcIC's line search can fail where Newton
  // from the states converges: the exact outputs' iteration solves the same
  // problem (states held; y' and the algebraic unknowns from the equations).
  if (flag < 0 && consistent_by_newton(at)) return;
  if (flag < 0) {
    statistics();
    fail((at_start ? "could not find consistent initial values" : "could not re-initialize after an event") +
             std::string("; the equations furthest from holding at the values it started from: ") + worst_residuals(at),
         flag, at);
  }
  check(IDAGetConsistentIC(s.ida, s.y, s.yp), "IDAGetConsistentIC");
  if (sensitivities) hand_over_sensitivities(at);
}

bool SessionRun::residual_inputs_unchanged() const {
  if (frozen_at_consistency.size() != modes.size()) return false;
  for (std::size_t i = 0; i < residual_reads.size(); ++i)
    if (residual_reads[i] && modes[i] != frozen_at_consistency[i]) return false;
  return true;
}

void SessionRun::keep_consistent(double at, bool at_start) {
  if (quiet_events && !at_start && !states_jumped && residual_inputs_unchanged()) return;
  make_consistent(at, at_start);
}

bool SessionRun::consistent_by_newton(double at) {
  const std::vector<double> y_before(y, y + n), yp_before(yp, yp + n);
  const ExactOutputs::Outcome outcome = exact.solve(
      y, yp, load_at(at));
  exact.forget();  // the output rows factor their own matrix, as after any restart
  if (!outcome.exact) {
    std::copy(y_before.begin(), y_before.end(), y);
    std::copy(yp_before.begin(), yp_before.end(), yp);
    return false;
  }
  check(IDAReInit(s.ida, at, s.y, s.yp), "IDAReInit");
  if (sensitivities) hand_over_sensitivities(at);
  return true;
}

// The sensitivities made consistent with the states' at (at, y, y') and given
// to IDAS. IDAReInit first: IDACalcIC ran with them off, and only the setup of
// the next IDASolve after a reinit computes their error weights.
void SessionRun::hand_over_sensitivities(double at) {
  sensitivities->make_consistent(at, y, yp);
  statistics();
  before_reinit = stats;  // IDAReInit zeroes IDA's counters
  check(IDAReInit(s.ida, at, s.y, s.yp), "IDAReInit");
  sensitivities->reinit(s.ida);
}

// The discrete part (Modelica's event iteration). With pre() fixed, the
// mixed system is solved by fixed point: the discrete equations and
// when-clauses are evaluated from the relations as they stand, the
// continuous part is made consistent with the result, and the relations are
// read again, until neither changes. Relations thus keep their values until
// a solution contradicts them (a clutch that reaches zero slip is first
// tried locked, and breaks away only if the locked torque exceeds its
// limit). Then pre(x) := x and again, until x = pre(x) for every discrete x.
void SessionRun::remember_conditions() {
  for (std::size_t w = 0; w < m.whens.size(); ++w)
    for (int i = 0; i < m.whens[w].n_conditions; ++i)
      condition_before[w][i] = hybrid.output(m.whens[w].first_condition + i) != 0.0;
}

void SessionRun::run_hybrid(double at) {
  integ.load(at, 0.0, y, yp, hybrid);
  hybrid.run();
}

bool SessionRun::rising_edge(std::size_t w) const {
  for (int i = 0; i < m.whens[w].n_conditions; ++i)
    if (hybrid.output(m.whens[w].first_condition + i) != 0.0 && !condition_before[w][i]) return true;
  return false;
}

// Exactly once per firing: the event iteration sees each rising edge once.
void SessionRun::call_external(std::size_t w, double at, const std::vector<double>& arguments,
                               std::vector<double>& next) {
  const CompiledModel::When& when = m.whens[w];
  std::vector<double> results(when.call_results.size());
  try {
    if (!external_instances[w]) external_instances[w] = when.call->instantiate(options.t_start, options.t_end);
    external_instances[w]->call(at, arguments, results);
  } catch (const std::exception& error) {
    throw SimulationError(where + ": the external call of " + m.dae.origins[m.dae.whens[w].origin] + " at t = " +
                              format_number(at) + " failed: " + error.what(),
                          at, 0, "", result);
  }
  for (std::size_t k = 0; k < results.size(); ++k) next[when.call_results[k]] = results[k];
}

bool SessionRun::discrete_pass(double at) {
  run_hybrid(at);
  std::vector<double> next(modes.begin() + discrete_offset, modes.begin() + pre_offset);
  for (std::size_t k = 0; k < m.defined_discretes.size(); ++k) next[m.defined_discretes[k]] = hybrid.output(k);
  bool reinitialized = false;
  for (std::size_t w = 0; w < m.whens.size(); ++w) {
    if (rising_edge(w)) {
      std::vector<double> arguments;
      for (const auto& a : m.whens[w].actions) {
        const double value = hybrid.output(a.output);
        if (a.discrete >= 0) {
          next[a.discrete] = value;
          continue;
        }
        if (a.slot < 0) {
          arguments.push_back(value);
          continue;
        }
        y[a.slot] = (value - hybrid.output(a.output + 2)) / hybrid.output(a.output + 1);
        reinitialized = true;
        states_jumped = true;
        if (!std::isfinite(y[a.slot]))
          throw SimulationError(where + ": reinit of " + m.dae.variables[m.variable_of_slot[a.slot]].name + " to " +
                                    format_number(value) + " at t = " + format_number(at) + " in " +
                                    m.dae.origins[m.dae.whens[w].origin] + " is not finite",
                                at, 0, "", result);
      }
      if (m.whens[w].call) call_external(w, at, arguments, next);
    }
  }
  remember_conditions();
  changed_discretes.clear();
  for (int k = 0; k < n_discretes; ++k) {
    if (!std::isfinite(next[k]))
      throw SimulationError(where + ": discrete variable " + m.dae.discretes[k].name + " = " + format_number(next[k]) +
                                " at t = " + format_number(at) + " (" + m.dae.origins[m.dae.discretes[k].origin] + ")",
                            at, 0, "", result);
    if (next[k] != modes[discrete_offset + k]) changed_discretes.push_back(k);
    modes[discrete_offset + k] = next[k];
  }
  set_modes();
  return reinitialized || !changed_discretes.empty();
}

// A fixed point that cycles (a clutch at zero slip: assumed breaking away
// forward, the solution says backward, and back) is searched instead: the
// relations that changed in the cycle take each combination of values,
// fewest true first (the element stays stuck unless it must break away),
// until one is consistent with the solution it gives.
bool SessionRun::settle_cycle(double at, bool at_start, const std::vector<int>& cycling) {
  const std::vector<double> saved_y(y, y + n), saved_yp(yp, yp + n);
  std::vector<unsigned> combinations(1u << cycling.size());
  std::iota(combinations.begin(), combinations.end(), 0u);
  std::stable_sort(combinations.begin(), combinations.end(),
                   [](unsigned a, unsigned b) { return std::popcount(a) < std::popcount(b); });
  for (unsigned combination : combinations) {
    std::copy(saved_y.begin(), saved_y.end(), y);
    std::copy(saved_yp.begin(), saved_yp.end(), yp);
    for (std::size_t i = 0; i < cycling.size(); ++i) modes[cycling[i]] = (combination >> i) & 1u ? 1.0 : 0.0;
    set_modes();
    discrete_pass(at);
    make_consistent(at, at_start);
    integ.load_relations(at, y, yp, relations);
    relations.run();
    bool consistent = true;
    for (int k = 0; k < n_modes && consistent; ++k)
      consistent = switched_by_root[k] || (relations.output(k) != 0.0 ? 1.0 : 0.0) == modes[k];
    if (consistent && !discrete_pass(at)) return true;
  }
  return false;
}

void SessionRun::event_iteration(double at, bool at_start) {
  std::vector<double> modes_before(modes.begin(), modes.begin() + n_modes);
  // The states of the fixed point at the current pre(), to recognize a cycle.
  std::vector<std::vector<double>> visited;
  std::set<int> recently_changed;  // for the message when it does not settle
  for (int pass = 0;; ++pass) {
    if (pass == max_event_iterations) {
      std::string changing;
      for (int k = 0; k < n_modes; ++k)
        if (modes[k] != modes_before[k]) changing += (changing.empty() ? "" : ", ") + m.dae.modes[k].description;
      for (int k : recently_changed) changing += (changing.empty() ? "" : ", ") + m.dae.discretes[k].name;
      throw SimulationError(where + ": the event iteration at t = " + format_number(at) + " did not settle after " +
                                std::to_string(max_event_iterations) +
                                " passes; still changing: " + (changing.empty() ? "(a reinit)" : changing),
                            at, 0, "", result);
    }
    std::copy(modes.begin(), modes.begin() + n_modes, modes_before.begin());
    if (pass == 0) keep_consistent(at, at_start);
    // Relations that depend on the consistent values may switch once more.
    const bool relations_changed = n_modes > 0 && evaluate_relations(at, false);
    const bool discretes_changed = has_hybrid && discrete_pass(at);
    if (pass >= max_event_iterations - 10) recently_changed.insert(changed_discretes.begin(), changed_discretes.end());
    if (relations_changed || discretes_changed) {
      std::vector<double> state(modes.begin(), modes.begin() + pre_offset);
      const bool cycle = has_hybrid && std::find(visited.begin(), visited.end(), state) != visited.end();
      std::vector<int> cycling;
      for (int k = 0; cycle && k < n_modes; ++k)
        for (const auto& v : visited)
          if (v[k] != state[k] && !switched_by_root[k]) {
            cycling.push_back(k);
            break;
          }
      if (!cycle || cycling.size() > 10 || !settle_cycle(at, at_start, cycling)) {
        visited.push_back(std::move(state));
        keep_consistent(at, at_start);
        continue;
      }
      visited.clear();
    }
    if (!has_hybrid ||
        std::equal(modes.begin() + discrete_offset, modes.begin() + pre_offset, modes.begin() + pre_offset))
      break;
    for (int k = 0; k < n_discretes; ++k)
      if (modes[discrete_offset + k] != modes[pre_offset + k])
        for (int mode : modes_reading_pre[k]) switched_by_root[mode] = 0;
    std::copy(modes.begin() + discrete_offset, modes.begin() + pre_offset, modes.begin() + pre_offset);
    set_modes();
    visited.clear();
  }
  check_assertions(at);
}

// Read at the settled point only: a combination settle_cycle tries and
// rejects may violate an assertion the solution keeps.
void SessionRun::check_assertions(double at) const {
  for (std::size_t w = 0; w < m.whens.size(); ++w) {
    const std::string& assertion = m.dae.whens[w].assertion;
    if (!assertion.empty() && hybrid.output(m.whens[w].first_condition) != 0.0)
      throw SimulationError(fmt::format("{}: {}: {} (assertion failed at t = {})", where,
                                        m.dae.origins[m.dae.whens[w].origin], assertion, format_number(at)),
                            at, 0, "", result);
  }
}

// initial() and sample() are true only while the event iteration of their instant runs.
void SessionRun::set_instant_flags(double at, bool initializing) {
  for (int k = 0; k < n_discretes; ++k) {
    const DaeDiscrete& d = m.dae.discretes[k];
    double& value = modes[discrete_offset + k];
    if (d.role == DaeDiscrete::Role::initial) value = initializing ? 1.0 : 0.0;
    if (d.role == DaeDiscrete::Role::sample) value = ticks(k, at) ? 1.0 : 0.0;
  }
  set_modes();
}

// A discrete defined by an equation that reads sample() or initial() (a
// SampleTrigger's y = sample(...)) is true at its instant only: with the flags
// false it takes its value between events, and so does whatever reads it.
void SessionRun::clear_instant_flags(double at) {
  if (!has_hybrid) return;
  for (int k = 0; k < n_discretes; ++k)
    if (m.dae.discretes[k].role != DaeDiscrete::Role::declared)
      modes[discrete_offset + k] = modes[pre_offset + k] = 0.0;
  set_modes();
  run_hybrid(at);
  bool instant_values = false;
  for (std::size_t k = 0; k < m.defined_discretes.size(); ++k)
    instant_values |= hybrid.output(k) != modes[discrete_offset + m.defined_discretes[k]];
  if (instant_values) event_iteration(at, false);
  remember_conditions();
}

// A root function exactly zero where the integration restarts (a clutch
// locked at exactly zero slip, a mass set onto its stop by reinit) would
// leave zero unseen: IDA reports sign changes, not departures from zero.
// Such a function is shifted by a hysteresis so that its relation switches
// when the value has moved that far to the side where it changes (Modelica
// tools do the same).
void SessionRun::arm_roots(double at) {
  if (m.state_event_modes.empty()) return;
  integ.load_relations(at, y, yp, integ.indicators);
  integ.indicators.run();
  for (std::size_t i = 0; i < m.state_event_modes.size(); ++i) {
    const int k = m.state_event_modes[i];
    integ.root_offset[i] = 0.0;
    if (integ.indicators.output(i) != 0.0) continue;
    const Op op = m.dae.modes[k].relation.op();
    const bool true_above = op == Op::Gt || op == Op::Ge;
    const bool switches_above = true_above == (modes[k] == 0.0);
    integ.root_offset[i] = switches_above ? -hysteresis : hysteresis;
  }
}

void SessionRun::begin_event(double at, std::string why) {
  continued_event = std::numeric_limits<double>::quiet_NaN();
  cause = std::move(why);
  if (!event_at(at)) {
    if (n > 0)
      record(at);
    else
      row_without_unknowns(at);
    return;
  }
  continued_event = result.event_times_.back();  // the rows keep its instant
  result.time_.pop_back();
  result.y_.resize(result.y_.size() - n);
  result.yp_.resize(result.yp_.size() - n);
  result.modes_.resize(result.modes_.size() - modes.size());
  if (sensitivities) result.sensitivities_.resize(result.sensitivities_.size() - 2 * n * sensitivities->count());
  result.event_times_.pop_back();
  cause = result.event_causes_.back() + "; " + cause;
  result.event_causes_.pop_back();
}

// After modes switched at an event: consistent values, then the event
// iteration (relations of values the switch changed, such as a gear read from
// a shift schedule, or states a jump moved across a threshold, follow at the
// same instant until nothing changes), then the right limit.
void SessionRun::finish_event(double at_event) {
  consistent_in_event = states_jumped = false;
  event_iteration(at_event, false);
  clear_instant_flags(at_event);
  if (consistent_in_event) ++reinitializations;
  // What IDA integrates with from here: the next event compares against it.
  frozen_at_consistency = modes;
  if (sensitivities && !event_time_partials.empty()) {
    sensitivities->jump(yp_before_event.data(), yp, event_time_partials);
    hand_over_sensitivities(at_event);
  }
  event_time_partials.clear();
  std::fill(switched_by_root.begin(), switched_by_root.end(), 0);
  arm_roots(at_event);
  delays.record(at_event, y, yp);
  record(at_event);
  if (!std::isnan(continued_event)) result.time_.back() = continued_event;
  result.event_times_.push_back(std::isnan(continued_event) ? at_event : continued_event);
  result.event_causes_.push_back(cause);
}

// At a root, the event time moves with the parameters: dτ/dp from the first
// indicator that crossed (several crossing at once cross at one τ).
void SessionRun::root_sensitivities() {
  yp_before_event.assign(yp, yp + n);
  for (std::size_t i = 0; i < roots.size(); ++i) {
    if (roots[i] == 0) continue;
    // y'' enters only when the indicator reads a derivative; below second order IDA has none (0).
    if (IDAGetDky(s.ida, t, 2, s.ypp) < 0) N_VConst(0.0, s.ypp);
    event_time_partials = sensitivities->root_time_partials(static_cast<int>(i), t, y, yp, N_VGetArrayPointer(s.ypp));
    return;
  }
}

// A time event at a parameter's time (a step's startTime asked for) moves with it.
void SessionRun::time_event_sensitivities(const std::vector<int>& firing) {
  yp_before_event.assign(yp, yp + n);
  const auto value = leaf_values();
  for (int k : firing) {
    // A moving instant (a table's next breakpoint) is a frozen value: its
    // dependence on the parameters is not followed.
    const auto timed = std::find(timed_modes.begin(), timed_modes.end(), k);
    if (moving[static_cast<std::size_t>(timed - timed_modes.begin())]) continue;
    std::vector<double> partials;
    bool moves = false;
    for (const Expr& partial : sensitivities->event_time_partials(k)) {
      partials.push_back(evaluate(partial, value));
      moves = moves || partials.back() != 0.0;
    }
    if (moves) {
      event_time_partials = std::move(partials);
      return;
    }
  }
}

}  // namespace acausal
