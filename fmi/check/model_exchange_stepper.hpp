// One Model Exchange instance advanced in pieces by SUNDIALS CVODE (BDF, dense
// Newton): the checker's Model Exchange runs, and an imported Model Exchange
// FMU between its communication points (fmi/import). It stops at the FMU's
// time events, locates state events on its event indicators, and runs the
// event iteration through fmi2NewDiscreteStates, as FMI 2.0's reference
// algorithm (section 3.2.4) does.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace acausal::fmi::check {

class Instance;
class UnpackedFmu;

class ModelExchangeStepper {
 public:
  /// Instantiates the FMU for Model Exchange; throws std::runtime_error when
  /// the binary lacks a function Model Exchange needs or fmi2Instantiate fails.
  /// The FMU's messages are appended to `log`, which must outlive the stepper.
  ModelExchangeStepper(const UnpackedFmu& fmu, const std::string& instance_name, bool debug_logging,
                       std::vector<std::string>& log);
  ~ModelExchangeStepper();
  ModelExchangeStepper(const ModelExchangeStepper&) = delete;
  ModelExchangeStepper& operator=(const ModelExchangeStepper&) = delete;

  /// The instance, to set parameters and inputs (before initialize()) and read values.
  Instance& instance();
  /// fmi2SetupExperiment, initialization mode, the event iteration at the
  /// start, continuous-time mode. CVODE's rtol = atol = `tolerance` (1e-6 when none).
  void initialize(double start_time, std::optional<double> tolerance, std::optional<double> stop_time);
  /// After inputs were set: the integrator starts afresh from the current time (the right-hand side jumped).
  void restart();
  /// Integrates to `goal`, handling every event on the way; the FMU is left at goal.
  void advance_to(double goal);
  double time() const;
  std::size_t steps() const;                     // CVODE's steps, over every restart
  const std::vector<double>& event_times() const;  // the events handled after initialization
  void terminate();

 private:
  class Run;
  std::unique_ptr<Run> run_;
};

}  // namespace acausal::fmi::check
