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
  fmi2Type type;     // and one of the other interface
  FmuState state;
  Simulator simulator;
  std::vector<double> parameter_values;
  Experiment experiment;
  std::optional<SessionState> session;
  double last_successful_time;
};

namespace {

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
    case FmuState::event_mode: return "event mode";
    case FmuState::continuous_time_mode: return "continuous-time mode";
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
    if (fmu_type != fmi2CoSimulation && fmu_type != fmi2ModelExchange)
      return refuse(fmt::format("fmuType {} is neither fmi2ModelExchange (0) nor fmi2CoSimulation (1)",
                                static_cast<int>(fmu_type)));
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
      auto* instance = new FmuInstance(log, fmu_type, model_guid, std::move(model));
      instance->log_.info(fmt::format("fmi2Instantiate: model '{}' from '{}' for {}, {} variables",
                                      instance->pristine_.compiled().dae.model_name, model_path,
                                      fmu_type == fmi2ModelExchange ? "Model Exchange" : "Co-Simulation",
                                      instance->table_.variables.size()));
      return instance;
    } catch (const std::exception& e) {
      return refuse(e.what());
    }
  } catch (...) {
    return nullptr;  // out of memory before a message could be made
  }
}

FmuInstance::FmuInstance(FmuLogger logger, fmi2Type type, std::string guid, Simulator model)
    : log_(std::move(logger)),
      type_(type),
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

bool FmuInstance::of_type(const char* function, fmi2Type type) const {
  if (type_ == type) return true;
  usage_error(function, type == fmi2ModelExchange
                            ? "a Model Exchange function, and this instance was made for Co-Simulation"
                            : "a Co-Simulation function, and this instance was made for Model Exchange");
  return false;
}

bool FmuInstance::right_count(const char* function, Counted counted, std::size_t count) const {
  const bool states = counted == Counted::states;
  const std::size_t expected = states ? table_.states.size() : pristine_.compiled().state_event_modes.size();
  if (count == expected) return true;
  usage_error(function, fmt::format("{} is {}, the model has {} {}", states ? "nx" : "ni", count, expected,
                                    states ? "states" : "event indicators"));
  return false;
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
  if (experiment_.tolerance_defined) {
    // A master asking for more accuracy gets it in both tolerances, in the library's default ratio.
    const SimulationOptions defaults;
    options.rtol = experiment_.tolerance;
    options.atol = defaults.atol * experiment_.tolerance / defaults.rtol;
  }
  return options;
}

Session& FmuInstance::running_session() {
  if (!session_) {
    session_.emplace(simulator_.start(session_options()));
    log_.info(fmt::format("initialized at t = {}", session_->time()));
  }
  return *session_;
}

ModelExchange& FmuInstance::running_exchange() {
  if (!exchange_) {
    exchange_.emplace(simulator_.start_model_exchange(session_options()));
    log_.info(fmt::format("initialized at t = {}: {} states, {} event indicators", exchange_->time(),
                          exchange_->n_states(), exchange_->n_event_indicators()));
  }
  return *exchange_;
}

void FmuInstance::start_run() {
  if (model_exchange())
    running_exchange();
  else
    running_session();
}

fmi2Status FmuInstance::enter_initialization_mode() {
  if (!in_state("fmi2EnterInitializationMode", {FmuState::instantiated})) return fmi2Error;
  state_ = FmuState::initialization;
  return fmi2OK;
}

fmi2Status FmuInstance::exit_initialization_mode() {
  if (!in_state("fmi2ExitInitializationMode", {FmuState::initialization})) return fmi2Error;
  start_run();
  if (model_exchange()) {
    // The standard's next step: the event iteration of the initial instant
    // (done already by the initialization; fmi2NewDiscreteStates reports it settled).
    state_ = FmuState::event_mode;
    return fmi2OK;
  }
  last_successful_time_ = session_->time();
  state_ = FmuState::step_complete;
  return fmi2OK;
}

fmi2Status FmuInstance::terminate() {
  if (!in_state("fmi2Terminate", {FmuState::step_complete, FmuState::step_failed, FmuState::event_mode,
                                  FmuState::continuous_time_mode}))
    return fmi2Error;
  state_ = FmuState::terminated;
  log_.info(fmt::format("fmi2Terminate: terminated at t = {}", session_ ? session_->time() : exchange_->time()));
  return fmi2OK;
}

fmi2Status FmuInstance::reset() {
  if (!in_state("fmi2Reset", {FmuState::instantiated, FmuState::initialization, FmuState::step_complete,
                              FmuState::step_failed, FmuState::terminated, FmuState::error}))
    return fmi2Error;
  stop_run();
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
    case FmuVariable::Source::time:
      return session_ ? session_->time() : exchange_ ? exchange_->time() : experiment_.start_time;
    case FmuVariable::Source::parameter: return parameter_values_[variable.parameter_index];
    case FmuVariable::Source::variable: break;
  }
  // In initialization mode the first read of a computed value initializes
  // the model with the values set so far; after an error there may be nothing to read.
  if (!running() && state_ != FmuState::initialization)
    throw std::runtime_error(fmt::format("{} has no value: the model was not initialized", variable.name));
  return model_exchange() ? running_exchange().get(variable.name) : running_session().get(variable.name);
}

namespace {

std::string_view type_name(FmuVariable::Type type) {
  switch (type) {
    case FmuVariable::Type::real: return "Real";
    case FmuVariable::Type::integer: return "Integer";
    case FmuVariable::Type::boolean: return "Boolean";
  }
  return "Real";
}

}  // namespace

template <class Store>
fmi2Status FmuInstance::get_values(const char* function, FmuVariable::Type type, const fmi2ValueReference references[],
                                   std::size_t count, const void* values, Store&& store) {
  if (!in_state(function, {FmuState::initialization, FmuState::step_complete, FmuState::step_failed,
                           FmuState::event_mode, FmuState::continuous_time_mode, FmuState::terminated,
                           FmuState::error}))
    return fmi2Error;
  if (count > 0 && (!references || !values)) return usage_error(function, "vr or value is NULL");
  for (std::size_t k = 0; k < count; ++k) {
    const FmuVariable* variable = table_.find(references[k]);
    if (!variable) return usage_error(function, fmt::format("no variable has value reference {}", references[k]));
    if (variable->type != type)
      return usage_error(function, fmt::format("value reference {} is {}, a variable of type {}: use fmi2Get{}",
                                               references[k], variable->name, type_name(variable->type),
                                               type_name(variable->type)));
  }
  for (std::size_t k = 0; k < count; ++k) store(k, value_of(*table_.find(references[k])));
  return fmi2OK;
}

fmi2Status FmuInstance::get_real(const fmi2ValueReference references[], std::size_t count, fmi2Real values[]) {
  return get_values("fmi2GetReal", FmuVariable::Type::real, references, count, values,
                    [&](std::size_t k, double v) { values[k] = v; });
}

fmi2Status FmuInstance::get_integer(const fmi2ValueReference references[], std::size_t count, fmi2Integer values[]) {
  return get_values("fmi2GetInteger", FmuVariable::Type::integer, references, count, values,
                    [&](std::size_t k, double v) { values[k] = static_cast<fmi2Integer>(std::lround(v)); });
}

fmi2Status FmuInstance::get_boolean(const fmi2ValueReference references[], std::size_t count, fmi2Boolean values[]) {
  return get_values("fmi2GetBoolean", FmuVariable::Type::boolean, references, count, values,
                    [&](std::size_t k, double v) { values[k] = v != 0.0 ? fmi2True : fmi2False; });
}

std::string FmuInstance::refusal_to_set(const FmuVariable& variable, double value) const {
  if (std::isnan(value)) return fmt::format("the value given for {} is NaN", variable.name);
  if (!variable.settable())
    return fmt::format("{} is a variable of causality {}: only parameters and inputs can be set", variable.name,
                       causality_name(variable.causality));
  if (initialized() && !variable.settable_while_stepping())
    return fmt::format("{} is a fixed parameter: it can be set only before initialization ends", variable.name);
  if (state_ == FmuState::continuous_time_mode && variable.causality != FmuVariable::Causality::input)
    return fmt::format("{} is a parameter: in continuous-time mode only inputs can be set (parameters in event mode)",
                       variable.name);
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
  } else if (state_ == FmuState::event_mode) {
    exchange_->set_parameter(variable.name, value);
  } else if (state_ == FmuState::continuous_time_mode) {
    exchange_->set_input(variable.name, value);
  } else {
    simulator_.set_parameter(variable.name, value);
    // A run a read in initialization mode started was initialized with the former value.
    stop_run();
  }
  parameter_values_[variable.parameter_index] = value;
}

fmi2Status FmuInstance::set_real(const fmi2ValueReference references[], std::size_t count, const fmi2Real values[]) {
  if (!in_state("fmi2SetReal", {FmuState::instantiated, FmuState::initialization, FmuState::step_complete,
                                FmuState::event_mode, FmuState::continuous_time_mode}))
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
    return usage_error(function, fmt::format("value reference {} is {}, a variable of type {}; this FMU has no "
                                             "String variables and sets only Real ones (fmi2SetReal)",
                                             references[0], variable->name, type_name(variable->type)));
  return usage_error(function, fmt::format("no variable has value reference {}", references[0]));
}


fmi2Status FmuInstance::get_fmu_state(fmi2FMUstate* state) {
  static constexpr const char* function = "fmi2GetFMUstate";
  if (!state) return usage_error(function, "FMUstate is NULL");
  FmuSnapshot snapshot{guid_,       type_,        state_, simulator_, parameter_values_,
                       experiment_, std::nullopt, last_successful_time_};
  if (session_) snapshot.session = session_->state();
  if (exchange_) snapshot.session = exchange_->state();
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
  if (snapshot.type != type_)
    return usage_error(function, "the FMUstate is of an instance of the other interface (Model Exchange, Co-Simulation)");
  // The session can take the saved point only if it was started the same way:
  // the same start and end, the same delay times among its parameters.
  if (!snapshot.session || snapshot.experiment != experiment_ ||
      parameter_values(snapshot.simulator) != parameter_values(simulator_))
    stop_run();
  simulator_ = snapshot.simulator;
  experiment_ = snapshot.experiment;
  if (snapshot.session) {
    // A new run is initialized with the values it was first started with,
    // which succeeded once; the saved state then replaces its point.
    if (model_exchange())
      running_exchange().set_state(*snapshot.session);
    else
      running_session().set_state(*snapshot.session);
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
