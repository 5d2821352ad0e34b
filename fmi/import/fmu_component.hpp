// An FMI 2.0 Co-Simulation FMU as a component of an acausal model: a
// supplier's engine or battery model that arrives as an FMU sits beside
// library components and is connected like a block.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "connectors/signal.hpp"

namespace acausal {

enum class FmuInterface {
  automatic,        // Co-Simulation when the FMU declares it, else Model Exchange
  co_simulation,    // the FMU's own solver (fmi2DoStep)
  model_exchange,   // CVODE integrates the FMU's states (fmi/check/model_exchange_stepper.hpp)
};

struct FmuImportOptions {
  /// The communication step (s): the FMU advances by it from each sample
  /// instant start_time + k·step_size to the next; each is a time event of the model.
  double step_size = 1e-3;
  /// The first communication point (s), where the FMU is initialized.
  double start_time = 0.0;
  /// The tolerance given to fmi2SetupExperiment (and, in Model Exchange, to
  /// CVODE as rtol = atol). 0: the DefaultExperiment's tolerance of the FMU's
  /// description; if it declares none, the FMU's own default (1e-6 for CVODE).
  double tolerance = 0.0;
  /// The loggingOn argument of fmi2Instantiate; the FMU's messages go to the error of a failing call.
  bool debug_logging = false;
  FmuInterface interface = FmuInterface::automatic;
};

/// FMUComponent: an FMU as a sampled subsystem, advanced between communication
/// points by its own solver (Co-Simulation) or, for Model Exchange, by CVODE
/// with the FMU's time and state events handled there. Each input
/// variable of the FMU is an input connector, each output an output
/// connector (RealInput/RealOutput, IntegerInput/Output, BooleanInput/Output
/// by the variable's type), each parameter a parameter of the component with
/// the FMU's start value as its default; names are the FMU's with every
/// character an identifier cannot hold replaced by '_' ("engine.J" → engine_J).
///
/// At each communication point t_k the inputs are set, the outputs read (so an
/// output that depends on an input directly sees it at t_k), and the FMU
/// steps to t_k + step_size; the outputs hold their values in between (a
/// zero-order hold, as a Co-Simulation master gives). At t_0 the FMU is
/// instantiated with the component's parameter values and initialized. Every
/// run instantiates the FMU afresh, so runs of one compiled model are
/// independent. Not supported: integrating a Model Exchange FMU's states with
/// the model's own (its outputs are sampled like a Co-Simulation FMU's), String
/// variables (left out), saving a session's state (the FMU's own state is not
/// part of it) and sensitivities.
class FMUComponent : public Component {
 public:
  FMUComponent(std::string name, const std::string& path, FmuImportOptions options = {});
  ~FMUComponent() override;

  std::string type_name() const override { return "FMUComponent"; }
  /// The connector of the FMU variable `fmu_name` (its name in modelDescription.xml).
  Connector& port_of(const std::string& fmu_name) const;

  struct Binding;  // the loaded FMU, shared by every run's instance

 private:
  std::shared_ptr<Binding> binding_;
  std::map<std::string, Connector*, std::less<>> ports_;
};

}  // namespace acausal
