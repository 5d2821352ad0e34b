#include "fmi/runtime/fmu_instance.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "fmi/export/model_description.hpp"
#include "solver/runtime/model_file.hpp"
#include "solver/lower/evaluation.hpp"

namespace acausal::fmi {

struct FmuSnapshot {
  std::string guid;  // a state of another FMU's model is refused
  FmuState state;
  Simulator simulator;
  std::vector<double> parameter_values;
  Experiment experiment;
  std::optional<SessionState> session;
  double last_successful_time;
};

namespace {

constexpr const char* kCategories[] = {"logAll", "logError", "logWarning", "logInfo"};

// Without a stop time the run still needs an end for the session: far enough
// that no master reaches it (sampled clocks then need a stop time: their tick
// budget counts up to this end).
constexpr double kOpenEndedSpan = 1e9;

const char* state_name(FmuState state) {
  switch (state) {
    case FmuState::instantiated: return "instantiated";
    case FmuState::initialization: return "initialization mode";
    case FmuState::step_complete: return "step complete";
    case FmuState::step_failed: return "step failed";
    case FmuState::terminated: return "terminated";
    case FmuState::error: return "error";
  }
  return "unknown";
}

std::string percent_decoded(std::string_view text, std::string_view uri) {
  std::string out;
  for (std::size_t k = 0; k < text.size(); ++k) {
    if (text[k] != '%') {
      out += text[k];
      continue;
    }
    const auto is_hex = [&](std::size_t at) {
      return at < text.size() && std::isxdigit(static_cast<unsigned char>(text[at]));
    };
    if (!is_hex(k + 1) || !is_hex(k + 2))
      throw std::runtime_error(fmt::format("the resource location '{}' has a bad %-escape", uri));
    out += static_cast<char>(std::stoi(std::string(text.substr(k + 1, 2)), nullptr, 16));
    k += 2;
  }
  return out;
}

// fmuResourceLocation is a URI: "file:///dir", "file://localhost/dir" or
// "file:/dir" (some masters write that form), percent-encoded. A plain path
// is taken as it is, for masters that give one.
std::string resource_directory(std::string_view uri) {
  std::string path;
  if (uri.size() >= 5 && std::equal(uri.begin(), uri.begin() + 5, "file:", [](char a, char b) {
        return std::tolower(static_cast<unsigned char>(a)) == b;
      })) {
    std::string_view rest = uri.substr(5);
    if (rest.substr(0, 2) == "//") {
      rest.remove_prefix(2);
      const std::size_t slash = rest.find('/');
      const std::string_view host = rest.substr(0, slash);
      if (!host.empty() && host != "localhost")
        throw std::runtime_error(fmt::format("the resource location '{}' is on another host, '{}'", uri, host));
      rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash);
    }
    path = percent_decoded(rest, uri);
  } else if (uri.find("://") != std::string_view::npos) {
    throw std::runtime_error(fmt::format("the resource location '{}' is not a file: URI", uri));
  } else {
    path = std::string(uri);
  }
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  if (path.empty()) throw std::runtime_error(fmt::format("the resource location '{}' names no directory", uri));
  return path;
}

std::vector<double> parameter_values(const Simulator& simulator) {
  std::vector<double> values;
  for (const ParameterInfo& parameter : simulator.parameters()) values.push_back(parameter.value);
  return values;
}

std::string file_contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(fmt::format("cannot open '{}'", path));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw std::runtime_error(fmt::format("cannot read '{}'", path));
  return std::move(text).str();
}

}  // namespace

FmuLogger::FmuLogger(std::string instance_name, fmi2CallbackLogger logger, fmi2ComponentEnvironment environment,
                     bool logging_on)
    : instance_name_(std::move(instance_name)), logger_(logger), environment_(environment) {
  for (const char* category : kCategories) enabled_[category] = logging_on;
}

void FmuLogger::error(std::string_view message, fmi2Status status) const noexcept { send(status, "logError", message); }

void FmuLogger::info(std::string_view message) const noexcept {
  // The map is searched by string_view: nothing here allocates, so nothing throws.
  const auto on = [&](std::string_view category) {
    const auto found = enabled_.find(category);
    return found != enabled_.end() && found->second;
  };
  if (on("logInfo") || on("logAll")) send(fmi2OK, "logInfo", message);
}

std::optional<std::string> FmuLogger::set_debug_logging(bool logging_on, const std::vector<std::string>& categories) {
  for (const std::string& category : categories)
    if (!enabled_.count(category)) return category;
  if (categories.empty())
    for (auto& entry : enabled_) entry.second = logging_on;
  for (const std::string& category : categories) enabled_[category] = logging_on;
  return std::nullopt;
}

void FmuLogger::send(fmi2Status status, const char* category, std::string_view message) const noexcept {
  if (!logger_) return;
  try {
    // The logger reads the message as a printf format, and "#r12#" as a
    // value reference: literal '%' and '#' are doubled.
    std::string escaped;
    escaped.reserve(message.size());
    for (const char c : message) {
      if (c == '%' || c == '#') escaped += c;
      escaped += c;
    }
    logger_(environment_, instance_name_.c_str(), status, category, escaped.c_str());
  } catch (...) {
    // Out of memory while formatting: the message is lost, the call's status still tells the master.
  }
}

FmuInstance* FmuInstance::instantiate(fmi2String instance_name, fmi2Type fmu_type, fmi2String guid,
                                      fmi2String resource_location, const fmi2CallbackFunctions* callbacks,
                                      bool logging_on) noexcept {
  if (!callbacks) return nullptr;  // no logger to say why
  try {
    FmuLogger log(instance_name ? instance_name : "", callbacks->logger, callbacks->componentEnvironment, logging_on);
    auto refuse = [&](std::string_view message) -> FmuInstance* {
      log.error(fmt::format("fmi2Instantiate: {}", message));
      return nullptr;
    };
    if (!instance_name) return refuse("instanceName is NULL");
    if (fmu_type != fmi2CoSimulation)
      return refuse("this FMU implements Co-Simulation only (fmuType must be fmi2CoSimulation)");
    if (!guid) return refuse("fmuGUID is NULL");
    if (!resource_location) return refuse("fmuResourceLocation is NULL: the model is read from the FMU's resources");
    try {
      const std::string model_path = resource_directory(resource_location) + "/model.acflat";
      const std::string model_text = file_contents(model_path);
      const std::string model_guid = model_file_guid(model_text);
      if (model_guid != guid)
        return refuse(fmt::format("the GUID given, {}, is not the GUID of the model in '{}', {}: the description and "
                                  "the model come from different exports",
                                  guid, model_path, model_guid));
      std::istringstream model_file(model_text);
      Simulator model = read_compiled_model(model_file);
      auto* instance = new FmuInstance(log, model_guid, std::move(model));
      instance->log_.info(fmt::format("fmi2Instantiate: model '{}' from '{}', {} variables",
                                      instance->pristine_.compiled().dae.model_name, model_path,
                                      instance->table_.variables.size()));
      return instance;
    } catch (const std::exception& e) {
      return refuse(e.what());
    }
  } catch (...) {
    return nullptr;  // out of memory before a message could be made
  }
}

FmuInstance::FmuInstance(FmuLogger logger, std::string guid, Simulator model)
    : log_(std::move(logger)),
      guid_(std::move(guid)),
      pristine_(std::move(model)),
      simulator_(pristine_),
      table_(variable_table(pristine_)),
      parameter_values_(parameter_values(pristine_)) {}

fmi2Status FmuInstance::refuse(const char* function, std::string_view reason) noexcept {
  try {
    log_.error(fmt::format("{}: {}", function, reason));
  } catch (...) {
  }
  return fmi2Error;
}

fmi2Status FmuInstance::fail(const char* function, std::string_view what) noexcept {
  state_ = FmuState::error;
  return refuse(function, what);
}

fmi2Status FmuInstance::usage_error(const char* function, std::string_view message) const {
  log_.error(fmt::format("{}: {}", function, message));
  return fmi2Error;
}

bool FmuInstance::in_state(const char* function, std::initializer_list<FmuState> allowed) const {
  if (std::find(allowed.begin(), allowed.end(), state_) != allowed.end()) return true;
  std::string states;
  for (FmuState state : allowed) states += fmt::format("{}{}", states.empty() ? "" : ", ", state_name(state));
  usage_error(function, fmt::format("not allowed in state {} (only in: {})", state_name(state_), states));
  return false;
}

fmi2Status FmuInstance::set_debug_logging(bool logging_on, std::size_t n_categories, const fmi2String categories[]) {
  if (n_categories > 0 && !categories) return usage_error("fmi2SetDebugLogging", "categories is NULL");
  std::vector<std::string> names;
  for (std::size_t k = 0; k < n_categories; ++k) {
    if (!categories[k]) return usage_error("fmi2SetDebugLogging", fmt::format("categories[{}] is NULL", k));
    names.emplace_back(categories[k]);
  }
  if (auto unknown = log_.set_debug_logging(logging_on, names))
    return usage_error("fmi2SetDebugLogging",
                       fmt::format("no log category '{}' (there are logAll, logError, logWarning, logInfo)", *unknown));
  return fmi2OK;
}

fmi2Status FmuInstance::setup_experiment(const Experiment& experiment) {
  if (!in_state("fmi2SetupExperiment", {FmuState::instantiated})) return fmi2Error;
  experiment_ = experiment;
  // A start or stop time, or a tolerance, the solver refuses: said now rather than at initialization.
  validate(session_options(), pristine_.compiled().dae.model_name);
  return fmi2OK;
}

SimulationOptions FmuInstance::session_options() const {
  SimulationOptions options;
  options.t_start = experiment_.start_time;
  options.t_end = experiment_.stop_time_defined ? experiment_.stop_time : experiment_.start_time + kOpenEndedSpan;
  // Rows only where the master communicates (each advance() records one) and
  // at events: output times holding t_end alone take the regular grid away.
  options.output_times = {options.t_end};
  // output_interval stays simulate()'s default: consistent initialization
  // looks that far ahead, so the FMU starts exactly as the library's own run.
  if (experiment_.tolerance_defined) options.rtol = experiment_.tolerance;
  return options;
}

Session& FmuInstance::running_session() {
  if (!session_) {
    session_.emplace(simulator_.start(session_options()));
    log_.info(fmt::format("initialized at t = {}", session_->time()));
  }
  return *session_;
}

fmi2Status FmuInstance::enter_initialization_mode() {
  if (!in_state("fmi2EnterInitializationMode", {FmuState::instantiated})) return fmi2Error;
  state_ = FmuState::initialization;
  return fmi2OK;
}

fmi2Status FmuInstance::exit_initialization_mode() {
  if (!in_state("fmi2ExitInitializationMode", {FmuState::initialization})) return fmi2Error;
  last_successful_time_ = running_session().time();
  state_ = FmuState::step_complete;
  return fmi2OK;
}

fmi2Status FmuInstance::terminate() {
  if (!in_state("fmi2Terminate", {FmuState::step_complete, FmuState::step_failed})) return fmi2Error;
  state_ = FmuState::terminated;
  log_.info(fmt::format("fmi2Terminate: terminated at t = {}", session_->time()));
  return fmi2OK;
}

fmi2Status FmuInstance::reset() {
  if (!in_state("fmi2Reset", {FmuState::instantiated, FmuState::initialization, FmuState::step_complete,
                              FmuState::step_failed, FmuState::terminated, FmuState::error}))
    return fmi2Error;
  session_.reset();
  simulator_ = pristine_;
  parameter_values_ = parameter_values(pristine_);
  experiment_ = Experiment{};
  last_successful_time_ = 0.0;
  state_ = FmuState::instantiated;
  log_.info("fmi2Reset: back to the instantiated model");
  return fmi2OK;
}

double FmuInstance::value_of(const FmuVariable& variable) {
  switch (variable.source) {
    case FmuVariable::Source::time: return session_ ? session_->time() : experiment_.start_time;
    case FmuVariable::Source::parameter: return parameter_values_[variable.parameter_index];
    case FmuVariable::Source::variable: break;
  }
  // In initialization mode the first read of a computed value initializes
  // the model with the values set so far; after an error there may be nothing to read.
  if (!session_ && state_ != FmuState::initialization)
    throw std::runtime_error(fmt::format("{} has no value: the model was not initialized", variable.name));
  return running_session().get(variable.name);
}

fmi2Status FmuInstance::get_real(const fmi2ValueReference references[], std::size_t count, fmi2Real values[]) {
  if (!in_state("fmi2GetReal", {FmuState::initialization, FmuState::step_complete, FmuState::step_failed,
                                FmuState::terminated, FmuState::error}))
    return fmi2Error;
  if (count > 0 && (!references || !values)) return usage_error("fmi2GetReal", "vr or value is NULL");
  for (std::size_t k = 0; k < count; ++k)
    if (!table_.find(references[k]))
      return usage_error("fmi2GetReal", fmt::format("no variable has value reference {}", references[k]));
  for (std::size_t k = 0; k < count; ++k) values[k] = value_of(*table_.find(references[k]));
  return fmi2OK;
}

std::string FmuInstance::refusal_to_set(const FmuVariable& variable, double value) const {
  if (std::isnan(value)) return fmt::format("the value given for {} is NaN", variable.name);
  if (!variable.settable())
    return fmt::format("{} is a variable of causality {}: only parameters and inputs can be set", variable.name,
                       causality_name(variable.causality));
  if (state_ == FmuState::step_complete && !variable.settable_while_stepping())
    return fmt::format("{} is a fixed parameter: it can be set only before initialization ends", variable.name);
  const double current = parameter_values_[variable.parameter_index];
  if (variable.variability == FmuVariable::Variability::fixed && value != current)
    return fmt::format("{} is structural: the model inside this FMU was compiled for {} = {}; export the FMU again "
                       "with the value wanted",
                       variable.name, variable.name, current);
  return {};
}

void FmuInstance::set_value(const FmuVariable& variable, double value) {
  // Masters often set every input at every step: an unchanged value is no
  // event, and skipping it spares the solver a restart.
  if (value == parameter_values_[variable.parameter_index]) return;
  if (state_ == FmuState::step_complete) {
    session_->set_parameter(variable.name, value);
  } else {
    simulator_.set_parameter(variable.name, value);
    // A session a read in initialization mode started was initialized with the former value.
    session_.reset();
  }
  parameter_values_[variable.parameter_index] = value;
}

fmi2Status FmuInstance::set_real(const fmi2ValueReference references[], std::size_t count, const fmi2Real values[]) {
  if (!in_state("fmi2SetReal", {FmuState::instantiated, FmuState::initialization, FmuState::step_complete}))
    return fmi2Error;
  if (count > 0 && (!references || !values)) return usage_error("fmi2SetReal", "vr or value is NULL");
  // Every value is checked before any is set: a refused call changes nothing.
  for (std::size_t k = 0; k < count; ++k) {
    const FmuVariable* variable = table_.find(references[k]);
    if (!variable) return usage_error("fmi2SetReal", fmt::format("no variable has value reference {}", references[k]));
    if (std::string refusal = refusal_to_set(*variable, values[k]); !refusal.empty())
      return usage_error("fmi2SetReal", refusal);
  }
  for (std::size_t k = 0; k < count; ++k) set_value(*table_.find(references[k]), values[k]);
  return fmi2OK;
}

fmi2Status FmuInstance::access_non_real(const char* function, const fmi2ValueReference references[],
                                        std::size_t count) {
  if (count == 0) return fmi2OK;
  if (!references) return usage_error(function, "vr is NULL");
  if (const FmuVariable* variable = table_.find(references[0]))
    return usage_error(function, fmt::format("value reference {} is {}, a Real variable (this FMU has only Real "
                                             "variables): use fmi2GetReal or fmi2SetReal",
                                             references[0], variable->name));
  return usage_error(function, fmt::format("no variable has value reference {} (this FMU has only Real variables)",
                                           references[0]));
}


fmi2Status FmuInstance::do_step(double communication_point, double step_size) {
  static constexpr const char* function = "fmi2DoStep";
  if (!in_state(function, {FmuState::step_complete})) return fmi2Error;
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
  if (!in_state(function, {FmuState::step_complete, FmuState::step_failed, FmuState::terminated})) return fmi2Error;
  if (kind != fmi2LastSuccessfulTime) return usage_error(function, "only fmi2LastSuccessfulTime is a Real status");
  if (!value) return usage_error(function, "value is NULL");
  *value = last_successful_time_;
  return fmi2OK;
}

fmi2Status FmuInstance::get_boolean_status(fmi2StatusKind kind, fmi2Boolean* value) {
  static constexpr const char* function = "fmi2GetBooleanStatus";
  if (!in_state(function, {FmuState::step_complete, FmuState::step_failed, FmuState::terminated})) return fmi2Error;
  if (kind != fmi2Terminated) return usage_error(function, "only fmi2Terminated is a Boolean status");
  if (!value) return usage_error(function, "value is NULL");
  // A failed step leaves the choice to the master: the model never asks to stop.
  *value = fmi2False;
  return fmi2OK;
}

fmi2Status FmuInstance::get_fmu_state(fmi2FMUstate* state) {
  static constexpr const char* function = "fmi2GetFMUstate";
  if (!state) return usage_error(function, "FMUstate is NULL");
  FmuSnapshot snapshot{guid_, state_, simulator_, parameter_values_, experiment_, std::nullopt, last_successful_time_};
  if (session_) snapshot.session = session_->state();
  // A state given back (not NULL) is updated in place, as the standard allows.
  if (*state) {
    auto* existing = static_cast<FmuSnapshot*>(*state);
    if (existing->guid != guid_) return usage_error(function, "the FMUstate to update is of another FMU");
    *existing = std::move(snapshot);
  } else {
    *state = new FmuSnapshot(std::move(snapshot));
  }
  return fmi2OK;
}

fmi2Status FmuInstance::set_fmu_state(fmi2FMUstate state) {
  static constexpr const char* function = "fmi2SetFMUstate";
  if (!state) return usage_error(function, "FMUstate is NULL");
  const auto& snapshot = *static_cast<const FmuSnapshot*>(state);
  if (snapshot.guid != guid_)
    return usage_error(function, fmt::format("the FMUstate is of the model with GUID {}, not {}", snapshot.guid,
                                             guid_));
  // The session can take the saved point only if it was started the same way:
  // the same start and end, the same delay times among its parameters.
  if (!snapshot.session || snapshot.experiment != experiment_ ||
      parameter_values(snapshot.simulator) != parameter_values(simulator_))
    session_.reset();
  simulator_ = snapshot.simulator;
  experiment_ = snapshot.experiment;
  if (snapshot.session) {
    // A new session is initialized with the values it was first started with,
    // which succeeded once; the saved state then replaces its point.
    if (!session_) session_.emplace(simulator_.start(session_options()));
    session_->set_state(*snapshot.session);
  }
  parameter_values_ = snapshot.parameter_values;
  last_successful_time_ = snapshot.last_successful_time;
  state_ = snapshot.state;
  return fmi2OK;
}

fmi2Status FmuInstance::free_fmu_state(fmi2FMUstate* state) {
  if (!state) return usage_error("fmi2FreeFMUstate", "FMUstate is NULL");
  delete static_cast<FmuSnapshot*>(*state);
  *state = nullptr;
  return fmi2OK;
}

}  // namespace acausal::fmi
