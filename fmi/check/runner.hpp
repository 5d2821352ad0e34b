// Loading an FMI 2.0 FMU into this process and running it, as a Co-Simulation slave with a fixed communication
// step or as a Model Exchange model integrated by CVODE: the dynamic half of the FMU checker (the static half
// is rules.hpp).
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "fmi/check/model_description.hpp"
#include "fmi/check/result_table.hpp"
#include "fmi/check/rules.hpp"

namespace acausal::fmi::check {

class UnpackedFmu;

struct RunOptions {
  double start_time = 0;
  double stop_time = 1;
  double step_size = 1e-2;
  std::optional<double> tolerance;          // handed to fmi2SetupExperiment when given
  std::vector<std::string> recorded_names;  // recorded besides the outputs
  bool debug_logging = false;               // the loggingOn argument of fmi2Instantiate
};

struct RunResult {
  ResultTable table;  // time and every output (then the recorded names) at each communication point
  std::size_t steps = 0;          // communication steps (Co-Simulation), integrator steps (Model Exchange)
  std::vector<double> event_times;  // Model Exchange: the events the master handled after initialization
  bool completed = false;         // reached the stop time and terminated without an error status
  std::vector<Finding> findings;  // what went wrong; empty when completed
  std::vector<std::string> log;   // the messages the FMU sent to its logger, formatted
};

struct TwoInstanceResult {
  bool skipped = false;  // the FMU declares canBeInstantiatedOnlyOncePerProcess
  bool passed = false;
  RunResult first;
  RunResult second;
  std::vector<Finding> findings;  // the runs' own findings, then where each run departs from the single run
};

class Fmu {
 public:
  // Reads the archive into a private temporary directory, parses modelDescription.xml and loads
  // binaries/linux64/<modelIdentifier>.so (Co-Simulation's identifier if both interfaces are present). Throws
  // std::runtime_error if the archive or the description cannot be read; problems with the binary become
  // load_findings() instead, so the description can still be checked.
  explicit Fmu(const std::string& path);
  ~Fmu();
  Fmu(const Fmu&) = delete;
  Fmu& operator=(const Fmu&) = delete;

  const ModelDescription& description() const;

  // Missing binary, a binary dlopen refuses, each FMI 2.0 function the binary does not export (all that the
  // standard requires of the interfaces the description declares), fmi2GetVersion and fmi2GetTypesPlatform
  // answering other than "2.0" and "default".
  const std::vector<Finding>& load_findings() const;

  // One instance from start to stop in fixed steps: the communication points are start + k*step (the last one
  // clipped to stop), each value read after fmi2ExitInitializationMode and after every fmi2DoStep. An FMU
  // without Co-Simulation gives the finding "co-simulation". Never throws for what the FMU does; an unknown
  // recorded name or an empty interval becomes a finding as well.
  RunResult run_co_simulation(const RunOptions& options) const;

  // One Model Exchange instance from start to stop: CVODE (BDF; rtol = atol = the tolerance, 1e-6 when none)
  // integrates the states, stopping at the FMU's next time event and at sign changes of its event indicators,
  // where the event iteration runs (fmi2NewDiscreteStates until it needs no further pass); values are read at
  // the same communication points as run_co_simulation's. Findings as there, under the rule "model-exchange".
  RunResult run_model_exchange(const RunOptions& options) const;

  // Two instances alive together, stepped alternately with the same options; passes when each records exactly
  // (bit for bit) what `single_instance`, a run_co_simulation() result for the same options, recorded.
  TwoInstanceResult run_two_instances(const RunOptions& options, const RunResult& single_instance) const;

 private:
  std::unique_ptr<UnpackedFmu> fmu_;
};

}  // namespace acausal::fmi::check
