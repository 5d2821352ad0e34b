// modelDescription.xml of an FMI 2.0 FMU (Model Exchange and Co-Simulation), and the GUID that ties
// the description to the model inside the FMU's resources.
#pragma once

#include <string>
#include <string_view>

#include "solver/runtime/simulator.hpp"

namespace acausal::fmi {

struct FmuDescriptionOptions {
  /// The C identifier naming the shared object (binaries/linux64/<id>.so).
  std::string model_identifier;
  /// model_file_guid() of the model file the FMU carries.
  std::string guid;
  double start_time = 0.0, stop_time = 1.0, tolerance = 1e-6, step_size = 0.01;
};

/// The whole modelDescription.xml (UTF-8): the ModelExchange and CoSimulation
/// capabilities, the units, the log categories, the default experiment, the
/// variables of variable_table(sim) and the model structure (outputs, state
/// derivatives and initial unknowns, each depending on every known).
std::string model_description_xml(const Simulator& sim, const FmuDescriptionOptions& options);

/// The GUID of a compiled model's text (what write_compiled_model writes): two FNV-1a
/// 64-bit hashes, the second seeded with the first, written as
/// {xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx}. The runtime hashes the bytes of
/// resources/model.acflat with it, so the FMU refuses a description and a
/// model that were not exported together.
std::string model_file_guid(std::string_view model_text);


/// `text` fit for an XML (or HTML) attribute or element: markup characters as
/// entities, bytes that are not UTF-8 and control characters XML 1.0 cannot
/// carry as \xNN text.
std::string xml_escaped(std::string_view text);

}  // namespace acausal::fmi
