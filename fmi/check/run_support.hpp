// What the checker's Co-Simulation and Model Exchange runners share: the
// callbacks given to the FMU, the choice of recorded variables, the
// communication points.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "fmi/check/model_description.hpp"
#include "fmi/check/runner.hpp"
#include "fmi/check/unpacked_fmu.hpp"
#include "fmi/fmi2_api.h"

namespace acausal::fmi::check {

std::string_view status_name(fmi2Status status);

/// The logger callback: appends the formatted message to the std::vector<std::string> the environment points to.
void collect_message(fmi2ComponentEnvironment environment, fmi2String instance_name, fmi2Status status,
                     fmi2String category, fmi2String message, ...);
void* allocate_zeroed(std::size_t count, std::size_t size);
void release(void* memory);

// Which value references are read with which getter, and into which column. Integer and Enumeration share
// fmi2GetInteger; String outputs are left out, a CSV column holding numbers only.
struct Recording {
  std::vector<std::string> names;
  std::vector<fmi2ValueReference> real_references, integer_references, boolean_references;
  std::vector<std::size_t> real_columns, integer_columns, boolean_columns;

  void add(const ScalarVariable& variable) {
    switch (variable.type) {
      case VariableType::real: add_to(real_references, real_columns, variable); break;
      case VariableType::integer:
      case VariableType::enumeration: add_to(integer_references, integer_columns, variable); break;
      case VariableType::boolean: add_to(boolean_references, boolean_columns, variable); break;
      case VariableType::string: break;
    }
  }

 private:
  void add_to(std::vector<fmi2ValueReference>& references, std::vector<std::size_t>& columns,
              const ScalarVariable& variable) {
    references.push_back(variable.value_reference);
    columns.push_back(names.size());
    names.push_back(variable.name);
  }
};

/// The outputs, then the names asked for; throws std::invalid_argument for an unknown name or a String.
Recording recording_for(const ModelDescription& description, const std::vector<std::string>& recorded_names);

/// start + k*step, the last clipped to stop; throws std::invalid_argument for an empty interval or a step
/// that would make more than 1e8 points.
std::vector<double> communication_points(const RunOptions& options);

void record(RunResult& result, double time, std::vector<double> row);

/// The exported function `name`; throws std::runtime_error when the binary did not load or lacks it.
template <class Function>
Function* required_function(const UnpackedFmu& fmu, std::string_view name) {
  if (!fmu.binary_loaded()) throw std::runtime_error(fmt::format("cannot run: {} did not load", fmu.binary_name()));
  Function* pointer = fmu.function<Function>(name);
  if (!pointer) throw std::runtime_error(fmt::format("cannot run: {} does not export {}", fmu.binary_name(), name));
  return pointer;
}

/// The functions a run calls whichever the interface.
struct CommonFunctions {
  explicit CommonFunctions(const UnpackedFmu& fmu);  // throws as required_function
  fmi2InstantiateTYPE* instantiate;
  fmi2FreeInstanceTYPE* free_instance;
  fmi2SetupExperimentTYPE* setup_experiment;
  fmi2EnterInitializationModeTYPE* enter_initialization_mode;
  fmi2ExitInitializationModeTYPE* exit_initialization_mode;
  fmi2TerminateTYPE* terminate;
  fmi2GetRealTYPE* get_real;
  fmi2GetIntegerTYPE* get_integer;
  fmi2GetBooleanTYPE* get_boolean;
};

/// One instance of either interface, from fmi2Instantiate to fmi2FreeInstance
/// (skipped after fmi2Fatal, when the standard allows no call at all).
class Instance {
 public:
  /// Throws std::runtime_error when fmi2Instantiate returns NULL.
  Instance(const CommonFunctions& functions, const ModelDescription& description, const std::string& resource_uri,
           std::string name, fmi2Type type, bool debug_logging, std::vector<std::string>& log);
  ~Instance();
  Instance(const Instance&) = delete;
  Instance& operator=(const Instance&) = delete;

  fmi2Component component() const { return component_; }
  /// Throws std::runtime_error naming the instance and the call unless the status is fmi2OK or fmi2Warning.
  void require(fmi2Status status, std::string_view call);
  /// fmi2SetupExperiment (the tolerance when given, the stop time), then into and out of initialization mode.
  void initialize(const RunOptions& options);
  /// The recording's values now, by getter.
  std::vector<double> sample(const Recording& recording);
  void terminate();

 private:
  template <class Value, class Getter>
  void read_into(Getter* get, const std::vector<fmi2ValueReference>& references,
                 const std::vector<std::size_t>& columns, std::vector<double>& row, std::string_view call);

  const CommonFunctions& functions_;
  std::string name_;
  const fmi2CallbackFunctions callbacks_;  // the FMU may keep the pointer until fmi2FreeInstance
  fmi2Component component_ = nullptr;
  bool freeable_ = true;
};

}  // namespace acausal::fmi::check
