#include "fmi/check/run_support.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace acausal::fmi::check {

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

namespace {

// Guards against a typo in a communication step turning into an endless run.
constexpr double kMostSteps = 1e8;

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

}  // namespace

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

void record(RunResult& result, double time, std::vector<double> row) {
  result.table.times.push_back(time);
  result.table.rows.push_back(std::move(row));
}

CommonFunctions::CommonFunctions(const UnpackedFmu& fmu)
    : instantiate(required_function<fmi2InstantiateTYPE>(fmu, "fmi2Instantiate")),
      free_instance(required_function<fmi2FreeInstanceTYPE>(fmu, "fmi2FreeInstance")),
      setup_experiment(required_function<fmi2SetupExperimentTYPE>(fmu, "fmi2SetupExperiment")),
      enter_initialization_mode(required_function<fmi2EnterInitializationModeTYPE>(fmu, "fmi2EnterInitializationMode")),
      exit_initialization_mode(required_function<fmi2ExitInitializationModeTYPE>(fmu, "fmi2ExitInitializationMode")),
      terminate(required_function<fmi2TerminateTYPE>(fmu, "fmi2Terminate")),
      get_real(required_function<fmi2GetRealTYPE>(fmu, "fmi2GetReal")),
      get_integer(required_function<fmi2GetIntegerTYPE>(fmu, "fmi2GetInteger")),
      get_boolean(required_function<fmi2GetBooleanTYPE>(fmu, "fmi2GetBoolean")) {}

Instance::Instance(const CommonFunctions& functions, const ModelDescription& description,
                   const std::string& resource_uri, std::string name, fmi2Type type, bool debug_logging,
                   std::vector<std::string>& log)
    : functions_(functions),
      name_(std::move(name)),
      callbacks_{&collect_message, &allocate_zeroed, &release, nullptr, &log} {
  component_ = functions_.instantiate(name_.c_str(), type, description.guid.c_str(), resource_uri.c_str(), &callbacks_,
                                      fmi2False, debug_logging ? fmi2True : fmi2False);
  if (!component_) throw std::runtime_error(fmt::format("{}: fmi2Instantiate returned NULL", name_));
}

Instance::~Instance() {
  if (freeable_) functions_.free_instance(component_);
}

void Instance::require(fmi2Status status, std::string_view call) {
  if (status == fmi2OK || status == fmi2Warning) return;
  if (status == fmi2Fatal) freeable_ = false;
  throw std::runtime_error(fmt::format("{}: {} returned {}", name_, call, status_name(status)));
}

void Instance::initialize(const RunOptions& options) {
  require(functions_.setup_experiment(component_, options.tolerance ? fmi2True : fmi2False,
                                      options.tolerance.value_or(0.0), options.start_time, fmi2True, options.stop_time),
          "fmi2SetupExperiment");
  require(functions_.enter_initialization_mode(component_), "fmi2EnterInitializationMode");
  require(functions_.exit_initialization_mode(component_), "fmi2ExitInitializationMode");
}

template <class Value, class Getter>
void Instance::read_into(Getter* get, const std::vector<fmi2ValueReference>& references,
                         const std::vector<std::size_t>& columns, std::vector<double>& row, std::string_view call) {
  if (references.empty()) return;
  std::vector<Value> values(references.size());
  require(get(component_, references.data(), references.size(), values.data()), call);
  for (std::size_t k = 0; k < values.size(); ++k) row[columns[k]] = static_cast<double>(values[k]);
}

std::vector<double> Instance::sample(const Recording& recording) {
  std::vector<double> row(recording.names.size());
  read_into<fmi2Real>(functions_.get_real, recording.real_references, recording.real_columns, row, "fmi2GetReal");
  read_into<fmi2Integer>(functions_.get_integer, recording.integer_references, recording.integer_columns, row,
                         "fmi2GetInteger");
  read_into<fmi2Boolean>(functions_.get_boolean, recording.boolean_references, recording.boolean_columns, row,
                         "fmi2GetBoolean");
  return row;
}

void Instance::terminate() { require(functions_.terminate(component_), "fmi2Terminate"); }

}  // namespace acausal::fmi::check
