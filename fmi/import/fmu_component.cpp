#include "fmi/import/fmu_component.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cmath>
#include <stdexcept>
#include <string_view>
#include <type_traits>
#include <vector>

#include "fmi/check/model_exchange_stepper.hpp"
#include "fmi/check/run_support.hpp"
#include "fmi/check/unpacked_fmu.hpp"
#include "solver/modeling/hybrid.hpp"
#include "solver/symbolic/errors.hpp"

namespace acausal {

namespace check = fmi::check;

namespace {

std::string identifier(const std::string& fmu_name) {
  std::string id;
  for (char c : fmu_name) id.push_back(std::isalnum(static_cast<unsigned char>(c)) ? c : '_');
  if (id.empty() || std::isdigit(static_cast<unsigned char>(id.front()))) id.insert(id.begin(), '_');
  return id;
}

double start_value(const check::ScalarVariable& v) {
  if (!v.start) return 0.0;
  if (v.type == check::VariableType::boolean) return *v.start == "true" || *v.start == "1" ? 1.0 : 0.0;
  return std::stod(*v.start);
}

}  // namespace

// Value references grouped by getter/setter, with the position of each in the argument or result list.
struct FmuChannels {
  std::vector<fmi2ValueReference> real, integer, boolean;
  std::vector<std::size_t> real_at, integer_at, boolean_at;
  std::size_t size = 0;

  void add(const check::ScalarVariable& v) {
    switch (v.type) {
      case check::VariableType::real: real.push_back(v.value_reference), real_at.push_back(size); break;
      case check::VariableType::integer:
      case check::VariableType::enumeration: integer.push_back(v.value_reference), integer_at.push_back(size); break;
      case check::VariableType::boolean: boolean.push_back(v.value_reference), boolean_at.push_back(size); break;
      case check::VariableType::string: return;
    }
    ++size;
  }
};

struct FMUComponent::Binding {
  std::string path;  // the component's, for messages
  std::unique_ptr<check::UnpackedFmu> fmu;
  std::unique_ptr<check::CommonFunctions> functions;
  bool model_exchange = false;
  fmi2DoStepTYPE* do_step = nullptr;
  fmi2SetRealTYPE* set_real = nullptr;
  fmi2SetIntegerTYPE* set_integer = nullptr;
  fmi2SetBooleanTYPE* set_boolean = nullptr;
  FmuImportOptions options;
  FmuChannels parameters, inputs, outputs;
};

namespace {

using Binding = FMUComponent::Binding;

// One run's FMU instance: made at the first communication point, freed with the run.
class FmuInstance : public ExternalFunction::Instance {
 public:
  FmuInstance(std::shared_ptr<const Binding> binding, double t_end) : b_(std::move(binding)), t_end_(t_end) {}

  void call(double time, std::span<const double> arguments, std::span<double> results) override {
    try {
      const std::size_t np = b_->parameters.size;
      if (!instance_) {
        start(time, arguments.first(np));
      } else if (!(std::abs(time - fmu_time_) <= 1e-9 * std::max(1.0, std::abs(time)))) {
        throw std::runtime_error(fmt::format("the FMU is at t = {} and was asked to continue from {}", fmu_time_, time));
      } else {
        set(b_->inputs, arguments.subspan(np));
        if (stepper_) stepper_->restart();
      }
      get(results);
      if (stepper_) {
        stepper_->advance_to(fmu_time_ + b_->options.step_size);
      } else {
        instance_->require(b_->do_step(instance_->component(), fmu_time_, b_->options.step_size, fmi2True),
                           fmt::format("fmi2DoStep at t = {}", fmu_time_));
      }
      fmu_time_ += b_->options.step_size;
    } catch (const std::exception& error) {
      std::string messages;
      for (const std::string& line : log_) messages += "\n  " + line;
      throw std::runtime_error(fmt::format("FMU {}: {}{}", b_->fmu->description().model_name, error.what(), messages));
    }
  }

 private:
  // The inputs' start values are the FMU's until the first call; they are set with the parameters, before
  // initialization, so the FMU initializes with the values the model has at t_0.
  void start(double time, std::span<const double> parameters) {
    const std::optional<double> tolerance = this->tolerance();
    if (b_->model_exchange) {
      stepper_ = std::make_unique<check::ModelExchangeStepper>(*b_->fmu, b_->path, b_->options.debug_logging, log_);
      instance_ = &stepper_->instance();
    } else {
      cs_instance_ = std::make_unique<check::Instance>(*b_->functions, b_->fmu->description(),
                                                       b_->fmu->resource_uri(), b_->path, fmi2CoSimulation,
                                                       b_->options.debug_logging, log_);
      instance_ = cs_instance_.get();
    }
    set(b_->parameters, parameters);
    fmu_time_ = time;
    const double stop = t_end_ + 2 * b_->options.step_size;  // margin for the steps' rounding
    if (stepper_) {
      stepper_->initialize(time, tolerance, stop);
      return;
    }
    instance_->require(b_->functions->setup_experiment(instance_->component(), tolerance ? fmi2True : fmi2False,
                                                       tolerance.value_or(0.0), time, fmi2True, stop),
                       "fmi2SetupExperiment");
    instance_->require(b_->functions->enter_initialization_mode(instance_->component()), "fmi2EnterInitializationMode");
    instance_->require(b_->functions->exit_initialization_mode(instance_->component()), "fmi2ExitInitializationMode");
  }

  std::optional<double> tolerance() const {
    if (b_->options.tolerance > 0) return b_->options.tolerance;
    const auto& experiment = b_->fmu->description().default_experiment;
    if (experiment && experiment->tolerance) return *experiment->tolerance;
    return std::nullopt;
  }

  void set(const FmuChannels& c, std::span<const double> values) {
    set_group<fmi2Real>(b_->set_real, c.real, c.real_at, values, [](double v) { return v; }, "fmi2SetReal");
    set_group<fmi2Integer>(b_->set_integer, c.integer, c.integer_at, values,
                           [](double v) { return static_cast<fmi2Integer>(std::lround(v)); }, "fmi2SetInteger");
    set_group<fmi2Boolean>(b_->set_boolean, c.boolean, c.boolean_at, values,
                           [](double v) { return v != 0.0 ? fmi2True : fmi2False; }, "fmi2SetBoolean");
  }

  void get(std::span<double> results) {
    const FmuChannels& c = b_->outputs;
    const check::CommonFunctions& f = *b_->functions;
    get_group<fmi2Real>(f.get_real, c.real, c.real_at, results, [](fmi2Real v) { return v; }, "fmi2GetReal");
    get_group<fmi2Integer>(f.get_integer, c.integer, c.integer_at, results,
                           [](fmi2Integer v) { return static_cast<double>(v); }, "fmi2GetInteger");
    get_group<fmi2Boolean>(f.get_boolean, c.boolean, c.boolean_at, results,
                           [](fmi2Boolean v) { return v ? 1.0 : 0.0; }, "fmi2GetBoolean");
  }

  // One setter call for the variables of one type: values[at[k]] converted, to references[k].
  template <class Value, class Setter, class Convert>
  void set_group(Setter* setter, const std::vector<fmi2ValueReference>& references, const std::vector<std::size_t>& at,
                 std::span<const double> values, Convert convert, std::string_view call) {
    if (references.empty()) return;
    std::vector<Value> v;
    for (std::size_t k : at) v.push_back(convert(values[k]));
    instance_->require(setter(instance_->component(), references.data(), references.size(), v.data()), call);
  }

  // One getter call for the variables of one type: references[k] converted, into results[at[k]].
  template <class Value, class Getter, class Convert>
  void get_group(Getter* getter, const std::vector<fmi2ValueReference>& references, const std::vector<std::size_t>& at,
                 std::span<double> results, Convert convert, std::string_view call) {
    if (references.empty()) return;
    std::vector<Value> v(references.size());
    instance_->require(getter(instance_->component(), references.data(), v.size(), v.data()), call);
    for (std::size_t k = 0; k < v.size(); ++k) results[at[k]] = convert(v[k]);
  }

  std::shared_ptr<const Binding> b_;
  std::vector<std::string> log_;  // before the instances: the FMU may log until it is freed
  std::unique_ptr<check::Instance> cs_instance_;
  std::unique_ptr<check::ModelExchangeStepper> stepper_;
  check::Instance* instance_ = nullptr;  // either's
  double fmu_time_ = 0.0;
  double t_end_;  // the run's: the FMU's last step starts at or before it
};

class FmuStep : public ExternalFunction {
 public:
  explicit FmuStep(std::shared_ptr<const Binding> binding) : b_(std::move(binding)) {}
  std::unique_ptr<Instance> instantiate(double, double t_end) const override {
    return std::make_unique<FmuInstance>(b_, t_end);
  }

 private:
  std::shared_ptr<const Binding> b_;
};

}  // namespace

FMUComponent::FMUComponent(std::string name, const std::string& path, FmuImportOptions options)
    : Component(std::move(name)), binding_(std::make_shared<Binding>()) {
  const std::string head = fmt::format("FMUComponent '{}'", this->name());
  if (!(options.step_size > 0) || !std::isfinite(options.step_size) || !std::isfinite(options.start_time) ||
      !(options.tolerance >= 0) || !std::isfinite(options.tolerance))
    throw ModelError(fmt::format("{}: step_size = {}, start_time = {} and tolerance = {} must be finite, step_size > 0 "
                                 "and tolerance >= 0",
                                 head, options.step_size, options.start_time, options.tolerance));
  Binding& b = *binding_;
  b.path = this->name();
  b.options = options;
  try {
    b.fmu = std::make_unique<check::UnpackedFmu>(path);
  } catch (const std::exception& error) {
    throw ModelError(fmt::format("{}: cannot read the FMU {}: {}", head, path, error.what()));
  }
  const check::ModelDescription& description = b.fmu->description();
  b.model_exchange = options.interface == FmuInterface::model_exchange ||
                     (options.interface == FmuInterface::automatic && !description.co_simulation);
  if (b.model_exchange ? !description.model_exchange : !description.co_simulation)
    throw ModelError(fmt::format("{}: {} does not declare {}", head, path,
                                 b.model_exchange ? "Model Exchange" : "Co-Simulation"));
  if (!b.fmu->binary_loaded()) {
    std::string why;
    for (const auto& finding : b.fmu->load_findings()) why += "; " + finding.message;
    throw ModelError(fmt::format("{}: the binary of {} did not load{}", head, path, why));
  }
  try {
    b.functions = std::make_unique<check::CommonFunctions>(*b.fmu);
    if (!b.model_exchange) b.do_step = check::required_function<fmi2DoStepTYPE>(*b.fmu, "fmi2DoStep");
    b.set_real = check::required_function<fmi2SetRealTYPE>(*b.fmu, "fmi2SetReal");
    b.set_integer = check::required_function<fmi2SetIntegerTYPE>(*b.fmu, "fmi2SetInteger");
    b.set_boolean = check::required_function<fmi2SetBooleanTYPE>(*b.fmu, "fmi2SetBoolean");
  } catch (const std::exception& error) {
    throw ModelError(fmt::format("{}: {}", head, error.what()));
  }

  ExternalCall call;
  call.function = std::make_shared<FmuStep>(binding_);
  for (const check::ScalarVariable& v : description.variables) {
    if (v.type == check::VariableType::string) continue;
    const bool tunable = v.variability == check::Variability::fixed || v.variability == check::Variability::tunable;
    if (v.causality == check::Causality::parameter && tunable) {
      b.parameters.add(v);
      call.arguments.push_back(parameter(identifier(v.name), start_value(v), {.unit = v.unit.value_or("")}));
    }
  }
  const Expr at_points = sample(Expr(options.start_time), Expr(options.step_size));
  for (const check::ScalarVariable& v : description.variables) {
    if (v.type == check::VariableType::string) continue;
    const std::string id = identifier(v.name);
    // Inputs are the call's arguments; Boolean and Integer outputs its results, Real ones through a held discrete.
    auto input = [&]<class C>(std::type_identity<C>) -> Connector* {
      auto& u = static_cast<C&>(keep_connector(std::make_unique<C>(*this, id)));
      call.arguments.push_back(u);
      return &u;
    };
    auto discrete_output = [&]<class C>(std::type_identity<C>) -> Connector* {
      auto& y = static_cast<C&>(keep_connector(std::make_unique<C>(*this, id)));
      call.results.push_back(y);
      return &y;
    };
    Connector* port = nullptr;
    if (v.causality == check::Causality::input) {
      b.inputs.add(v);
      port = v.type == check::VariableType::real      ? input(std::type_identity<RealInput>())
             : v.type == check::VariableType::boolean ? input(std::type_identity<BooleanInput>())
                                                      : input(std::type_identity<IntegerInput>());
    } else if (v.causality == check::Causality::output) {
      b.outputs.add(v);
      if (v.type == check::VariableType::real) {
        auto& y = static_cast<RealOutput&>(keep_connector(std::make_unique<RealOutput>(*this, id)));
        const Discrete held = discrete(id + "_held", {.unit = v.unit.value_or(""), .start = start_value(v)});
        equation(y == held);
        call.results.push_back(held);
        port = &y;
      } else {
        port = v.type == check::VariableType::boolean ? discrete_output(std::type_identity<BooleanOutput>())
                                                      : discrete_output(std::type_identity<IntegerOutput>());
      }
    }
    if (port) ports_.emplace(v.name, port);
  }
  if (b.outputs.size == 0)
    throw ModelError(fmt::format("{}: {} has no output variable to connect", head, path));
  when(at_points, std::move(call));
}

FMUComponent::~FMUComponent() = default;

Connector& FMUComponent::port_of(const std::string& fmu_name) const {
  auto found = ports_.find(fmu_name);
  if (found == ports_.end()) {
    std::vector<std::string> names;
    for (const auto& entry : ports_) names.push_back(entry.first);
    throw UnknownNameError(fmt::format("FMUComponent '{}'", path().empty() ? name() : path()), "FMU input or output",
                           fmu_name, names);
  }
  return *found->second;
}

}  // namespace acausal
