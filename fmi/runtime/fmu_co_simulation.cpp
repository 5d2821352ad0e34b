// Co-Simulation: the FMU integrates with the library's own solver, one
// Session advanced from communication point to communication point.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "fmi/runtime/fmu_instance.hpp"

namespace acausal::fmi {

fmi2Status FmuInstance::do_step(double communication_point, double step_size) {
  static constexpr const char* function = "fmi2DoStep";
  if (!of_type(function, fmi2CoSimulation) || !in_state(function, {FmuState::step_complete})) return fmi2Error;
  Session& session = *session_;
  const double now = session.time();
  if (!(std::fabs(communication_point - now) <= 1e-12 * std::max(1.0, std::fabs(now))))
    return usage_error(function, fmt::format("currentCommunicationPoint = {} is not the time the FMU has reached, {}",
                                             communication_point, now));
  if (!std::isfinite(step_size) || !(step_size > 0))
    return usage_error(function, fmt::format("communicationStepSize = {} is not positive and finite", step_size));
  double target = now + step_size;
  const double end = session_options().t_end;
  // A master that sums its steps lands on the stop time only to rounding.
  if (target > end && target - end <= 1e-12 * std::max(1.0, std::fabs(end))) target = end;
  if (target > end)
    return usage_error(function, fmt::format("the step from {} by {} goes past the stop time {}", now, step_size, end));
  if (!(target > now))
    return usage_error(function, fmt::format("the step size {} does not move the time {}", step_size, now));
  try {
    session.advance(target);
  } catch (const SimulationError& e) {
    // The standard's way to say the step ended early: the master may go
    // back to a saved state and try smaller steps.
    last_successful_time_ = e.time_reached();
    state_ = FmuState::step_failed;
    log_.error(fmt::format("{}: the step from {} to {} stopped at {}: {}", function, now, target, e.time_reached(),
                           e.what()),
               fmi2Discard);
    return fmi2Discard;
  }
  last_successful_time_ = session.time();
  session.forget_rows();  // the session's rows serve no one here, yet every step adds some
  return fmi2OK;
}

fmi2Status FmuInstance::get_real_status(fmi2StatusKind kind, fmi2Real* value) {
  static constexpr const char* function = "fmi2GetRealStatus";
  if (!of_type(function, fmi2CoSimulation)) return fmi2Error;
  if (!in_state(function, {FmuState::step_complete, FmuState::step_failed, FmuState::terminated})) return fmi2Error;
  if (kind != fmi2LastSuccessfulTime) return usage_error(function, "only fmi2LastSuccessfulTime is a Real status");
  if (!value) return usage_error(function, "value is NULL");
  *value = last_successful_time_;
  return fmi2OK;
}

fmi2Status FmuInstance::get_boolean_status(fmi2StatusKind kind, fmi2Boolean* value) {
  static constexpr const char* function = "fmi2GetBooleanStatus";
  if (!of_type(function, fmi2CoSimulation)) return fmi2Error;
  if (!in_state(function, {FmuState::step_complete, FmuState::step_failed, FmuState::terminated})) return fmi2Error;
  if (kind != fmi2Terminated) return usage_error(function, "only fmi2Terminated is a Boolean status");
  if (!value) return usage_error(function, "value is NULL");
  // A failed step leaves the choice to the master: the model never asks to stop.
  *value = fmi2False;
  return fmi2OK;
}

}  // namespace acausal::fmi
