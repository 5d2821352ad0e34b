#include "fmi/check/runner.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string_view>

#include "fmi/check/unpacked_fmu.hpp"
#include "fmi/fmi2_api.h"

namespace acausal::fmi::check {

namespace {

// Guards against a typo in a communication step turning into an endless run.
constexpr double kMostSteps = 1e8;

std::string_view status_name(fmi2Status status) {
  switch (status) {
    case fmi2OK: return "fmi2OK";
    case fmi2Warning: return "fmi2Warning";
    case fmi2Discard: return "fmi2Discard";
    case fmi2Error: return "fmi2Error";
    case fmi2Fatal: return "fmi2Fatal";
    case fmi2Pending: return "fmi2Pending";
  }
  return "an unknown status";
}

std::string formatted(const char* format, va_list arguments) {
  va_list measuring;
  va_copy(measuring, arguments);
  int length = std::vsnprintf(nullptr, 0, format, measuring);
  va_end(measuring);
  if (length < 0) return format;
  std::string text(static_cast<std::size_t>(length) + 1, '\0');
  std::vsnprintf(text.data(), text.size(), format, arguments);
  text.resize(static_cast<std::size_t>(length));
  return text;
}

// The FMU calls this through C frames, so nothing may escape it. Its environment is the run's log.
void collect_message(fmi2ComponentEnvironment environment, fmi2String instance_name, fmi2Status status,
                     fmi2String category, fmi2String message, ...) {
  try {
    std::string text;
    if (message) {
      va_list arguments;
      va_start(arguments, message);
      text = formatted(message, arguments);
      va_end(arguments);
    }
    static_cast<std::vector<std::string>*>(environment)
        ->push_back(fmt::format("{} [{}] {}: {}", instance_name ? instance_name : "?", status_name(status),
                                category ? category : "", text));
  } catch (...) {
  }
}

void* allocate_zeroed(std::size_t count, std::size_t size) { return std::calloc(count, size); }
void release(void* memory) { std::free(memory); }

struct CoSimulationFunctions {
  fmi2InstantiateTYPE* instantiate;
  fmi2FreeInstanceTYPE* free_instance;
  fmi2SetupExperimentTYPE* setup_experiment;
  fmi2EnterInitializationModeTYPE* enter_initialization_mode;
  fmi2ExitInitializationModeTYPE* exit_initialization_mode;
  fmi2TerminateTYPE* terminate;
  fmi2GetRealTYPE* get_real;
  fmi2GetIntegerTYPE* get_integer;
  fmi2GetBooleanTYPE* get_boolean;
  fmi2DoStepTYPE* do_step;
};

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

Recording recording_for(const ModelDescription& description, const std::vector<std::string>& recorded_names) {
  Recording recording;
  for (const ScalarVariable& variable : description.variables)
    if (variable.causality == Causality::output) recording.add(variable);
  for (const std::string& name : recorded_names) {
    auto found = std::find_if(description.variables.begin(), description.variables.end(),
                              [&](const ScalarVariable& variable) { return variable.name == name; });
    if (found == description.variables.end())
      throw std::invalid_argument(fmt::format("cannot record '{}': no such variable", name));
    if (found->type == VariableType::string)
      throw std::invalid_argument(fmt::format("cannot record '{}': a String has no numeric value", name));
    if (std::find(recording.names.begin(), recording.names.end(), name) == recording.names.end()) recording.add(*found);
  }
  return recording;
}

// start + k*step rather than a running sum, so the points carry no accumulated rounding.
std::vector<double> communication_points(const RunOptions& options) {
  double span = options.stop_time - options.start_time;
  if (!std::isfinite(span) || !(span > 0))
    throw std::invalid_argument(
        fmt::format("the stop time {} is not after the start time {}", options.stop_time, options.start_time));
  double ratio = span / options.step_size;
  if (!(options.step_size > 0) || !(ratio <= kMostSteps))
    throw std::invalid_argument(fmt::format("a communication step of {} over [{}, {}] is not a usable step",
                                            options.step_size, options.start_time, options.stop_time));
  // A ratio a rounding error away from a whole number means the step divides the interval.
  double whole = std::round(ratio);
  auto count = static_cast<std::size_t>(std::abs(ratio - whole) <= 1e-9 * whole ? whole : std::ceil(ratio));
  std::vector<double> points;
  points.reserve(count + 1);
  for (std::size_t k = 0; k < count; ++k)
    points.push_back(options.start_time + static_cast<double>(k) * options.step_size);
  points.push_back(options.stop_time);
  return points;
}

class CoSimulationInstance {
 public:
  CoSimulationInstance(const CoSimulationFunctions& functions, const ModelDescription& description,
                       const std::string& resource_uri, std::string name, bool debug_logging,
                       std::vector<std::string>& log)
      : functions_(functions),
        name_(std::move(name)),
        callbacks_{&collect_message, &allocate_zeroed, &release, nullptr, &log} {
    component_ = functions_.instantiate(name_.c_str(), fmi2CoSimulation, description.guid.c_str(), resource_uri.c_str(),
                                        &callbacks_, fmi2False, debug_logging ? fmi2True : fmi2False);
    if (!component_) throw std::runtime_error(fmt::format("{}: fmi2Instantiate returned NULL", name_));
  }
  ~CoSimulationInstance() {
    if (freeable_) functions_.free_instance(component_);
  }
  CoSimulationInstance(const CoSimulationInstance&) = delete;
  CoSimulationInstance& operator=(const CoSimulationInstance&) = delete;

  void initialize(const RunOptions& options) {
    require(
        functions_.setup_experiment(component_, options.tolerance ? fmi2True : fmi2False,
                                    options.tolerance.value_or(0.0), options.start_time, fmi2True, options.stop_time),
        "fmi2SetupExperiment");
    require(functions_.enter_initialization_mode(component_), "fmi2EnterInitializationMode");
    require(functions_.exit_initialization_mode(component_), "fmi2ExitInitializationMode");
  }

  // This checker never rolls an instance back, which it tells the FMU so it may discard its history.
  void step(double time, double step_size) {
    require(functions_.do_step(component_, time, step_size, fmi2True), fmt::format("fmi2DoStep at t = {}", time));
  }

  std::vector<double> sample(const Recording& recording) {
    std::vector<double> row(recording.names.size());
    read_into<fmi2Real>(functions_.get_real, recording.real_references, recording.real_columns, row, "fmi2GetReal");
    read_into<fmi2Integer>(functions_.get_integer, recording.integer_references, recording.integer_columns, row,
                           "fmi2GetInteger");
    read_into<fmi2Boolean>(functions_.get_boolean, recording.boolean_references, recording.boolean_columns, row,
                           "fmi2GetBoolean");
    return row;
  }

  void terminate() { require(functions_.terminate(component_), "fmi2Terminate"); }

 private:
  template <class Value, class Getter>
  void read_into(Getter* get, const std::vector<fmi2ValueReference>& references,
                 const std::vector<std::size_t>& columns, std::vector<double>& row, std::string_view call) {
    if (references.empty()) return;
    std::vector<Value> values(references.size());
    require(get(component_, references.data(), references.size(), values.data()), call);
    for (std::size_t k = 0; k < values.size(); ++k) row[columns[k]] = static_cast<double>(values[k]);
  }

  void require(fmi2Status status, std::string_view call) {
    if (status == fmi2OK || status == fmi2Warning) return;
    // After fmi2Fatal the standard allows no call at all, not even fmi2FreeInstance.
    if (status == fmi2Fatal) freeable_ = false;
    throw std::runtime_error(fmt::format("{}: {} returned {}", name_, call, status_name(status)));
  }

  const CoSimulationFunctions& functions_;
  std::string name_;
  const fmi2CallbackFunctions callbacks_;  // the FMU may keep the pointer until fmi2FreeInstance
  fmi2Component component_ = nullptr;
  bool freeable_ = true;
};

void record(RunResult& result, double time, std::vector<double> row) {
  result.table.times.push_back(time);
  result.table.rows.push_back(std::move(row));
}

bool same_bits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

std::optional<std::string> first_difference(const ResultTable& expected, const ResultTable& actual) {
  if (actual.times.size() != expected.times.size())
    return fmt::format("{} rows instead of {}", actual.times.size(), expected.times.size());
  for (std::size_t k = 0; k < expected.times.size(); ++k) {
    if (!same_bits(actual.times[k], expected.times[k]))
      return fmt::format("row {} is at t = {:.17g} instead of {:.17g}", k, actual.times[k], expected.times[k]);
    for (std::size_t j = 0; j < expected.rows[k].size(); ++j)
      if (!same_bits(actual.rows[k][j], expected.rows[k][j]))
        return fmt::format("at t = {:.17g}, {} is {:.17g} instead of {:.17g}", expected.times[k], expected.names[j],
                           actual.rows[k][j], expected.rows[k][j]);
  }
  return std::nullopt;
}

// The instance functions a Co-Simulation run calls; throws std::runtime_error naming the first one missing.
CoSimulationFunctions co_simulation_functions(const UnpackedFmu& fmu) {
  if (!fmu.binary_loaded()) throw std::runtime_error(fmt::format("cannot run: {} did not load", fmu.binary_name()));
  auto require = [&]<class Function>(std::string_view name, Function*& pointer) {
    pointer = fmu.function<Function>(name);
    if (!pointer) throw std::runtime_error(fmt::format("cannot run: {} does not export {}", fmu.binary_name(), name));
  };
  CoSimulationFunctions functions{};
  require("fmi2Instantiate", functions.instantiate);
  require("fmi2FreeInstance", functions.free_instance);
  require("fmi2SetupExperiment", functions.setup_experiment);
  require("fmi2EnterInitializationMode", functions.enter_initialization_mode);
  require("fmi2ExitInitializationMode", functions.exit_initialization_mode);
  require("fmi2Terminate", functions.terminate);
  require("fmi2GetReal", functions.get_real);
  require("fmi2GetInteger", functions.get_integer);
  require("fmi2GetBoolean", functions.get_boolean);
  require("fmi2DoStep", functions.do_step);
  return functions;
}

}  // namespace

Fmu::Fmu(const std::string& path) : fmu_(std::make_unique<UnpackedFmu>(path)) {}

Fmu::~Fmu() = default;

const ModelDescription& Fmu::description() const { return fmu_->description(); }

const std::vector<Finding>& Fmu::load_findings() const { return fmu_->load_findings(); }

RunResult Fmu::run_co_simulation(const RunOptions& options) const {
  RunResult result;
  const ModelDescription& description = fmu_->description();
  if (!description.co_simulation) {
    result.findings.push_back({"model-exchange", "model exchange runner not implemented"});
    return result;
  }
  try {
    CoSimulationFunctions functions = co_simulation_functions(*fmu_);
    Recording recording = recording_for(description, options.recorded_names);
    std::vector<double> points = communication_points(options);
    result.table.names = recording.names;
    CoSimulationInstance instance(functions, description, fmu_->resource_uri(), "instance", options.debug_logging,
                                  result.log);
    instance.initialize(options);
    record(result, points.front(), instance.sample(recording));
    for (std::size_t k = 0; k + 1 < points.size(); ++k) {
      instance.step(points[k], points[k + 1] - points[k]);
      ++result.steps;
      record(result, points[k + 1], instance.sample(recording));
    }
    instance.terminate();
    result.completed = true;
  } catch (const std::exception& error) {
    result.findings.push_back({"co-simulation", error.what()});
  }
  return result;
}

TwoInstanceResult Fmu::run_two_instances(const RunOptions& options, const RunResult& single_instance) const {
  TwoInstanceResult result;
  const ModelDescription& description = fmu_->description();
  if (!description.co_simulation) {
    result.findings.push_back({"model-exchange", "model exchange runner not implemented"});
    return result;
  }
  if (description.co_simulation->can_be_instantiated_only_once_per_process) {
    result.skipped = true;
    result.passed = true;
    return result;
  }
  try {
    CoSimulationFunctions functions = co_simulation_functions(*fmu_);
    Recording recording = recording_for(description, options.recorded_names);
    std::vector<double> points = communication_points(options);
    result.first.table.names = result.second.table.names = recording.names;
    std::string resource_uri = fmu_->resource_uri();
    CoSimulationInstance first(functions, description, resource_uri, "first", options.debug_logging, result.first.log);
    CoSimulationInstance second(functions, description, resource_uri, "second", options.debug_logging,
                                result.second.log);
    first.initialize(options);
    second.initialize(options);
    record(result.first, points.front(), first.sample(recording));
    record(result.second, points.front(), second.sample(recording));
    // Alternate step by step, so state one instance wrongly keeps in shared memory shows in the other.
    for (std::size_t k = 0; k + 1 < points.size(); ++k) {
      first.step(points[k], points[k + 1] - points[k]);
      ++result.first.steps;
      second.step(points[k], points[k + 1] - points[k]);
      ++result.second.steps;
      record(result.first, points[k + 1], first.sample(recording));
      record(result.second, points[k + 1], second.sample(recording));
    }
    first.terminate();
    second.terminate();
    result.first.completed = result.second.completed = true;
  } catch (const std::exception& error) {
    result.findings.push_back({"two-instances", error.what()});
  }
  if (!single_instance.completed)
    result.findings.push_back({"two-instances", "the single-instance run to compare with did not complete"});
  for (const RunResult* run : {&result.first, &result.second}) {
    if (!run->completed || !single_instance.completed) continue;
    if (std::optional<std::string> difference = first_difference(single_instance.table, run->table))
      result.findings.push_back({"two-instances", fmt::format("instance '{}' departs from the single instance: {}",
                                                              run == &result.first ? "first" : "second", *difference)});
  }
  result.passed = result.findings.empty();
  return result;
}

}  // namespace acausal::fmi::check
