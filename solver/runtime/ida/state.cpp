// A session's operations between steps: parameters changed as events, get(),
// state() / set_state(), restarts.
#include "solver/runtime/ida/session_run.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

namespace acausal {

void SessionRun::ensure_usable(const char* operation) const {
  if (broken)
    throw ModelError(fmt::format("{}: {} after the run failed at t = {} ({}); reset() or set_state() to go on", where,
                                 operation, format_number(t), broken_because));
}

// The integrator begins again at (t, y, y'), as after an event but with
// nothing changed: the same point, whether the run got here by integrating or
// from a saved state, continues the same way.
void SessionRun::restart_here() {
  restart_pending = false;
  copy_parameters();
  set_modes();
  schedule_time_events(t);
  k = 1;
  while (k <= n_outputs && output_time(k) <= t + 1e-12 * (1.0 + std::fabs(t))) ++k;
  if (n == 0) return;
  std::fill(switched_by_root.begin(), switched_by_root.end(), 0);
  integ.nonfinite_equation = -1;
  exact.forget();
  if (exact_relations) exact_relations->forget();
  // A restored state's own modes, not those of the run it replaced.
  frozen_at_consistency = modes;
  check(IDAReInit(s.ida, t, s.y, s.yp), "IDAReInit");
}

void SessionRun::restart() {
  statistics();
  before_reinit = stats;
  restart_here();
}

// What simulate() checks at its start, for parameter values about to be set.
void SessionRun::check_parameters(const std::vector<double>& candidate) const {
  check_parameter_values(m, candidate);
  auto value = [&](const Node* leaf) { return candidate[m.dae.parameter_of.at(leaf)]; };
  for (int k : clocks) {
    const DaeDiscrete& d = m.dae.discretes[k];
    check_clock(k, evaluate(d.clock.start, value), evaluate(d.clock.interval, value), t);
  }
}

// The rows from the next one on are read with the current parameters.
void SessionRun::note_parameters() {
  auto& changes = result.parameter_changes_;
  const std::size_t first = result.time_.size();
  while (!changes.empty() && changes.back().first >= first) changes.pop_back();
  changes.emplace_back(first, parameters);
}

std::vector<double> SessionRun::parameters_with(const std::string& name, double value) const {
  auto it = m.parameter_by_name.find(name);
  if (it == m.parameter_by_name.end()) {
    std::vector<std::string> names;
    for (const auto& p : m.dae.parameters) names.push_back(p.name);
    throw UnknownNameError("model '" + m.dae.model_name + "'", "parameter", name, names);
  }
  const int p = it->second;
  check_parameter_change(m, p, parameters[p], value);
  if (std::find(delay_time_parameters.begin(), delay_time_parameters.end(), p) != delay_time_parameters.end())
    throw ModelError(where + ": parameter " + name +
                     " sets a delay time, which cannot change during a run (the recorded past is as long as the "
                     "delay); set it on the Simulator before start()");
  std::vector<double> candidate = parameters;
  candidate[p] = value;
  check_parameters(candidate);
  return candidate;
}

void SessionRun::forget_rows() {
  if (result.size() > 1) drop_first_rows(result.size() - 1);
  drop_initial_row = false;  // already gone
}

void SessionRun::set_parameter(const std::string& name, double value) {
  ensure_usable("set_parameter");
  std::vector<double> candidate = parameters_with(name, value);
  try {
    if (restart_pending) restart();
    const std::string why = "set_parameter(" + name + " = " + format_number(value) + ")";
    // The row at time() that the last step recorded is the left limit.
    if (!result.time_.empty() && result.time_.back() == t && !event_at(t)) {
      continued_event = std::numeric_limits<double>::quiet_NaN();
      cause = why;
    } else {
      begin_event(t, why);
    }
    parameters = std::move(candidate);
    copy_parameters();
    note_parameters();
    schedule_time_events(t);
    if (n == 0) {
      row_without_unknowns(t);
      if (!std::isnan(continued_event)) result.time_.back() = continued_event;
      result.event_times_.push_back(std::isnan(continued_event) ? t : continued_event);
      result.event_causes_.push_back(cause);
      return;
    }
    // Relations of time whose instant moved (a step's startTime) switch now;
    // the event iteration reads every other relation and when-condition.
    evaluate_relations(t, true);
    finish_event(t);
  } catch (const std::exception& error) {
    broken = true;
    broken_because = error.what();
    throw;
  }
}

// "der(x)" of a state x (a differential unknown): its slot, else -1.
int SessionRun::state_slot_of_derivative(const std::string& name) const {
  if (name.size() < 6 || name.compare(0, 4, "der(") != 0 || name.back() != ')') return -1;
  const auto v = m.variable_by_name.find(name.substr(4, name.size() - 5));
  if (v == m.variable_by_name.end()) return -1;
  const int slot = m.slot_of_variable[v->second];
  return slot >= 0 && m.differential[slot] != 0.0 ? slot : -1;
}

double SessionRun::get(const std::string& name) {
  auto it = probes.find(name);
  if (it == probes.end()) {
    auto v = m.variable_by_name.find(name);
    if (auto p = m.parameter_by_name.find(name); v == m.variable_by_name.end() && p != m.parameter_by_name.end())
      return parameters[p->second];
    if (const int slot = state_slot_of_derivative(name); v == m.variable_by_name.end() && slot >= 0) return yp[slot];
    if (v == m.variable_by_name.end()) {
      std::vector<std::string> names;
      for (const auto& variable : m.dae.variables) names.push_back(variable.name);
      for (const auto& parameter : m.dae.parameters) names.push_back(parameter.name);
      throw UnknownNameError("the session of model '" + m.dae.model_name + "'", "variable or parameter", name, names);
    }
    it = probes.emplace(name, m.observer({m.value_of(v->second)})).first;
  }
  Tape& probe = it->second;
  double* in = probe.inputs();
  in[0] = t;
  in[1] = 0.0;
  std::copy_n(y, n, in + 2);
  std::copy_n(yp, n, in + 2 + n);
  std::copy(parameters.begin(), parameters.end(), in + m.parameter_register());
  std::copy(modes.begin(), modes.end(), in + m.mode_register());
  probe.run();
  return probe.output(0);
}

// FNV-1a over the names of IDA's unknowns (slot order), the parameters and
// the frozen values' count: what a SessionState's vectors are indexed by.
std::uint64_t SessionRun::fingerprint() const {
  std::uint64_t h = 1469598103934665603ull;
  auto mix = [&](std::string_view text) {
    for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
    h = (h ^ 0xff) * 1099511628211ull;  // a separator: "ab","c" differs from "a","bc"
  };
  for (int k = 0; k < n; ++k) mix(m.dae.variables[m.variable_of_slot[k]].name);
  for (const auto& p : m.dae.parameters) mix(p.name);
  mix(std::to_string(modes.size()));
  return h;
}

SessionState SessionRun::state() {
  ensure_usable("state()");
  SessionState saved;
  saved.model = m.dae.model_name;
  saved.fingerprint = fingerprint();
  saved.t_start = options.t_start;
  saved.time = t;
  if (n > 0) {
    saved.y.assign(y, y + n);
    saved.yp.assign(yp, yp + n);
  }
  saved.frozen = modes;
  saved.parameters = parameters;
  saved.delay_history = delays.history();
  SessionState::Events& e = saved.events;
  for (const auto& conditions : condition_before)
    e.when_conditions.insert(e.when_conditions.end(), conditions.begin(), conditions.end());
  e.root_offsets = integ.root_offset;
  e.chatter_since = chatter.since;
  e.chatter_events = chatter.events;
  e.chatter_relations.assign(chatter.relations.begin(), chatter.relations.end());
  e.cluster_time = accumulation.last;
  e.cluster_gap = accumulation.gap;
  e.shrinking_gaps = accumulation.shrinking;
  e.accumulating_relations.assign(accumulation.relations.begin(), accumulation.relations.end());
  e.recent_events.assign(recent_events.begin(), recent_events.end());
  e.last_event_time = std::numeric_limits<double>::quiet_NaN();
  if (event_at(t) && !result.time_.empty() && result.time_.back() == result.event_times_.back()) {
    e.last_event_time = result.event_times_.back();
    e.last_event_cause = result.event_causes_.back();
  }
  statistics();
  saved.statistics = stats;
  restart_pending = true;
  return saved;
}

void SessionRun::set_state(const SessionState& saved) {
  const std::string head = where + ": set_state: ";
  if (saved.model != m.dae.model_name)
    throw ModelError(head + "the state is of model '" + saved.model + "', not '" + m.dae.model_name + "'");
  for (std::size_t w = 0; w < m.whens.size(); ++w)
    if (m.whens[w].call)
      throw ModelError(head + m.dae.origins[m.dae.whens[w].origin] +
                       " calls an external function (an imported FMU) whose own state a session state does not hold");
  if (saved.fingerprint != fingerprint())
    throw ModelError(head + "the state is of another compiled model named '" + saved.model +
                     "' (its unknowns or parameters differ, or were declared in another order): a state only "
                     "continues the compiled model it was saved from");
  if (saved.t_start != options.t_start)
    throw ModelError(head + "the state is of a run started at t_start = " + format_number(saved.t_start) +
                     ", this session started at " + format_number(options.t_start));
  if (!std::isfinite(saved.time) || saved.time < options.t_start || saved.time > options.t_end)
    throw ModelError(head + "the state's time " + format_number(saved.time) + " is outside [t_start, t_end] = [" +
                     format_number(options.t_start) + ", " + format_number(options.t_end) + "]");
  std::size_t n_conditions = 0;
  for (const auto& w : m.whens) n_conditions += w.n_conditions;
  auto refuse_size = [&](const std::string& what, std::size_t got, std::size_t expected) {
    if (got != expected)
      throw ModelError(head + "the state has " + std::to_string(got) + " " + what + ", the compiled model " +
                       std::to_string(expected) + " (a state of another compilation of '" + m.dae.model_name + "'?)");
  };
  refuse_size("unknowns", saved.y.size(), static_cast<std::size_t>(n));
  refuse_size("derivatives", saved.yp.size(), static_cast<std::size_t>(n));
  refuse_size("frozen values", saved.frozen.size(), modes.size());
  refuse_size("parameters", saved.parameters.size(), parameters.size());
  refuse_size("delay lines", saved.delay_history.size(), m.delays.size());
  refuse_size("when-conditions", saved.events.when_conditions.size(), n_conditions);
  refuse_size("root offsets", saved.events.root_offsets.size(), m.state_event_modes.size());
  for (int p : delay_time_parameters)
    if (saved.parameters[p] != parameters[p])
      throw ModelError(head + "the state's " + m.dae.parameters[p].name + " = " + format_number(saved.parameters[p]) +
                       " sets a delay time, and this session's is " + format_number(parameters[p]));
  try {
    t = saved.time;
    if (n > 0) {
      std::copy(saved.y.begin(), saved.y.end(), y);
      std::copy(saved.yp.begin(), saved.yp.end(), yp);
    }
    modes = saved.frozen;
    parameters = saved.parameters;
    delays.set_history(saved.delay_history);
    const SessionState::Events& e = saved.events;
    std::size_t c = 0;
    for (auto& conditions : condition_before)
      for (auto& condition : conditions) condition = e.when_conditions[c++];
    integ.root_offset = e.root_offsets;
    chatter.since = e.chatter_since;
    chatter.events = e.chatter_events;
    chatter.relations = {e.chatter_relations.begin(), e.chatter_relations.end()};
    accumulation.last = e.cluster_time;
    accumulation.gap = e.cluster_gap;
    accumulation.shrinking = e.shrinking_gaps;
    accumulation.relations = {e.accumulating_relations.begin(), e.accumulating_relations.end()};
    recent_events = {e.recent_events.begin(), e.recent_events.end()};

    // The result begins again at the saved point.
    const std::string linear_solver = stats.linear_solver;
    result = Result();
    result.model_ = model_ptr;
    result.parameters_ = parameters;
    result.time_.push_back(t);
    result.y_ = saved.y;
    result.yp_ = saved.yp;
    result.modes_ = modes;
    if (!std::isnan(e.last_event_time)) {
      result.time_.back() = e.last_event_time;
      result.event_times_.push_back(e.last_event_time);
      result.event_causes_.push_back(e.last_event_cause);
    }
    stats = saved.statistics;
    stats.linear_solver = linear_solver;
    before_reinit = stats;
    broken = false;
    broken_because.clear();
    restart_here();
  } catch (const std::exception& error) {
    broken = true;
    broken_because = error.what();
    throw;
  }
  wall_origin =
      Clock::now() - std::chrono::ceil<Clock::duration>(std::chrono::duration<double>(
                         options.realtime_factor > 0 ? (t - options.t_start) / options.realtime_factor : 0.0));
}

}  // namespace acausal
