// The parts of an FMI 2.0 modelDescription.xml that a checker needs, as the file states them: attributes the
// file leaves out stay empty (std::nullopt) where the standard's default depends on other attributes, so the
// rules can tell "given" from "defaulted".
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace acausal::fmi::check {

enum class Causality { parameter, calculated_parameter, input, output, local, independent };
enum class Variability { constant, fixed, tunable, discrete, continuous };
enum class Initial { exact, approx, calculated };
enum class VariableType { real, integer, boolean, string, enumeration };

std::string_view to_string(Causality causality);
std::string_view to_string(Variability variability);
std::string_view to_string(Initial initial);
std::string_view to_string(VariableType type);

// Capabilities shared by both interfaces (FMI 2.0 sections 3.3 and 4.3).
struct InterfaceCapabilities {
  std::string model_identifier;
  bool needs_execution_tool = false;
  bool can_be_instantiated_only_once_per_process = false;
  bool can_not_use_memory_management_functions = false;
  bool can_get_and_set_fmu_state = false;
  bool can_serialize_fmu_state = false;
  bool provides_directional_derivative = false;
};

struct ModelExchangeInterface : InterfaceCapabilities {
  bool completed_integrator_step_not_needed = false;
};

struct CoSimulationInterface : InterfaceCapabilities {
  bool can_handle_variable_communication_step_size = false;
  bool can_interpolate_inputs = false;
  unsigned max_output_derivative_order = 0;
  bool can_run_asynchronuously = false;  // the standard's spelling
};

struct UnitDefinition {
  std::string name;
  std::vector<std::string> display_units;
};

// A SimpleType of TypeDefinitions: a named type variables may declare instead of repeating attributes.
struct TypeDefinition {
  std::string name;
  VariableType type = VariableType::real;
  std::optional<std::string> unit;
  std::optional<std::string> display_unit;
};

struct DefaultExperiment {
  std::optional<double> start_time;
  std::optional<double> stop_time;
  std::optional<double> tolerance;
  std::optional<double> step_size;
};

struct ScalarVariable {
  std::string name;
  std::uint32_t value_reference = 0;
  Causality causality = Causality::local;
  Variability variability = Variability::continuous;
  std::optional<Initial> initial;
  VariableType type = VariableType::real;
  std::optional<std::string> start;  // as written; its meaning depends on the type
  std::optional<std::string> declared_type;
  std::optional<std::string> unit;
  std::optional<std::string> display_unit;
  std::optional<std::size_t> derivative;  // 1-based index of the state this Real is the derivative of
  std::optional<double> nominal;
  std::size_t line = 0;                   // in modelDescription.xml, for messages
};

// An Unknown of ModelStructure; indices are 1-based positions in ModelVariables, as in the file.
struct Unknown {
  std::size_t index = 0;
  std::optional<std::vector<std::size_t>> dependencies;  // absent means "may depend on everything"
  std::vector<std::string> dependencies_kind;
};

struct ModelDescription {
  std::string fmi_version;
  std::string model_name;
  std::string guid;
  std::string generation_tool;
  std::size_t number_of_event_indicators = 0;
  std::optional<ModelExchangeInterface> model_exchange;
  std::optional<CoSimulationInterface> co_simulation;
  std::vector<UnitDefinition> units;
  std::vector<TypeDefinition> types;
  std::optional<DefaultExperiment> default_experiment;
  std::vector<ScalarVariable> variables;
  std::vector<Unknown> outputs;
  std::vector<Unknown> derivatives;
  std::vector<Unknown> initial_unknowns;
};

// Parses the text of a modelDescription.xml. `source` names it in messages. Throws std::runtime_error, naming
// source and line, on malformed XML, a root element other than fmiModelDescription, values that do not parse
// (numbers, booleans, enumerations of the standard) and a ScalarVariable without name, valueReference or type.
// Whatever the rules can judge (combinations, cross references) is left to check_description().
ModelDescription parse_model_description(std::string_view xml, const std::string& source);

}  // namespace acausal::fmi::check
