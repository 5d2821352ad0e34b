#include "fmi/check/rules.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <tuple>

namespace acausal::fmi::check {

namespace {

// The standard's table of causality/variability combinations (FMI 2.0, section 2.2.7): parameters are fixed or
// tunable, inputs discrete or continuous, outputs anything that can change or be constant, the independent
// variable (time) continuous, and locals anything.
bool combination_allowed(Causality causality, Variability variability) {
  switch (causality) {
    case Causality::parameter:
    case Causality::calculated_parameter:
      return variability == Variability::fixed || variability == Variability::tunable;
    case Causality::input: return variability == Variability::discrete || variability == Variability::continuous;
    case Causality::output: return variability != Variability::fixed && variability != Variability::tunable;
    case Causality::local: return true;
    case Causality::independent: return variability == Variability::continuous;
  }
  return false;
}

struct InitialChoices {
  std::vector<Initial> allowed;  // empty: the attribute must not be given
  std::optional<Initial> default_initial;
};

// The standard's table of `initial` for each allowed combination (FMI 2.0, section 2.2.7).
InitialChoices initial_choices(Causality causality, Variability variability) {
  if (causality == Causality::input || causality == Causality::independent) return {{}, std::nullopt};
  if (variability == Variability::constant || causality == Causality::parameter)
    return {{Initial::exact}, Initial::exact};
  bool changes_only_at_initialization = variability == Variability::fixed || variability == Variability::tunable;
  if (causality == Causality::calculated_parameter || changes_only_at_initialization)
    return {{Initial::approx, Initial::calculated}, Initial::calculated};
  return {{Initial::exact, Initial::approx, Initial::calculated}, Initial::calculated};
}

// Integer and Enumeration values are both read with fmi2GetInteger, so they share value references.
int value_reference_space(VariableType type) {
  switch (type) {
    case VariableType::real: return 0;
    case VariableType::integer:
    case VariableType::enumeration: return 1;
    case VariableType::boolean: return 2;
    case VariableType::string: return 3;
  }
  return -1;
}

bool is_c_identifier(const std::string& text) {
  auto letter = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; };
  auto letter_or_digit = [&](char c) { return letter(c) || std::isdigit(static_cast<unsigned char>(c)); };
  return !text.empty() && letter(text.front()) && std::all_of(text.begin(), text.end(), letter_or_digit);
}

std::string quoted(const std::optional<std::string>& text) { return text ? fmt::format("\"{}\"", *text) : "none"; }

class DescriptionChecker {
 public:
  explicit DescriptionChecker(const ModelDescription& description) : description_(description) {}

  std::vector<Finding> run() {
    check_header();
    check_interfaces();
    check_default_experiment();
    check_names_and_references();
    for (const ScalarVariable& variable : description_.variables) {
      check_combination(variable);
      check_start(variable);
      check_types_and_units(variable);
    }
    check_type_definitions();
    check_independent_variable();
    check_structure_indices();
    check_outputs();
    check_derivatives();
    return std::move(findings_);
  }

 private:
  void report(std::string rule, std::string message) { findings_.push_back({std::move(rule), std::move(message)}); }

  static std::string describe(const ScalarVariable& variable) {
    return fmt::format("variable '{}' (line {})", variable.name, variable.line);
  }

  const ScalarVariable* variable_at(std::size_t index) const {
    if (index < 1 || index > description_.variables.size()) return nullptr;
    return &description_.variables[index - 1];
  }

  const TypeDefinition* type_named(const std::optional<std::string>& name) const {
    if (!name) return nullptr;
    auto found = std::find_if(description_.types.begin(), description_.types.end(),
                              [&](const TypeDefinition& type) { return type.name == *name; });
    return found == description_.types.end() ? nullptr : &*found;
  }

  const UnitDefinition* unit_named(const std::string& name) const {
    auto found = std::find_if(description_.units.begin(), description_.units.end(),
                              [&](const UnitDefinition& unit) { return unit.name == name; });
    return found == description_.units.end() ? nullptr : &*found;
  }

  void check_header() {
    if (description_.fmi_version != "2.0")
      report("fmi-version", fmt::format("fmiVersion is \"{}\", not \"2.0\"", description_.fmi_version));
    if (description_.guid.empty()) report("guid-present", "fmiModelDescription has no guid");
  }

  void check_interfaces() {
    if (!description_.model_exchange && !description_.co_simulation)
      report("interface-present", "neither a ModelExchange nor a CoSimulation element");
    // The identifier names the shared library and prefixes the functions of source FMUs, so it must be a C name.
    auto check_identifier = [&](const InterfaceCapabilities& capabilities, std::string_view element) {
      if (!is_c_identifier(capabilities.model_identifier))
        report("model-identifier",
               fmt::format("{} modelIdentifier \"{}\" is not a C identifier", element, capabilities.model_identifier));
    };
    if (description_.model_exchange) check_identifier(*description_.model_exchange, "ModelExchange");
    if (description_.co_simulation) check_identifier(*description_.co_simulation, "CoSimulation");
  }

  void check_default_experiment() {
    if (!description_.default_experiment) return;
    const DefaultExperiment& experiment = *description_.default_experiment;
    if (experiment.start_time && experiment.stop_time && !(*experiment.start_time < *experiment.stop_time))
      report("default-experiment", fmt::format("DefaultExperiment startTime {} is not before stopTime {}",
                                               *experiment.start_time, *experiment.stop_time));
    if (experiment.tolerance && !(*experiment.tolerance > 0))
      report("default-experiment",
             fmt::format("DefaultExperiment tolerance {} is not positive", *experiment.tolerance));
    if (experiment.step_size && !(*experiment.step_size > 0))
      report("default-experiment", fmt::format("DefaultExperiment stepSize {} is not positive", *experiment.step_size));
  }

  // Equal value references of one base type are allowed: they make the variables aliases, which always hold
  // the same value. So aliases contradict each other only if they start from different values.
  void check_names_and_references() {
    std::map<std::string, const ScalarVariable*> by_name;
    std::map<std::tuple<int, std::uint32_t>, const ScalarVariable*> first_with_start;
    for (const ScalarVariable& variable : description_.variables) {
      auto [named, fresh_name] = by_name.emplace(variable.name, &variable);
      if (!fresh_name)
        report("unique-name",
               fmt::format("{} has the name of the variable on line {}", describe(variable), named->second->line));
      if (!variable.start) continue;
      auto key = std::make_tuple(value_reference_space(variable.type), variable.value_reference);
      auto [alias, fresh_reference] = first_with_start.emplace(key, &variable);
      if (!fresh_reference && *alias->second->start != *variable.start)
        report("unique-value-reference",
               fmt::format("{} shares valueReference {} with '{}' but starts at {} instead of {}", describe(variable),
                           variable.value_reference, alias->second->name, *variable.start, *alias->second->start));
    }
  }

  void check_combination(const ScalarVariable& variable) {
    if (!combination_allowed(variable.causality, variable.variability))
      report("causality-variability",
             fmt::format("{} combines causality {} with variability {}, which the standard does not allow",
                         describe(variable), to_string(variable.causality), to_string(variable.variability)));
    if (variable.variability == Variability::continuous && variable.type != VariableType::real)
      report("continuous-real", fmt::format("{} is continuous but of type {}: only Real variables may be",
                                            describe(variable), to_string(variable.type)));
    if (!variable.initial) return;
    InitialChoices choices = initial_choices(variable.causality, variable.variability);
    if (std::find(choices.allowed.begin(), choices.allowed.end(), *variable.initial) != choices.allowed.end()) return;
    if (choices.allowed.empty())
      report("variability-initial",
             fmt::format("{} has initial=\"{}\", but a variable of causality {} may not have the attribute",
                         describe(variable), to_string(*variable.initial), to_string(variable.causality)));
    else
      report("variability-initial",
             fmt::format("{} has initial=\"{}\", but causality {} with variability {} allows only {}",
                         describe(variable), to_string(*variable.initial), to_string(variable.causality),
                         to_string(variable.variability), allowed_list(choices.allowed)));
  }

  static std::string allowed_list(const std::vector<Initial>& allowed) {
    std::string list;
    for (Initial initial : allowed) list += fmt::format("{}\"{}\"", list.empty() ? "" : " or ", to_string(initial));
    return list;
  }

  void check_start(const ScalarVariable& variable) {
    std::optional<Initial> initial =
        variable.initial ? variable.initial : initial_choices(variable.causality, variable.variability).default_initial;
    bool required = variable.causality == Causality::input || initial == Initial::exact || initial == Initial::approx;
    bool forbidden = variable.causality == Causality::independent || initial == Initial::calculated;
    std::string why = variable.causality == Causality::input || variable.causality == Causality::independent
                          ? fmt::format("causality is {}", to_string(variable.causality))
                          : fmt::format("initial is {}{}", to_string(*initial), variable.initial ? "" : " by default");
    if (required && !variable.start)
      report("start-required",
             fmt::format("{} has no start value, which it needs because its {}", describe(variable), why));
    if (forbidden && variable.start)
      report("start-forbidden", fmt::format("{} has start=\"{}\", which it may not have because its {}",
                                            describe(variable), *variable.start, why));
  }

  void check_types_and_units(const ScalarVariable& variable) {
    const TypeDefinition* declared = type_named(variable.declared_type);
    if (variable.declared_type && !declared)
      report("declared-type", fmt::format("{} declares type '{}', which TypeDefinitions does not define",
                                          describe(variable), *variable.declared_type));
    if (declared && declared->type != variable.type)
      report("declared-type", fmt::format("{} is {} but declares the {} type '{}'", describe(variable),
                                          to_string(variable.type), to_string(declared->type), declared->name));
    if (variable.type == VariableType::enumeration && !variable.declared_type)
      report("declared-type", fmt::format("{} is an Enumeration without declaredType", describe(variable)));
    if (variable.type != VariableType::real) return;
    if (variable.nominal && !(*variable.nominal > 0 && std::isfinite(*variable.nominal)))
      report("nominal", fmt::format("{} has nominal {}; the standard requires a positive value", describe(variable),
                                    *variable.nominal));
    // A variable's own attributes override those of its declared type.
    std::optional<std::string> unit = variable.unit ? variable.unit : declared ? declared->unit : std::nullopt;
    std::optional<std::string> display_unit = variable.display_unit ? variable.display_unit
                                              : declared            ? declared->display_unit
                                                                    : std::nullopt;
    check_unit(describe(variable), unit, display_unit);
  }

  void check_type_definitions() {
    for (const TypeDefinition& type : description_.types)
      if (type.type == VariableType::real)
        check_unit(fmt::format("type '{}'", type.name), type.unit, type.display_unit);
  }

  void check_unit(const std::string& owner, const std::optional<std::string>& unit,
                  const std::optional<std::string>& display_unit) {
    const UnitDefinition* definition = unit ? unit_named(*unit) : nullptr;
    if (unit && !definition)
      report("unit-defined", fmt::format("{} has unit \"{}\", which UnitDefinitions does not define", owner, *unit));
    if (!display_unit) return;
    bool listed = definition && std::find(definition->display_units.begin(), definition->display_units.end(),
                                          *display_unit) != definition->display_units.end();
    if (!listed)
      report("display-unit-defined", fmt::format("{} has displayUnit \"{}\", which is no DisplayUnit of unit {}", owner,
                                                 *display_unit, quoted(unit)));
  }

  void check_independent_variable() {
    const ScalarVariable* first = nullptr;
    for (const ScalarVariable& variable : description_.variables) {
      if (variable.causality != Causality::independent) continue;
      if (variable.type != VariableType::real)
        report("independent-variable", fmt::format("{} is the independent variable but not Real", describe(variable)));
      if (first)
        report("independent-variable",
               fmt::format("{} is a second independent variable after '{}'", describe(variable), first->name));
      else
        first = &variable;
    }
  }

  void check_unknowns(const std::vector<Unknown>& unknowns, std::string_view list) {
    for (const Unknown& unknown : unknowns) {
      if (!variable_at(unknown.index))
        report("structure-index", fmt::format("ModelStructure/{} lists index {}, but there are {} variables", list,
                                              unknown.index, description_.variables.size()));
      std::size_t dependency_count = unknown.dependencies ? unknown.dependencies->size() : 0;
      for (std::size_t dependency : unknown.dependencies.value_or(std::vector<std::size_t>{}))
        if (!variable_at(dependency))
          report("structure-index", fmt::format("ModelStructure/{} index {} depends on index {}, which is no variable",
                                                list, unknown.index, dependency));
      if (!unknown.dependencies_kind.empty() && unknown.dependencies_kind.size() != dependency_count)
        report("structure-index", fmt::format("ModelStructure/{} index {} has {} dependenciesKind for {} dependencies",
                                              list, unknown.index, unknown.dependencies_kind.size(), dependency_count));
    }
  }

  void check_structure_indices() {
    check_unknowns(description_.outputs, "Outputs");
    check_unknowns(description_.derivatives, "Derivatives");
    check_unknowns(description_.initial_unknowns, "InitialUnknowns");
  }

  void check_outputs() {
    std::set<std::size_t> listed;
    for (const Unknown& unknown : description_.outputs) {
      listed.insert(unknown.index);
      const ScalarVariable* variable = variable_at(unknown.index);
      if (variable && variable->causality != Causality::output)
        report("output-listed", fmt::format("ModelStructure/Outputs lists {}, whose causality is {}",
                                            describe(*variable), to_string(variable->causality)));
    }
    for (std::size_t index = 1; index <= description_.variables.size(); ++index) {
      const ScalarVariable& variable = description_.variables[index - 1];
      if (variable.causality == Causality::output && !listed.contains(index))
        report("output-listed", fmt::format("{} is an output missing from ModelStructure/Outputs (index {})",
                                            describe(variable), index));
    }
  }

  void check_derivatives() {
    for (const Unknown& unknown : description_.derivatives) {
      const ScalarVariable* variable = variable_at(unknown.index);
      if (variable && (variable->type != VariableType::real || !variable->derivative))
        report("derivative-index", fmt::format("ModelStructure/Derivatives lists {}, which is not a Real with a "
                                               "derivative attribute",
                                               describe(*variable)));
    }
    for (const ScalarVariable& variable : description_.variables) {
      if (!variable.derivative) continue;
      const ScalarVariable* state = variable_at(*variable.derivative);
      if (!state)
        report("derivative-index", fmt::format("{} is the derivative of index {}, which is no variable",
                                               describe(variable), *variable.derivative));
      else if (state->type != VariableType::real || state->variability != Variability::continuous)
        report("derivative-index", fmt::format("{} is the derivative of {}, which is not a continuous Real",
                                               describe(variable), describe(*state)));
    }
  }

  const ModelDescription& description_;
  std::vector<Finding> findings_;
};

}  // namespace

std::vector<Finding> check_description(const ModelDescription& description) {
  return DescriptionChecker(description).run();
}

}  // namespace acausal::fmi::check
