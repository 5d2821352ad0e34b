#include "fmi/export/export_fmu.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include <fmt/format.h>

#include "fmi/archive.hpp"
#include "fmi/export/model_description.hpp"
#include "fmi/export/variable_table.hpp"
#include "solver/runtime/model_file.hpp"
#include "solver/lower/evaluation.hpp"
#include "solver/symbolic/errors.hpp"

namespace acausal {

namespace {

bool is_c_identifier(const std::string& text) {
  if (text.empty() || std::isdigit(static_cast<unsigned char>(text.front()))) return false;
  for (const char c : text)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

std::string identifier_from(const std::string& model_name) {
  std::string identifier = model_name;
  for (char& c : identifier)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') c = '_';
  if (identifier.empty() || std::isdigit(static_cast<unsigned char>(identifier.front()))) identifier.insert(0, "_");
  return identifier;
}

void check_options(const FmuExportOptions& options, const std::string& identifier) {
  if (!is_c_identifier(identifier))
    throw ModelError(fmt::format("model_identifier '{}' is not a C identifier (letters, digits and '_', not "
                                 "starting with a digit)",
                                 identifier));
  if (!std::isfinite(options.start_time))
    throw ModelError(fmt::format("start_time = {} is not finite", options.start_time));
  if (!std::isfinite(options.stop_time) || !(options.stop_time > options.start_time))
    throw ModelError(fmt::format("stop_time = {} must be finite and after start_time = {}", options.stop_time,
                                 options.start_time));
  if (!(options.tolerance > 0 && options.tolerance < 1))
    throw ModelError(fmt::format("tolerance = {} must be in (0, 1)", options.tolerance));
  if (!std::isfinite(options.step_size) || !(options.step_size > 0))
    throw ModelError(fmt::format("step_size = {} must be positive and finite", options.step_size));
}

std::string file_bytes(const std::string& path, const std::string& what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ModelError(fmt::format("cannot open {} '{}'", what, path));
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (in.bad()) throw ModelError(fmt::format("cannot read {} '{}'", what, path));
  return std::move(bytes).str();
}

std::string documentation_page(const Simulator& sim, const std::string& identifier,
                               const FmuExportOptions& options) {
  const fmi::VariableTable table = fmi::variable_table(sim);
  int parameters = 0, inputs = 0, outputs = 0;
  for (const fmi::FmuVariable& variable : table.variables) {
    parameters += variable.causality == fmi::FmuVariable::Causality::parameter;
    inputs += variable.causality == fmi::FmuVariable::Causality::input;
    outputs += variable.causality == fmi::FmuVariable::Causality::output;
  }
  const std::string name = fmi::xml_escaped(sim.compiled().dae.model_name);
  return fmt::format(
      "<!DOCTYPE html>\n<html>\n<head><meta charset=\"utf-8\"><title>{0}</title></head>\n<body>\n"
      "<h1>{0}</h1>\n"
      "<p>An FMI 2.0 FMU for Model Exchange and Co-Simulation on 64-bit Linux, exported by acausal.</p>\n"
      "<p>{1} variables: time, {2} parameters, {3} inputs, {4} outputs and {5} local variables.</p>\n"
      "<p>The equations, compiled by acausal, are in <code>resources/model.acflat</code>; the library "
      "<code>binaries/linux64/{6}.so</code> reads them when the FMU is instantiated and integrates them with "
      "SUNDIALS IDA between communication points, handling events on the way (Co-Simulation), or gives the "
      "host its states' derivatives, event indicators and event iteration (Model Exchange).</p>\n"
      "<p>Default experiment: from {7} s to {8} s, tolerance {9}, communication step {10} s.</p>\n"
      "</body>\n</html>\n",
      name, table.variables.size(), parameters, inputs, outputs,
      table.variables.size() - 1 - parameters - inputs - outputs, fmi::xml_escaped(identifier), options.start_time,
      options.stop_time, options.tolerance, options.step_size);
}

std::vector<fmi::ArchiveEntry> fmu_entries(const Simulator& sim, const FmuExportOptions& options) {
  const std::string identifier =
      options.model_identifier.empty() ? identifier_from(sim.compiled().dae.model_name) : options.model_identifier;
  check_options(options, identifier);
  const std::string library = options.runtime_library.empty() ? fmu_runtime_library() : options.runtime_library;

  std::ostringstream file;
  write_compiled_model(sim, file);
  std::string model_text = std::move(file).str();

  fmi::FmuDescriptionOptions description;
  description.model_identifier = identifier;
  // The runtime hashes the resource's bytes: the GUID must come from these very bytes.
  description.guid = fmi::model_file_guid(model_text);
  description.start_time = options.start_time;
  description.stop_time = options.stop_time;
  description.tolerance = options.tolerance;
  description.step_size = options.step_size;

  return {
      {"modelDescription.xml", fmi::model_description_xml(sim, description)},
      {fmt::format("binaries/linux64/{}.so", identifier), file_bytes(library, "the FMU runtime library")},
      {"resources/model.acflat", std::move(model_text)},
      {"documentation/index.html", documentation_page(sim, identifier, options)},
  };
}

}  // namespace

void export_fmu(const Simulator& sim, const std::string& path, const FmuExportOptions& options) {
  try {
    fmi::write_zip(path, fmu_entries(sim, options));
  } catch (const std::exception& e) {
    throw ModelError(fmt::format("export_fmu('{}') of model '{}': {}", path, sim.compiled().dae.model_name, e.what()));
  }
}

std::string fmu_runtime_library() {
  if (const char* path = std::getenv("ACAUSAL_FMU_RUNTIME"); path && *path) return path;
  std::vector<std::string> candidates;
#ifdef ACAUSAL_FMU_RUNTIME_BUILD_PATH
  candidates.emplace_back(ACAUSAL_FMU_RUNTIME_BUILD_PATH);
#endif
#ifdef ACAUSAL_FMU_RUNTIME_INSTALLED_PATH
  candidates.emplace_back(ACAUSAL_FMU_RUNTIME_INSTALLED_PATH);
#endif
  for (const std::string& candidate : candidates) {
    std::error_code error;
    if (std::filesystem::is_regular_file(candidate, error)) return candidate;
  }
  std::string looked;
  for (const std::string& candidate : candidates)
    looked += fmt::format("{}'{}'", looked.empty() ? "" : ", ", candidate);
  throw ModelError(fmt::format("the FMU runtime library was not built{}; build it with the project, or set "
                               "ACAUSAL_FMU_RUNTIME to its path",
                               looked.empty() ? "" : fmt::format(" (looked for {})", looked)));
}

}  // namespace acausal
