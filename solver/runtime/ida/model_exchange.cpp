// ModelExchange: a SessionRun whose integrator is the host's. IDA is never
// stepped; its memory serves the consistent re-initialization at events, as
// in any run, and the event handling is SessionRun's own.
#include "solver/runtime/model_exchange.hpp"

#include "solver/runtime/ida/session_run.hpp"

namespace acausal {

ModelExchange Simulator::start_model_exchange(const SimulationOptions& options) const {
  return ModelExchange(model_, parameters_, options);
}

namespace {

std::vector<int> state_slots(const CompiledModel& m) {
  std::vector<int> slots;
  for (int k = 0; k < m.n; ++k)
    if (m.differential[k] != 0.0) slots.push_back(k);
  return slots;
}

}  // namespace

ModelExchange::ModelExchange(std::shared_ptr<const CompiledModel> model, const std::vector<double>& parameters,
                             const SimulationOptions& options)
    : run_(SessionRun::create(std::move(model), parameters, options, "model_exchange")),
      state_slots_(state_slots(run_->m)) {}
ModelExchange::ModelExchange(ModelExchange&&) noexcept = default;
ModelExchange& ModelExchange::operator=(ModelExchange&&) noexcept = default;
ModelExchange::~ModelExchange() = default;

int ModelExchange::n_states() const { return static_cast<int>(state_slots_.size()); }

int ModelExchange::n_event_indicators() const { return static_cast<int>(run_->m.state_event_modes.size()); }

std::vector<std::string> ModelExchange::state_names() const {
  const CompiledModel& m = run_->m;
  std::vector<std::string> names;
  for (int slot : state_slots_) names.push_back(m.dae.variables[m.variable_of_slot[slot]].name);
  return names;
}

double ModelExchange::time() const { return run_->t; }

void ModelExchange::set_time(double t) {
  SessionRun& r = *run_;
  if (!std::isfinite(t) || t < r.options.t_start)
    throw ModelError(fmt::format("{}: the time set, {}, is not a finite time from t_start = {} on", r.where,
                                 format_number(t), format_number(r.options.t_start)));
  if (t != r.t) solved_ = false;
  r.t = t;
}

void ModelExchange::set_states(const std::vector<double>& x) {
  SessionRun& r = *run_;
  const std::vector<int>& slots = state_slots_;
  if (x.size() != slots.size())
    throw ModelError(fmt::format("{}: {} states given, the model has {}", r.where, x.size(), slots.size()));
  for (std::size_t i = 0; i < slots.size(); ++i) {
    if (!std::isfinite(x[i]))
      throw ModelError(fmt::format("{}: the value set for the state {} is {}", r.where,
                                   r.m.dae.variables[r.m.variable_of_slot[slots[i]]].name, format_number(x[i])));
    if (r.y[slots[i]] != x[i]) solved_ = false;
    r.y[slots[i]] = x[i];
  }
}

std::vector<double> ModelExchange::states() const {
  std::vector<double> x;
  for (int slot : state_slots_) x.push_back(run_->y[slot]);
  return x;
}

// The exact outputs' iteration solves exactly this problem: states held, the
// algebraic unknowns and every y' from the equations. Its acceptance is to
// rounding, which values that should be zero (a car at rest: speeds of
// 1e-13 from terms of 1e3) never reach; a host's integrator needs the
// solution a thousandth of its error weights away at most, a millionth here.
constexpr double kWeightedFloor = 1e-6;

void ModelExchange::solve() {
  if (solved_) return;
  SessionRun& r = *run_;
  r.ensure_usable("a model exchange call");
  ExactOutputs::Outcome outcome = r.exact.solve(r.y, r.yp, r.load_at(r.t), kWeightedFloor);
  if (!outcome.exact && outcome.nonfinite_equation < 0) {
    r.exact.forget();  // a matrix from far away (a large step of the host): once more with a fresh one
    outcome = r.exact.solve(r.y, r.yp, r.load_at(r.t), kWeightedFloor);
  }
  if (!outcome.exact) {
    const std::string why =
        outcome.nonfinite_equation >= 0
            ? fmt::format("{} is not finite there", r.m.dae.describe(r.m.dae.equations[outcome.nonfinite_equation]))
            : "Newton's method did not converge; the equations furthest from holding: " + r.worst_residuals(r.t);
    throw SimulationError(fmt::format("{}: no solution of the algebraic equations at t = {} for the states set: {}",
                                      r.where, format_number(r.t), why),
                          r.t, 0, "", r.result);
  }
  solved_ = true;
}

std::vector<double> ModelExchange::derivatives() {
  solve();
  std::vector<double> dx;
  for (int slot : state_slots_) dx.push_back(run_->yp[slot]);
  return dx;
}

std::vector<double> ModelExchange::event_indicators() {
  SessionRun& r = *run_;
  std::vector<double> z(r.m.state_event_modes.size());
  if (z.empty()) return z;
  solve();
  Integration::root_fn(r.t, r.s.y, r.s.yp, z.data(), &r.integ);
  return z;
}

double ModelExchange::next_time_event() const {
  return run_->next_time_event();
}

ModelExchange::EventOutcome ModelExchange::event() {
  SessionRun& r = *run_;
  r.ensure_usable("event");
  EventOutcome outcome;
  if (r.n > 0) {
    solve();
    const std::vector<double> before = states();
    try {
      if (r.restart_pending) r.restart();
      // A relation switches where its indicator's sign no longer matches its
      // value: the crossing the host located (an indicator that merely
      // touched zero and went back has the relation's sign again).
      const bool time_event_due = r.next_time_event() <= r.t + 1e-12 * (1.0 + std::fabs(r.t));
      const std::vector<double> z = event_indicators();
      bool crossed = false;
      for (std::size_t i = 0; i < z.size(); ++i) {
        const int mode = r.m.state_event_modes[i];
        const bool true_above = r.m.dae.modes[mode].relation.op() == Op::Gt || r.m.dae.modes[mode].relation.op() == Op::Ge;
        // An indicator exactly zero is a root the host located on the point
        // (a root finder may stop there): the relation switches to the side
        // it was heading for, the other side than its value says. Had the
        // event gone unhandled, a root finder restarting from zero would not
        // report the sign change that follows.
        const double side = z[i] != 0.0 ? (true_above == (z[i] > 0) ? 1.0 : 0.0)
                            : time_event_due ? r.modes[mode]
                                             : 1.0 - r.modes[mode];
        r.roots[i] = side == r.modes[mode] ? 0 : (true_above == (side == 1.0) ? 1 : -1);
        crossed = crossed || r.roots[i] != 0;
      }
      if (crossed) r.state_event();
      if (time_event_due) r.time_event();
    } catch (const std::exception& error) {
      r.broken = true;
      r.broken_because = error.what();
      throw;
    }
    outcome.states_changed = states() != before;
    // The rows are the events' left and right limits, which no one reads
    // here: the memory stays flat however long the host integrates.
    r.forget_rows();
  }
  outcome.next_time_event = next_time_event();
  return outcome;
}

void ModelExchange::completed_step() {
  SessionRun& r = *run_;
  if (r.delays.empty()) return;
  solve();
  r.delays.record(r.t, r.y, r.yp);
}

double ModelExchange::get(const std::string& name) {
  solve();
  return run_->get(name);
}

void ModelExchange::set_input(const std::string& name, double value) {
  SessionRun& r = *run_;
  std::vector<double> candidate = r.parameters_with(name, value);
  if (candidate == r.parameters) return;
  r.parameters = std::move(candidate);
  r.copy_parameters();
  r.note_parameters();
  solved_ = false;
}

void ModelExchange::set_parameter(const std::string& name, double value) {
  run_->set_parameter(name, value);
  run_->forget_rows();
}

SessionState ModelExchange::state() const { return run_->state(); }

void ModelExchange::set_state(const SessionState& state) {
  run_->set_state(state);
  solved_ = true;
}

}  // namespace acausal
