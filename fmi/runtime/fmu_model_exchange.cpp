// Model Exchange: the master integrates the states; the FMU gives their
// derivatives (algebraic loops solved inside), event indicators, the next time
// event, and Modelica's event iteration in fmi2NewDiscreteStates, over a
// ModelExchange run (solver/runtime/model_exchange.hpp).
#include <cmath>

#include <fmt/format.h>

#include "fmi/runtime/fmu_instance.hpp"

namespace acausal::fmi {

namespace {

// The states in which the model's values can be read once it was initialized.
constexpr std::initializer_list<FmuState> kReadable{FmuState::initialization, FmuState::event_mode,
                                                    FmuState::continuous_time_mode, FmuState::terminated,
                                                    FmuState::error};

}  // namespace

fmi2Status FmuInstance::enter_event_mode() {
  static constexpr const char* function = "fmi2EnterEventMode";
  if (!of_type(function, fmi2ModelExchange) ||
      !in_state(function, {FmuState::event_mode, FmuState::continuous_time_mode}))
    return fmi2Error;
  state_ = FmuState::event_mode;
  return fmi2OK;
}

fmi2Status FmuInstance::new_discrete_states(fmi2EventInfo* info) {
  static constexpr const char* function = "fmi2NewDiscreteStates";
  if (!of_type(function, fmi2ModelExchange) || !in_state(function, {FmuState::event_mode})) return fmi2Error;
  if (!info) return usage_error(function, "fmi2eventInfo is NULL");
  const ModelExchange::EventOutcome outcome = exchange_->event();
  // event() iterates to the fixed point itself: one call settles the instant.
  info->newDiscreteStatesNeeded = fmi2False;
  info->terminateSimulation = fmi2False;
  info->nominalsOfContinuousStatesChanged = fmi2False;
  info->valuesOfContinuousStatesChanged = outcome.states_changed ? fmi2True : fmi2False;
  const bool timed = std::isfinite(outcome.next_time_event);
  info->nextEventTimeDefined = timed ? fmi2True : fmi2False;
  info->nextEventTime = timed ? outcome.next_time_event : 0.0;
  return fmi2OK;
}

fmi2Status FmuInstance::enter_continuous_time_mode() {
  static constexpr const char* function = "fmi2EnterContinuousTimeMode";
  if (!of_type(function, fmi2ModelExchange) || !in_state(function, {FmuState::event_mode})) return fmi2Error;
  state_ = FmuState::continuous_time_mode;
  return fmi2OK;
}

fmi2Status FmuInstance::completed_integrator_step(fmi2Boolean* enter_event_mode, fmi2Boolean* terminate_simulation) {
  static constexpr const char* function = "fmi2CompletedIntegratorStep";
  if (!of_type(function, fmi2ModelExchange) || !in_state(function, {FmuState::continuous_time_mode}))
    return fmi2Error;
  if (!enter_event_mode || !terminate_simulation)
    return usage_error(function, "enterEventMode or terminateSimulation is NULL");
  exchange_->completed_step();
  // No step event: every switch is an indicator's sign change or a time event.
  *enter_event_mode = fmi2False;
  *terminate_simulation = fmi2False;
  return fmi2OK;
}

fmi2Status FmuInstance::set_time(double time) {
  static constexpr const char* function = "fmi2SetTime";
  if (!of_type(function, fmi2ModelExchange) ||
      !in_state(function, {FmuState::event_mode, FmuState::continuous_time_mode}))
    return fmi2Error;
  if (!std::isfinite(time) || time < experiment_.start_time)
    return usage_error(function, fmt::format("time = {} is not a finite time from the start time {} on", time,
                                             experiment_.start_time));
  exchange_->set_time(time);
  return fmi2OK;
}

fmi2Status FmuInstance::set_continuous_states(const fmi2Real x[], std::size_t nx) {
  static constexpr const char* function = "fmi2SetContinuousStates";
  if (!of_type(function, fmi2ModelExchange) || !in_state(function, {FmuState::continuous_time_mode}) ||
      !right_count(function, Counted::states, nx))
    return fmi2Error;
  if (nx > 0 && !x) return usage_error(function, "x is NULL");
  for (std::size_t k = 0; k < nx; ++k)
    if (!std::isfinite(x[k]))
      return usage_error(function, fmt::format("x[{}] (the state {}) is {}", k,
                                               table_.variables[table_.states[k]].name, x[k]));
  exchange_->set_states(std::vector<double>(x, x + nx));
  return fmi2OK;
}

// What the Model Exchange getters share: the type, the state, the count, a
// run to read (started by a read in initialization mode), a non-NULL array.
bool FmuInstance::ready_to_read(const char* function, const void* values, std::size_t count, Counted counted) {
  if (!of_type(function, fmi2ModelExchange) || !in_state(function, kReadable) ||
      !right_count(function, counted, count))
    return false;
  if (count > 0 && !values) {
    usage_error(function, "the array is NULL");
    return false;
  }
  if (!exchange_ && state_ != FmuState::initialization) {
    usage_error(function, "the model was not initialized");
    return false;
  }
  running_exchange();
  return true;
}

fmi2Status FmuInstance::get_derivatives(fmi2Real derivatives[], std::size_t nx) {
  if (!ready_to_read("fmi2GetDerivatives", derivatives, nx, Counted::states)) return fmi2Error;
  const std::vector<double> dx = exchange_->derivatives();
  std::copy(dx.begin(), dx.end(), derivatives);
  return fmi2OK;
}

fmi2Status FmuInstance::get_event_indicators(fmi2Real indicators[], std::size_t ni) {
  if (!ready_to_read("fmi2GetEventIndicators", indicators, ni, Counted::event_indicators)) return fmi2Error;
  const std::vector<double> z = exchange_->event_indicators();
  std::copy(z.begin(), z.end(), indicators);
  return fmi2OK;
}

fmi2Status FmuInstance::get_continuous_states(fmi2Real x[], std::size_t nx) {
  if (!ready_to_read("fmi2GetContinuousStates", x, nx, Counted::states)) return fmi2Error;
  const std::vector<double> states = exchange_->states();
  std::copy(states.begin(), states.end(), x);
  return fmi2OK;
}

fmi2Status FmuInstance::get_nominals_of_continuous_states(fmi2Real nominals[], std::size_t nx) {
  static constexpr const char* function = "fmi2GetNominalsOfContinuousStates";
  if (!of_type(function, fmi2ModelExchange) || !right_count(function, Counted::states, nx))
    return fmi2Error;
  if (nx > 0 && !nominals) return usage_error(function, "x_nominal is NULL");
  for (std::size_t k = 0; k < nx; ++k) nominals[k] = table_.variables[table_.states[k]].nominal;
  return fmi2OK;
}

}  // namespace acausal::fmi
