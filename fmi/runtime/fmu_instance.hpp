// The runtime inside an exported FMU's shared object: one FMI 2.0
// Co-Simulation instance of a model read from the FMU's resources, driven
// through the standard's state machine over a Session. fmu_functions.cpp
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

/// The states of the standard's Co-Simulation state machine that this FMU
/// reaches (it never steps asynchronously: no stepInProgress, no stepCanceled).
enum class FmuState { instantiated, initialization, step_complete, step_failed, terminated, error };

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
  fmi2Status set_real(const fmi2ValueReference references[], std::size_t count, const fmi2Real values[]);
  fmi2Status get_fmu_state(fmi2FMUstate* state);
  fmi2Status set_fmu_state(fmi2FMUstate state);
  fmi2Status free_fmu_state(fmi2FMUstate* state);
  fmi2Status do_step(double communication_point, double step_size);
  fmi2Status get_real_status(fmi2StatusKind kind, fmi2Real* value);
  fmi2Status get_boolean_status(fmi2StatusKind kind, fmi2Boolean* value);

  /// fmi2Get/SetInteger, Boolean, String: this FMU has Real variables only,
  /// so any value reference given is an error (none given is no error).
  fmi2Status access_non_real(const char* function, const fmi2ValueReference references[], std::size_t count);
  /// A function that does not apply to this FMU: logs why, returns fmi2Error.
  fmi2Status refuse(const char* function, std::string_view reason) noexcept;
  /// An exception reached the C boundary: logs its text, enters the error state.
  fmi2Status fail(const char* function, std::string_view what) noexcept;

 private:
  FmuInstance(FmuLogger logger, std::string guid, Simulator model);

  bool in_state(const char* function, std::initializer_list<FmuState> allowed) const;
  fmi2Status usage_error(const char* function, std::string_view message) const;
  SimulationOptions session_options() const;
  Session& running_session();
  double value_of(const FmuVariable& variable);
  /// Why `variable` cannot take `value` now, or empty.
  std::string refusal_to_set(const FmuVariable& variable, double value) const;
  void set_value(const FmuVariable& variable, double value);

  FmuLogger log_;
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
  std::optional<Session> session_;
  FmuState state_ = FmuState::instantiated;
  double last_successful_time_ = 0.0;
};

}  // namespace acausal::fmi
