// The integration loop: IDA stepped to the next stop (output row, time event,
// communication point), root finding, chattering and Zeno detection, pacing.
#include "solver/runtime/ida/session_run.hpp"

#include <algorithm>
#include <thread>

namespace acausal {

// The stop time is the target itself, so no step passes an output time
// (whose row reads the delays) or hides a root beyond it.
int SessionRun::step_to(double target) {
  if (delays.empty()) return IDASolve(s.ida, target, &t, s.y, s.yp, IDA_NORMAL);
  if (int flag = IDASetStopTime(s.ida, target); flag < 0) return flag;
  // IDA counts max_steps per IDASolve call, and here each call is one step.
  for (long steps = 1;; ++steps) {
    if (steps > options.max_steps) {
      integ.last_message =
          "more than max_steps = " + std::to_string(options.max_steps) + " steps toward t = " + format_number(target);
      return IDA_TOO_MUCH_WORK;
    }
    const double t_before = t;
    int flag = IDASolve(s.ida, target, &t, s.y, s.yp, IDA_ONE_STEP);
    if (flag < 0) return flag;
    constexpr int samples_per_step = 4;
    for (int j = 1; j <= samples_per_step; ++j) {
      double tj = t_before + (t - t_before) * j / samples_per_step;
      IDAGetDky(s.ida, tj, 0, s.dky);
      IDAGetDky(s.ida, tj, 1, s.dkyp);
      delays.record(tj, scratch_y.data(), scratch_yp.data());
    }
    if (flag == IDA_ROOT_RETURN || flag == IDA_TSTOP_RETURN) return flag;
  }
}

// What a failed step looked like: its size and order, and the unknowns whose
// weighted local error estimates were largest, so the message points at the
// part of the model that stalled the integrator rather than at IDA.
std::string SessionRun::step_diagnosis() const {
  double h = 0.0;
  int order = 0;
  IDAGetCurrentStep(s.ida, &h);
  IDAGetCurrentOrder(s.ida, &order);
  N_Vector weights = N_VClone(s.y), errors = N_VClone(s.y);
  std::vector<std::pair<double, int>> ranked;
  if (IDAGetErrWeights(s.ida, weights) == IDA_SUCCESS && IDAGetEstLocalErrors(s.ida, errors) == IDA_SUCCESS) {
    const double* w = N_VGetArrayPointer(weights);
    const double* e = N_VGetArrayPointer(errors);
    for (int i = 0; i < n; ++i) ranked.emplace_back(std::fabs(w[i] * e[i]), i);
  }
  N_VDestroy(weights);
  N_VDestroy(errors);
  const std::size_t shown = std::min<std::size_t>(3, ranked.size());
  std::partial_sort(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(shown), ranked.end(),
                    [](const auto& a, const auto& b) { return a.first > b.first; });
  std::string largest;
  for (std::size_t k = 0; k < shown && ranked[k].first > 0.0; ++k)
    largest += fmt::format("{}{} ({:.3g})", k ? ", " : "", m.dae.variables[m.variable_of_slot[ranked[k].second]].name,
                           ranked[k].first);
  return fmt::format(" (step {:.3g} s, order {}{}{})", h, order, largest.empty() ? "" : "; largest weighted local errors: ",
                     largest);
}

// Chattering (Zeno) and accumulating events, after the roots of a state
// event at t: each ends the run with a SimulationError naming the relations.
void SessionRun::check_chattering() {
  bool jumps = false;
  for (std::size_t i = 0; i < roots.size(); ++i)
    jumps = jumps || (roots[i] != 0 && !m.dae.modes[m.state_event_modes[i]].continuous);
  auto crossed = [&] {
    std::string relations;
    for (std::size_t i = 0; i < roots.size(); ++i)
      if (roots[i] != 0) relations += (relations.empty() ? "" : ", ") + m.dae.modes[m.state_event_modes[i]].description;
    return relations;
  };
  if (!jumps) {
    if (t - continuous_chatter.since > 1e-10 * (1.0 + std::fabs(t))) continuous_chatter = {t, 0};
    recent_continuous_events.push_back(t);
    while (recent_continuous_events.size() > continuous_budget * dense_events) recent_continuous_events.pop_front();
    const bool dense = recent_continuous_events.size() == continuous_budget * dense_events &&
                       t - recent_continuous_events.front() < zeno_gap;
    if (++continuous_chatter.events > continuous_budget * max_events_at_one_instant || dense) {
      const std::string how =
          dense ? std::to_string(recent_continuous_events.size()) + " times within " +
                      format_number(t - recent_continuous_events.front()) + " s"
                : std::to_string(continuous_chatter.events) + " times without time advancing";
      statistics();
      throw SimulationError(where + ": chattering at t = " + format_number(t) + ": " + crossed() + " switched " + how +
                                " (abs, min or max switching between values that differ by rounding: wrap it in " +
                                "no_event())",
                            t, 0, "", result);
    }
    return;
  }
  // Chattering (Zeno): relations that switch again and again at one
  // instant would never let time advance.
  if (t - chatter.since > 1e-10 * (1.0 + std::fabs(t))) chatter = {t, 0, {}};
  ++chatter.events;
  for (std::size_t i = 0; i < roots.size(); ++i)
    if (roots[i] != 0) chatter.relations.insert(m.dae.modes[m.state_event_modes[i]].description);
  // Events within a resolution of each other are one cluster (a bounce and
  // the crossing back that follows it at once).
  if (std::isnan(accumulation.last) || t - accumulation.last > 1e-9 * (1.0 + std::fabs(t))) {
    if (!std::isnan(accumulation.last)) {
      const double gap = t - accumulation.last;
      if (gap < accumulation.gap) {
        ++accumulation.shrinking;
      } else {
        accumulation.shrinking = 0;
        accumulation.relations.clear();
      }
      accumulation.gap = gap;
    }
    accumulation.last = t;
  }
  for (std::size_t i = 0; i < roots.size(); ++i)
    if (roots[i] != 0) {
      accumulation.relations.insert(m.dae.modes[m.state_event_modes[i]].description);
      recent_events.emplace_back(t, m.dae.modes[m.state_event_modes[i]].description);
    }
  while (recent_events.size() > dense_events) recent_events.pop_front();
  if (recent_events.size() == dense_events && t - recent_events.front().first < zeno_gap) {
    std::set<std::string> names;
    for (const auto& [when, relation] : recent_events) names.insert(relation);
    std::string relations;
    for (const auto& r : names) relations += (relations.empty() ? "" : ", ") + r;
    statistics();
    throw SimulationError(
        where + ": chattering at t = " + format_number(t) + ": " + relations + " switched " +
            std::to_string(dense_events) + " times within " + format_number(t - recent_events.front().first) +
            " s (a sliding mode the model does not describe: smooth the switch, or model " + "the stuck mode)",
        t, 0, "", result);
  }
  if (accumulation.shrinking >= zeno_shrinking_gaps && accumulation.gap < zeno_gap) {
    std::string relations;
    for (const auto& r : accumulation.relations) relations += (relations.empty() ? "" : ", ") + r;
    statistics();
    throw SimulationError(where + ": events accumulate at t = " + format_number(t) + " (Zeno behaviour): " +
                              relations + " switched " + std::to_string(accumulation.shrinking + 1) +
                              " times at ever shorter intervals, the last " + format_number(accumulation.gap) +
                              " s apart; end the sequence with a when-clause (a ball at rest stops " +
                              "bouncing: switch its dynamics off below a small speed)",
                          t, 0, "", result);
  }
  if (chatter.events > max_events_at_one_instant) {
    std::string relations;
    for (const auto& r : chatter.relations) relations += (relations.empty() ? "" : ", ") + r;
    statistics();
    throw SimulationError(where + ": chattering at t = " + format_number(t) + ": " + relations + " switched " +
                              std::to_string(chatter.events) +
                              " times without time advancing (a sliding mode the model does not describe: " +
                              "smooth the switch, or model the stuck mode)",
                          t, 0, "", result);
  }
}

void SessionRun::pace(double simulated) {
  if (!(options.realtime_factor > 0)) return;
  // In seconds as a double: a tiny factor (1e-12) makes a wall time that
  // overflows the clock's integer nanoseconds, which disabled the pacing.
  const double due = (simulated - options.t_start) / options.realtime_factor;
  // In slices, so that an interrupt is seen within one.
  while (!integ.interrupted()) {
    const double left = due - seconds_since(wall_origin);
    if (!(left > 0)) return;
    std::this_thread::sleep_for(std::chrono::duration<double>(std::min(left, 0.05)));
  }
  fail("interrupted", 0, simulated);
}

// After the corrector failed at every step size: a restart at order 1 from
// the last step IDA accepted, once per instant. At high order IDA's predictor
// takes y' from its interpolating polynomial, which can miss the equations
// that tie derivatives to algebraic unknowns (a car's load transfer reads its
// accelerations, a sliding brake's path parameter is its wheel's angular
// acceleration) by more than Newton's iteration recovers from as the step
// shrinks; consistent values and a fresh history remove that error.
bool SessionRun::restart_after_convergence_failure() {
  double t_accepted = t;
  IDAGetCurrentTime(s.ida, &t_accepted);
  if (t_accepted == last_restart) return false;
  last_restart = t_accepted;
  N_Vector y_accepted = N_VClone(s.y), yp_accepted = N_VClone(s.yp);
  const bool interpolated = IDAGetDky(s.ida, t_accepted, 0, y_accepted) == IDA_SUCCESS &&
                            IDAGetDky(s.ida, t_accepted, 1, yp_accepted) == IDA_SUCCESS;
  if (interpolated) {
    N_VScale(1.0, y_accepted, s.y);
    N_VScale(1.0, yp_accepted, s.yp);
  }
  N_VDestroy(y_accepted);
  N_VDestroy(yp_accepted);
  if (!interpolated) return false;
  t = t_accepted;
  ++restarts;
  make_consistent(t, false);
  return true;
}

// A state event at t: the roots found (`roots`, by direction) switch their
// relations, then the event iteration and the right-limit row.
void SessionRun::state_event() {
  std::string crossed;
  for (std::size_t i = 0; i < roots.size(); ++i)
    if (roots[i] != 0) crossed += (crossed.empty() ? "" : ", ") + m.dae.modes[m.state_event_modes[i]].description;
  begin_event(t, crossed);
  check_chattering();
  for (std::size_t i = 0; i < roots.size(); ++i) {
    if (roots[i] == 0) continue;
    int mode = m.state_event_modes[i];
    Op op = m.dae.modes[mode].relation.op();
    // The indicator is lhs - rhs of the relation: its direction decides the new value.
    modes[mode] = (op == Op::Gt || op == Op::Ge) == (roots[i] > 0) ? 1.0 : 0.0;
    switched_by_root[mode] = 1;
  }
  set_modes();
  finish_event(t);
}

// The time event due at t (next_time_event()), with any due within rounding of it.
void SessionRun::time_event() {
  std::string timed;
  std::vector<int> firing;  // the time-event modes whose instant this is
  event_times.run();
  for (std::size_t i = 0; i < timed_modes.size(); ++i)
    if (const int mode = timed_modes[i]; std::fabs(event_times.output(i) - t) <= 1e-12 * (1.0 + std::fabs(t))) {
      timed += (timed.empty() ? "" : ", ") + m.dae.modes[mode].description;
      firing.push_back(mode);
    }
  for (int c : clocks)
    if (ticks(c, t)) timed += (timed.empty() ? "" : ", ") + m.dae.discretes[c].name;
  if (sensitivities) time_event_sensitivities(firing);
  begin_event(t, timed.empty() ? "a delayed jump" : timed);
  // Events closer together than the solver can step (a ramp lasting
  // 1e-13 s) are one event, taken at the last of them so that every
  // relation reads its far side.
  const double resolution = 1e-12 * (1.0 + std::fabs(t));
  while (next_event < time_events.size() && time_events[next_event] <= t + resolution)
    t = std::max(t, time_events[next_event++]);
  evaluate_relations(t, true);
  if (!clocks.empty()) set_instant_flags(t, false);
  finish_event(t);
}

// Integrates to `goal`. simulate() (row_at_goal false, goal = t_end) records
// the output rows and ends on the last; a session's step stops the integrator
// at the goal and records a row there.
void SessionRun::run(double goal, bool row_at_goal) {
  if (n == 0) return run_without_unknowns(goal, row_at_goal);
  const double goal_resolution = 1e-12 * (1.0 + std::fabs(goal));
  bool goal_done = !row_at_goal;
  for (;;) {
    const bool output_due = k <= n_outputs && (!row_at_goal || output_time(k) <= goal + goal_resolution);
    if (!output_due && goal_done) break;
    if (integ.interrupted()) fail("interrupted", 0, t);
    double tout = output_due ? output_time(k) : goal;
    if (row_at_goal) tout = std::min(tout, goal);
    // IDA stops exactly at the next time event (or the end) and interpolates outputs before it.
    const double t_event = next_time_event();
    const double t_stop = std::isinf(t_event) ? options.t_end : t_event;
    const bool time_event_first = !std::isinf(t_event) && t_stop <= tout;
    const double target = std::min(tout, t_stop);
    int flag = IDA_SUCCESS;
    if (target > t + 1e-12 * (1.0 + std::fabs(t))) {  // a root can land exactly on the next stop
      // A session's goal is a stop too: what the caller reads and changes
      // there is the solution, not an interpolation (a controller sampling in
      // C++ then matches the same controller sampled in the model).
      check(IDASetStopTime(s.ida, row_at_goal ? std::min(t_stop, goal) : t_stop), "IDASetStopTime");
      flag = step_to(target);
      if (flag >= 0 && sensitivities) sensitivities->fetch(s.ida, t);
    }
    if (flag == IDA_CONV_FAIL && restart_after_convergence_failure()) continue;
    if (flag < 0) {
      statistics();
      double t_fail = t;
      IDAGetCurrentTime(s.ida, &t_fail);
      stats.integration_seconds = seconds_before_step + seconds_since(step_started);
      // Values near the end of the floating-point range make IDA's step
      // estimates 0 or infinite, and its own message then misleads.
      std::string extreme;
      for (int i = 0; i < n; ++i) {
        const std::string& name = m.dae.variables[m.variable_of_slot[i]].name;
        if (!(std::fabs(y[i]) < 1e100)) extreme += (extreme.empty() ? "" : ", ") + name + " = " + format_number(y[i]);
        if (!(std::fabs(yp[i]) < 1e100))
          extreme += (extreme.empty() ? "" : ", ") + ("der(" + name + ") = ") + format_number(yp[i]);
      }
      fail(extreme.empty() ? "the solver failed" + step_diagnosis()
                           : "values at the edge of the floating-point range (" + extreme +
                                 ") stopped the solver; check the start values and parameters that set them",
           flag, t_fail);
    }
    if (flag == IDA_ROOT_RETURN) {
      IDAGetRootInfo(s.ida, roots.data());
      if (sensitivities) root_sensitivities();
      quiet_events = !sensitivities;
      state_event();
      quiet_events = false;
      // An output time on the event is the right-limit row just recorded (to_pandas promises a unique index).
      while (k <= n_outputs && output_time(k) <= t + 1e-12 * (1.0 + std::fabs(t))) ++k;
      if (t >= goal - goal_resolution) goal_done = true;
      continue;
    }
    if (time_event_first) {
      quiet_events = !sensitivities;
      time_event();
      quiet_events = false;
      // An output time on the event (up to rounding of t_start + k·dt) is the row just recorded.
      while (k <= n_outputs && output_time(k) <= t + 1e-12 * (1.0 + std::fabs(t))) ++k;
      if (t >= goal - goal_resolution) goal_done = true;  // the event's rows are the rows at the goal
      continue;
    }
    record(tout);
    pace(tout);
    if (output_due) ++k;
    if (!output_due || tout >= goal) goal_done = true;
  }
  if (row_at_goal && t < goal) t = goal;
}

void SessionRun::run_without_unknowns(double goal, bool row_at_goal) {
  const double goal_resolution = 1e-12 * (1.0 + std::fabs(goal));
  bool goal_done = !row_at_goal;
  for (;;) {
    const bool output_due = k <= n_outputs && (!row_at_goal || output_time(k) <= goal + goal_resolution);
    if (!output_due && goal_done) break;
    double at = output_due ? output_time(k) : goal;
    if (row_at_goal) at = std::min(at, goal);
    row_without_unknowns(at);
    t = at;
    pace(at);
    if (output_due) ++k;
    if (!output_due || at >= goal) goal_done = true;
  }
  if (row_at_goal && t < goal) t = goal;
}

void SessionRun::advance(double goal, bool row_at_goal) {
  step_started = Clock::now();
  seconds_before_step = stats.integration_seconds;
  try {
    if (restart_pending) restart();
    run(goal, row_at_goal);
  } catch (const std::exception& error) {
    broken = true;
    broken_because = error.what();
    throw;
  }
  statistics();
  stats.integration_seconds = seconds_before_step + seconds_since(step_started);
  if (row_at_goal) pace(t);
}

}  // namespace acausal
