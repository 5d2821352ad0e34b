// The runtime inside an exported FMU's shared object: one FMI 2.0 instance of
// a model read from the FMU's resources, driven through the standard's state
// machine: Co-Simulation over a Session (fmu_co_simulation.cpp), Model
// Exchange over a ModelExchange (fmu_model_exchange.cpp). fmu_functions.cpp
// turns the C calls into calls of this class and catches what it throws.
#pragma once

#include <functional>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fmi/export/variable_table.hpp"
#include "fmi/fmi2_api.h"
#include "solver/runtime/model_exchange.hpp"
#include "solver/runtime/session.hpp"

namespace acausal::fmi {

/// Messages to the master through its logger callback.
class FmuLogger {
 public:
  FmuLogger(std::string instance_name, fmi2CallbackLogger logger, fmi2ComponentEnvironment environment,
            bool logging_on);

  /// Category logError, whatever the logging settings: the master has no
  /// other way to learn why a call failed.
  void error(std::string_view message, fmi2Status status = fmi2Error) const noexcept;
  /// Category logInfo, when logging is on for it (or for logAll).
  void info(std::string_view message) const noexcept;
  /// fmi2SetDebugLogging: turns the named categories (all of them when there
  /// are none) on or off. Returns the first name it does not know, changing nothing then.
  std::optional<std::string> set_debug_logging(bool logging_on, const std::vector<std::string>& categories);

 private:
  void send(fmi2Status status, const char* category, std::string_view message) const noexcept;

  std::string instance_name_;
  fmi2CallbackLogger logger_;
  fmi2ComponentEnvironment environment_;
  std::map<std::string, bool, std::less<>> enabled_;
};

/// The states of the standard's state machines that this FMU reaches: step
/// complete and step failed in Co-Simulation (it never steps asynchronously:
/// no stepInProgress, no stepCanceled), event and continuous-time mode in Model Exchange.
enum class FmuState {
  instantiated,
  initialization,
  step_complete,
  step_failed,
  event_mode,
  continuous_time_mode,
  terminated,
  error
};

/// What fmi2SetupExperiment said.
struct Experiment {
  bool tolerance_defined = false;
  double tolerance = 0.0;
  double start_time = 0.0;
  bool stop_time_defined = false;
  double stop_time = 0.0;
  bool operator==(const Experiment&) const = default;
};

/// What fmi2GetFMUstate hands out (defined in fmu_instance.cpp).
struct FmuSnapshot;

class FmuInstance {
 public:
  /// fmi2Instantiate: the instance, or nullptr after logging why (through
  /// callbacks->logger when there is one). Never throws.
  static FmuInstance* instantiate(fmi2String instance_name, fmi2Type fmu_type, fmi2String guid,
                                  fmi2String resource_location, const fmi2CallbackFunctions* callbacks,
                                  bool logging_on) noexcept;

  // The FMI functions of the same names. Each returns fmi2Error after logging
  // the reason when the call is not allowed (state, arguments); the instance
  // keeps its state then. An exception escapes to fmu_functions.cpp, which
  // calls fail().
  fmi2Status set_debug_logging(bool logging_on, std::size_t n_categories, const fmi2String categories[]);
  fmi2Status setup_experiment(const Experiment& experiment);
  fmi2Status enter_initialization_mode();
  fmi2Status exit_initialization_mode();
  fmi2Status terminate();
  fmi2Status reset();
  fmi2Status get_real(const fmi2ValueReference references[], std::size_t count, fmi2Real values[]);
  fmi2Status get_integer(const fmi2ValueReference references[], std::size_t count, fmi2Integer values[]);
  fmi2Status get_boolean(const fmi2ValueReference references[], std::size_t count, fmi2Boolean values[]);
  fmi2Status set_real(const fmi2ValueReference references[], std::size_t count, const fmi2Real values[]);
  fmi2Status get_fmu_state(fmi2FMUstate* state);
  fmi2Status set_fmu_state(fmi2FMUstate state);
  fmi2Status free_fmu_state(fmi2FMUstate* state);
  /// The getters' shared part: state, arguments and every variable's type checked first.
  template <class Store>
  fmi2Status get_values(const char* function, FmuVariable::Type type, const fmi2ValueReference references[],
                        std::size_t count, const void* values, Store&& store);

  // Co-Simulation (fmu_co_simulation.cpp).
  fmi2Status do_step(double communication_point, double step_size);
  fmi2Status get_real_status(fmi2StatusKind kind, fmi2Real* value);
  fmi2Status get_boolean_status(fmi2StatusKind kind, fmi2Boolean* value);

  // Model Exchange (fmu_model_exchange.cpp).
  fmi2Status enter_event_mode();
  fmi2Status new_discrete_states(fmi2EventInfo* info);
  fmi2Status enter_continuous_time_mode();
  fmi2Status completed_integrator_step(fmi2Boolean* enter_event_mode, fmi2Boolean* terminate_simulation);
  fmi2Status set_time(double time);
  fmi2Status set_continuous_states(const fmi2Real x[], std::size_t nx);
  fmi2Status get_derivatives(fmi2Real derivatives[], std::size_t nx);
  fmi2Status get_event_indicators(fmi2Real indicators[], std::size_t ni);
  fmi2Status get_continuous_states(fmi2Real x[], std::size_t nx);
  fmi2Status get_nominals_of_continuous_states(fmi2Real nominals[], std::size_t nx);

  /// Whether the instance was made for Model Exchange (else Co-Simulation).
  bool model_exchange() const { return type_ == fmi2ModelExchange; }

  /// fmi2SetInteger, fmi2SetBoolean, fmi2Get/SetString: only Real variables
  /// can be set and there are no Strings, so any value reference given is an
  /// error naming the variable and its type (none given is no error).
  fmi2Status access_non_real(const char* function, const fmi2ValueReference references[], std::size_t count);
  /// A function that does not apply to this FMU: logs why, returns fmi2Error.
  fmi2Status refuse(const char* function, std::string_view reason) noexcept;
  /// An exception reached the C boundary: logs its text, enters the error state.
  fmi2Status fail(const char* function, std::string_view what) noexcept;

 private:
  FmuInstance(FmuLogger logger, fmi2Type type, std::string guid, Simulator model);

  bool in_state(const char* function, std::initializer_list<FmuState> allowed) const;
  /// False, after logging why, when the instance is not of `type`.
  bool of_type(const char* function, fmi2Type type) const;
  /// What a Model Exchange array holds, one per state (nx) or per event indicator (ni).
  enum class Counted { states, event_indicators };
  /// False, after logging why, when `count` is not the model's number of `counted`.
  bool right_count(const char* function, Counted counted, std::size_t count) const;
  bool ready_to_read(const char* function, const void* values, std::size_t count, Counted counted);
  fmi2Status usage_error(const char* function, std::string_view message) const;
  SimulationOptions session_options() const;
  Session& running_session();
  ModelExchange& running_exchange();
  /// Starts the run a read in initialization mode needs (either interface).
  void start_run();
  /// Past initialization: stepping (Co-Simulation) or in event or continuous-time mode (Model Exchange).
  bool initialized() const {
    return state_ == FmuState::step_complete || state_ == FmuState::event_mode ||
           state_ == FmuState::continuous_time_mode;
  }
  bool running() const { return session_.has_value() || exchange_.has_value(); }
  void stop_run() {
    session_.reset();
    exchange_.reset();
  }
  double value_of(const FmuVariable& variable);
  /// Why `variable` cannot take `value` now, or empty.
  std::string refusal_to_set(const FmuVariable& variable, double value) const;
  void set_value(const FmuVariable& variable, double value);

  FmuLogger log_;
  fmi2Type type_;
  std::string guid_;
  const Simulator pristine_;  // as read from the resources: fmi2Reset goes back to it
  Simulator simulator_;       // with the values set before the session starts
  VariableTable table_;
  /// Every parameter's current value (Simulator::parameters() order), kept
  /// here because Session::get would read a variable of the same name instead.
  std::vector<double> parameter_values_;
  Experiment experiment_;
  /// Started by fmi2ExitInitializationMode, or earlier by a value read in
  /// initialization mode; a value set in initialization mode drops it.
  std::optional<Session> session_;        // Co-Simulation
  std::optional<ModelExchange> exchange_;  // Model Exchange
  FmuState state_ = FmuState::instantiated;
  double last_successful_time_ = 0.0;
};

}  // namespace acausal::fmi
