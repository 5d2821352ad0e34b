// What the FMI tests share: exporting a model into a temporary FMU and
// running it through the checker.
#pragma once

#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>
#include <acausal/fmi/check/runner.hpp>
#include <acausal/fmi/check/unpacked_fmu.hpp>
#include <acausal/fmi/fmi2_api.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <unistd.h>

namespace acausal::test {

/// An FMU file of its own in the temporary directory, removed afterwards.
class TemporaryFmu {
 public:
  TemporaryFmu(const Simulator& sim, const std::string& name, FmuExportOptions options = {})
      : path_((std::filesystem::temp_directory_path() / (name + "-" + std::to_string(::getpid()) + ".fmu")).string()) {
    export_fmu(sim, path_, options);
  }
  ~TemporaryFmu() { std::filesystem::remove(path_); }
  TemporaryFmu(const TemporaryFmu&) = delete;
  TemporaryFmu& operator=(const TemporaryFmu&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

enum class Interface { co_simulation, model_exchange };

inline const char* interface_name(Interface interface) {
  return interface == Interface::co_simulation ? "Co-Simulation" : "Model Exchange";
}

/// Runs `fmu` from 0 to `stop`, read every `step`: as a Co-Simulation slave,
/// or in Model Exchange integrated by the checker's CVODE (rtol = atol =
/// `tolerance`); requires a clean description, a loadable binary and a completed run.
inline fmi::check::RunResult run_fmu(const fmi::check::Fmu& fmu, Interface interface, double stop, double step,
                                     std::vector<std::string> recorded = {}, std::optional<double> tolerance = {}) {
  for (const auto& f : check_description(fmu.description())) FAIL_CHECK(f.rule << ": " << f.message);
  for (const auto& f : fmu.load_findings()) FAIL_CHECK(f.rule << ": " << f.message);
  fmi::check::RunOptions options;
  options.stop_time = stop;
  options.step_size = step;
  options.recorded_names = std::move(recorded);
  options.tolerance = tolerance;
  fmi::check::RunResult run = interface == Interface::co_simulation ? fmu.run_co_simulation(options)
                                                                    : fmu.run_model_exchange(options);
  for (const auto& f : run.findings) FAIL_CHECK(f.rule << ": " << f.message);
  for (const auto& line : run.log) UNSCOPED_INFO(line);
  REQUIRE(run.completed);
  return run;
}

inline fmi::check::RunResult co_simulate(const fmi::check::Fmu& fmu, double stop, double step,
                                         std::vector<std::string> recorded = {}, std::optional<double> tolerance = {}) {
  return run_fmu(fmu, Interface::co_simulation, stop, step, std::move(recorded), tolerance);
}

/// The fmi2 functions a test calls by hand, as the FMU exports them.
struct Fmi2Functions {
  explicit Fmi2Functions(const fmi::check::UnpackedFmu& fmu)
      : instantiate(fmu.function<fmi2InstantiateTYPE>("fmi2Instantiate")),
        setup(fmu.function<fmi2SetupExperimentTYPE>("fmi2SetupExperiment")),
        enter(fmu.function<fmi2EnterInitializationModeTYPE>("fmi2EnterInitializationMode")),
        exit(fmu.function<fmi2ExitInitializationModeTYPE>("fmi2ExitInitializationMode")),
        set_real(fmu.function<fmi2SetRealTYPE>("fmi2SetReal")),
        get_real(fmu.function<fmi2GetRealTYPE>("fmi2GetReal")),
        do_step(fmu.function<fmi2DoStepTYPE>("fmi2DoStep")),
        directional(fmu.function<fmi2GetDirectionalDerivativeTYPE>("fmi2GetDirectionalDerivative")),
        get_state(fmu.function<fmi2GetFMUstateTYPE>("fmi2GetFMUstate")),
        set_state(fmu.function<fmi2SetFMUstateTYPE>("fmi2SetFMUstate")),
        free_state(fmu.function<fmi2FreeFMUstateTYPE>("fmi2FreeFMUstate")),
        reset(fmu.function<fmi2ResetTYPE>("fmi2Reset")),
        free_instance(fmu.function<fmi2FreeInstanceTYPE>("fmi2FreeInstance")) {
    REQUIRE((instantiate && setup && enter && exit && set_real && get_real && do_step && directional && get_state &&
             set_state && free_state && reset && free_instance));
  }
  fmi2InstantiateTYPE* instantiate;
  fmi2SetupExperimentTYPE* setup;
  fmi2EnterInitializationModeTYPE* enter;
  fmi2ExitInitializationModeTYPE* exit;
  fmi2SetRealTYPE* set_real;
  fmi2GetRealTYPE* get_real;
  fmi2DoStepTYPE* do_step;
  fmi2GetDirectionalDerivativeTYPE* directional;
  fmi2GetFMUstateTYPE* get_state;
  fmi2SetFMUstateTYPE* set_state;
  fmi2FreeFMUstateTYPE* free_state;
  fmi2ResetTYPE* reset;
  fmi2FreeInstanceTYPE* free_instance;
};

/// The value reference of variable `name` in the FMU's description.
inline fmi2ValueReference value_reference(const fmi::check::UnpackedFmu& fmu, const std::string& name) {
  for (const auto& v : fmu.description().variables)
    if (v.name == name) return v.value_reference;
  FAIL("no variable " << name);
  return 0;
}

/// Column `name` of a checker result.
inline std::vector<double> column(const fmi::check::RunResult& run, const std::string& name) {
  const auto& names = run.table.names;
  const auto it = std::find(names.begin(), names.end(), name);
  REQUIRE(it != names.end());
  std::vector<double> values;
  for (const auto& row : run.table.rows) values.push_back(row[it - names.begin()]);
  return values;
}

/// The largest difference between a checker run's recorded columns and the
/// library's own run of `sim` (a session advanced through the same
/// communication points), relative to max(1, |value|), and where it is.
struct LargestDifference {
  double relative = 0;
  std::string where;
};
inline LargestDifference difference_from_library(const Simulator& sim, SimulationOptions options,
                                                 const fmi::check::RunResult& run) {
  options.output_times = {run.table.times.back()};
  options.t_end = run.table.times.back();
  Session session = sim.start(options);
  LargestDifference largest;
  for (std::size_t k = 1; k < run.table.times.size(); ++k) {
    session.advance(run.table.times[k]);
    for (std::size_t j = 0; j < run.table.names.size(); ++j) {
      const double mine = session.get(run.table.names[j]), theirs = run.table.rows[k][j];
      const double error = std::fabs(mine - theirs) / std::max(1.0, std::fabs(mine));
      if (error > largest.relative)
        largest = {error, run.table.names[j] + " at t = " + std::to_string(run.table.times[k])};
    }
  }
  return largest;
}

}  // namespace acausal::test
