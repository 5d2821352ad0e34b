// Exporting a compiled model as an FMI 2.0 FMU (Model Exchange and Co-Simulation) for 64-bit Linux:
// its description, the prebuilt runtime library as the FMU's binary, and the
// model itself as a resource the runtime reads when instantiated.
#pragma once

#include <string>

#include "solver/runtime/simulator.hpp"

namespace acausal {

struct FmuExportOptions {
  /// A C identifier: the binary's name and the description's modelIdentifier.
  /// Empty: the model's name with every character a C identifier cannot hold replaced by '_'.
  std::string model_identifier;
  /// The description's DefaultExperiment.
  double start_time = 0.0, stop_time = 1.0, tolerance = 1e-6, step_size = 0.01;
  /// The prebuilt runtime shared object. Empty: fmu_runtime_library().
  std::string runtime_library;
};

/// Writes the FMU (a ZIP archive) at `path`: modelDescription.xml,
/// binaries/linux64/<model_identifier>.so, resources/model.acflat (the model
/// with the simulator's current parameter values, which become the FMU's
/// start values) and documentation/index.html. Throws ModelError naming
/// `path` when the options are out of range or a file cannot be read or written.
void export_fmu(const Simulator& sim, const std::string& path, const FmuExportOptions& options = {});

/// The runtime library export_fmu() packs: $ACAUSAL_FMU_RUNTIME when set,
/// else the first that exists of the build tree's and the installed copy.
/// Throws ModelError when there is none (the runtime was not built).
std::string fmu_runtime_library();

}  // namespace acausal
