// Session: the public handle of a run (solver/runtime/ida/session_run.hpp).
#include "solver/runtime/session.hpp"

#include "solver/runtime/ida/session_run.hpp"

namespace acausal {

Session::Session(std::shared_ptr<const CompiledModel> model, const std::vector<double>& parameters,
                 const SimulationOptions& options, const std::string& caller)
    : run_(SessionRun::create(std::move(model), parameters, options, caller)) {}
Session::Session(Session&&) noexcept = default;
Session& Session::operator=(Session&&) noexcept = default;
Session::~Session() = default;

std::unique_lock<std::mutex> Session::take_turn() const {
  if (!turn_) throw ModelError("this Session was moved from: use the Session it was moved to");
  return std::unique_lock<std::mutex>(*turn_);
}

SessionRun& Session::run() const {
  if (!run_) throw ModelError("this Session was moved from: use the Session it was moved to");
  return *run_;
}

double Session::time() const {
  const auto lock = take_turn();
  return run().t;
}

void Session::advance(double t) {
  const auto lock = take_turn();
  SessionRun& r = run();
  r.ensure_usable("advance");
  if (!(t > r.t) || !(t <= r.options.t_end))
    throw ModelError(r.where + ": advance(" + format_number(t) + ") must go beyond time() = " + format_number(r.t) +
                     " and not past t_end = " + format_number(r.options.t_end));
  r.advance(t, true);
}

double Session::get(const std::string& name) const {
  const auto lock = take_turn();
  return run().get(name);
}

void Session::set_parameter(const std::string& name, double value) {
  const auto lock = take_turn();
  run().set_parameter(name, value);
}

SessionState Session::state() const {
  const auto lock = take_turn();
  return run().state();
}

void Session::set_state(const SessionState& state) {
  const auto lock = take_turn();
  run().set_state(state);
}

void Session::set_point(const OperatingPoint& point) {
  SessionState s = state();
  s.time = point.time;
  s.y = point.y;
  s.yp = point.yp;
  s.frozen = point.frozen;
  s.parameters = point.parameters;
  set_state(s);
}

void Session::reset() {
  const auto lock = take_turn();
  SessionRun& r = run();
  run_ = SessionRun::create(r.model_ptr, r.start_parameters, r.options, r.caller);
}

const Result& Session::result() const {
  const auto lock = take_turn();
  return run().result;
}

void Session::forget_rows() {
  const auto lock = take_turn();
  run().forget_rows();
}

Result Session::finish() {
  const auto lock = take_turn();
  SessionRun& r = run();
  r.advance(r.options.t_end, false);
  return r.take_result();
}

}  // namespace acausal
