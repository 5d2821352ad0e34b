#include "fmi/check/model_description.hpp"

#include <fmt/format.h>

#include <expat.h>

#include <algorithm>
#include <charconv>
#include <exception>
#include <initializer_list>
#include <map>
#include <memory>
#include <stdexcept>

namespace acausal::fmi::check {

std::string_view to_string(Causality causality) {
  switch (causality) {
    case Causality::parameter: return "parameter";
    case Causality::calculated_parameter: return "calculatedParameter";
    case Causality::input: return "input";
    case Causality::output: return "output";
    case Causality::local: return "local";
    case Causality::independent: return "independent";
  }
  return "?";
}

std::string_view to_string(Variability variability) {
  switch (variability) {
    case Variability::constant: return "constant";
    case Variability::fixed: return "fixed";
    case Variability::tunable: return "tunable";
    case Variability::discrete: return "discrete";
    case Variability::continuous: return "continuous";
  }
  return "?";
}

std::string_view to_string(Initial initial) {
  switch (initial) {
    case Initial::exact: return "exact";
    case Initial::approx: return "approx";
    case Initial::calculated: return "calculated";
  }
  return "?";
}

std::string_view to_string(VariableType type) {
  switch (type) {
    case VariableType::real: return "Real";
    case VariableType::integer: return "Integer";
    case VariableType::boolean: return "Boolean";
    case VariableType::string: return "String";
    case VariableType::enumeration: return "Enumeration";
  }
  return "?";
}

namespace {

// Expat hands attributes over as a null-terminated array of name, value pairs; a map makes look-ups plain.
using Attributes = std::map<std::string, std::string, std::less<>>;

std::optional<VariableType> type_named(std::string_view element) {
  if (element == "Real") return VariableType::real;
  if (element == "Integer") return VariableType::integer;
  if (element == "Boolean") return VariableType::boolean;
  if (element == "String") return VariableType::string;
  if (element == "Enumeration") return VariableType::enumeration;
  return std::nullopt;
}

class DescriptionParser {
 public:
  explicit DescriptionParser(std::string source) : source_(std::move(source)) {}

  ModelDescription parse(std::string_view xml) {
    std::unique_ptr<XML_ParserStruct, decltype(&XML_ParserFree)> parser(XML_ParserCreate(nullptr), &XML_ParserFree);
    if (!parser) throw std::runtime_error(fmt::format("{}: cannot create an XML parser", source_));
    parser_ = parser.get();
    XML_SetUserData(parser_, this);
    XML_SetElementHandler(parser_, &DescriptionParser::on_start, &DescriptionParser::on_end);
    // XML_Parse takes an int length; feed large files in pieces.
    constexpr std::size_t piece = 1 << 20;
    bool last = false;
    while (!last) {
      std::size_t length = std::min(piece, xml.size());
      last = length == xml.size();
      XML_Status status = XML_Parse(parser_, xml.data(), static_cast<int>(length), last);
      if (failure_) std::rethrow_exception(failure_);
      if (status != XML_STATUS_OK)
        throw std::runtime_error(fmt::format("{}:{}: {}", source_, XML_GetCurrentLineNumber(parser_),
                                             XML_ErrorString(XML_GetErrorCode(parser_))));
      xml.remove_prefix(length);
    }
    if (!seen_root_) throw std::runtime_error(fmt::format("{}: no fmiModelDescription element", source_));
    return std::move(description_);
  }

 private:
  // Exceptions must not unwind through expat's C frames: keep the first one and stop the parser.
  static void on_start(void* self, const XML_Char* name, const XML_Char** attributes) {
    auto* parser = static_cast<DescriptionParser*>(self);
    try {
      Attributes map;
      for (const XML_Char** a = attributes; a[0]; a += 2) map.emplace(a[0], a[1]);
      parser->start_element(name, map);
      parser->path_.emplace_back(name);
    } catch (...) {
      parser->stop(std::current_exception());
    }
  }

  static void on_end(void* self, const XML_Char* name) {
    auto* parser = static_cast<DescriptionParser*>(self);
    // Expat may still report the end of the empty element whose start stopped it.
    if (parser->failure_) return;
    try {
      parser->end_element(name);
    } catch (...) {
      parser->stop(std::current_exception());
    }
  }

  void stop(std::exception_ptr failure) {
    if (!failure_) failure_ = std::move(failure);
    XML_StopParser(parser_, XML_FALSE);
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error(fmt::format("{}:{}: {}", source_, XML_GetCurrentLineNumber(parser_), what));
  }

  bool inside(std::initializer_list<std::string_view> suffix) const {
    if (suffix.size() > path_.size()) return false;
    auto element = path_.end() - static_cast<std::ptrdiff_t>(suffix.size());
    for (std::string_view expected : suffix)
      if (*element++ != expected) return false;
    return true;
  }

  void start_element(std::string_view name, const Attributes& attributes) {
    if (path_.empty()) {
      if (name != "fmiModelDescription") fail(fmt::format("root element is {}, not fmiModelDescription", name));
      read_root(attributes);
    } else if (path_.size() == 1 && name == "ModelExchange") {
      description_.model_exchange = read_model_exchange(attributes);
    } else if (path_.size() == 1 && name == "CoSimulation") {
      description_.co_simulation = read_co_simulation(attributes);
    } else if (path_.size() == 1 && name == "DefaultExperiment") {
      description_.default_experiment = read_default_experiment(attributes);
    } else if (inside({"fmiModelDescription", "UnitDefinitions"}) && name == "Unit") {
      description_.units.push_back({required(attributes, "name", "Unit"), {}});
    } else if (inside({"UnitDefinitions", "Unit"}) && name == "DisplayUnit") {
      description_.units.back().display_units.push_back(required(attributes, "name", "DisplayUnit"));
    } else if (inside({"fmiModelDescription", "TypeDefinitions"}) && name == "SimpleType") {
      description_.types.push_back({required(attributes, "name", "SimpleType"), VariableType::real, {}, {}});
      type_pending_ = true;
    } else if (inside({"TypeDefinitions", "SimpleType"}) && type_named(name)) {
      read_simple_type(*type_named(name), attributes);
    } else if (inside({"fmiModelDescription", "ModelVariables"}) && name == "ScalarVariable") {
      read_scalar_variable(attributes);
    } else if (inside({"ModelVariables", "ScalarVariable"}) && type_named(name)) {
      read_variable_type(*type_named(name), attributes);
    } else if (inside({"fmiModelDescription", "ModelStructure", "Outputs"}) && name == "Unknown") {
      description_.outputs.push_back(read_unknown(attributes));
    } else if (inside({"fmiModelDescription", "ModelStructure", "Derivatives"}) && name == "Unknown") {
      description_.derivatives.push_back(read_unknown(attributes));
    } else if (inside({"fmiModelDescription", "ModelStructure", "InitialUnknowns"}) && name == "Unknown") {
      description_.initial_unknowns.push_back(read_unknown(attributes));
    }
  }

  void end_element(std::string_view name) {
    path_.pop_back();
    if (name == "ScalarVariable" && variable_pending_)
      fail(fmt::format("variable '{}' has no type element", description_.variables.back().name));
    if (name == "SimpleType" && type_pending_)
      fail(fmt::format("type '{}' has no type element", description_.types.back().name));
  }

  std::string required(const Attributes& attributes, std::string_view key, std::string_view element) const {
    auto found = attributes.find(key);
    if (found == attributes.end()) fail(fmt::format("{} without the required attribute {}", element, key));
    return found->second;
  }

  static std::optional<std::string> optional(const Attributes& attributes, std::string_view key) {
    auto found = attributes.find(key);
    if (found == attributes.end()) return std::nullopt;
    return found->second;
  }

  // XML Schema numbers may carry blanks around them and a leading plus, which from_chars refuses.
  template <class Number>
  Number number(std::string_view key, std::string_view text) const {
    std::size_t first = text.find_first_not_of(" \t\r\n");
    std::size_t last = text.find_last_not_of(" \t\r\n");
    std::string_view digits = first == std::string_view::npos ? "" : text.substr(first, last - first + 1);
    if (digits.size() > 1 && digits.front() == '+') digits.remove_prefix(1);
    Number value{};
    auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (digits.empty() || error != std::errc() || end != digits.data() + digits.size())
      fail(fmt::format("attribute {}=\"{}\" is not a valid number", key, text));
    return value;
  }

  template <class Number>
  std::optional<Number> optional_number(const Attributes& attributes, std::string_view key) const {
    std::optional<std::string> text = optional(attributes, key);
    if (!text) return std::nullopt;
    return number<Number>(key, *text);
  }

  // xs:boolean admits 1 and 0 as well as the words.
  bool flag(const Attributes& attributes, std::string_view key) const {
    std::optional<std::string> text = optional(attributes, key);
    if (!text) return false;
    if (*text == "true" || *text == "1") return true;
    if (*text == "false" || *text == "0") return false;
    fail(fmt::format("attribute {}=\"{}\" is not a boolean", key, *text));
  }

  template <class Enum>
  std::optional<Enum> enumerated(const Attributes& attributes, std::string_view key,
                                 std::initializer_list<Enum> choices) const {
    std::optional<std::string> text = optional(attributes, key);
    if (!text) return std::nullopt;
    for (Enum choice : choices)
      if (to_string(choice) == *text) return choice;
    fail(fmt::format("attribute {}=\"{}\" is not one the standard defines", key, *text));
  }

  void read_root(const Attributes& attributes) {
    seen_root_ = true;
    description_.fmi_version = optional(attributes, "fmiVersion").value_or("");
    description_.model_name = optional(attributes, "modelName").value_or("");
    description_.guid = optional(attributes, "guid").value_or("");
    description_.generation_tool = optional(attributes, "generationTool").value_or("");
    description_.number_of_event_indicators =
        optional_number<std::size_t>(attributes, "numberOfEventIndicators").value_or(0);
  }

  void read_capabilities(const Attributes& attributes, InterfaceCapabilities& capabilities) const {
    capabilities.model_identifier = optional(attributes, "modelIdentifier").value_or("");
    capabilities.needs_execution_tool = flag(attributes, "needsExecutionTool");
    capabilities.can_be_instantiated_only_once_per_process = flag(attributes, "canBeInstantiatedOnlyOncePerProcess");
    capabilities.can_not_use_memory_management_functions = flag(attributes, "canNotUseMemoryManagementFunctions");
    capabilities.can_get_and_set_fmu_state = flag(attributes, "canGetAndSetFMUstate");
    capabilities.can_serialize_fmu_state = flag(attributes, "canSerializeFMUstate");
    capabilities.provides_directional_derivative = flag(attributes, "providesDirectionalDerivative");
  }

  ModelExchangeInterface read_model_exchange(const Attributes& attributes) const {
    ModelExchangeInterface model_exchange;
    read_capabilities(attributes, model_exchange);
    model_exchange.completed_integrator_step_not_needed = flag(attributes, "completedIntegratorStepNotNeeded");
    return model_exchange;
  }

  CoSimulationInterface read_co_simulation(const Attributes& attributes) const {
    CoSimulationInterface co_simulation;
    read_capabilities(attributes, co_simulation);
    co_simulation.can_handle_variable_communication_step_size =
        flag(attributes, "canHandleVariableCommunicationStepSize");
    co_simulation.can_interpolate_inputs = flag(attributes, "canInterpolateInputs");
    co_simulation.max_output_derivative_order =
        optional_number<unsigned>(attributes, "maxOutputDerivativeOrder").value_or(0);
    co_simulation.can_run_asynchronuously = flag(attributes, "canRunAsynchronuously");
    return co_simulation;
  }

  DefaultExperiment read_default_experiment(const Attributes& attributes) const {
    return {optional_number<double>(attributes, "startTime"), optional_number<double>(attributes, "stopTime"),
            optional_number<double>(attributes, "tolerance"), optional_number<double>(attributes, "stepSize")};
  }

  void read_simple_type(VariableType type, const Attributes& attributes) {
    if (!type_pending_) fail("SimpleType with more than one type element");
    type_pending_ = false;
    TypeDefinition& definition = description_.types.back();
    definition.type = type;
    definition.unit = optional(attributes, "unit");
    definition.display_unit = optional(attributes, "displayUnit");
  }

  void read_scalar_variable(const Attributes& attributes) {
    ScalarVariable variable;
    variable.name = required(attributes, "name", "ScalarVariable");
    variable.value_reference =
        number<std::uint32_t>("valueReference", required(attributes, "valueReference", "ScalarVariable"));
    variable.line = XML_GetCurrentLineNumber(parser_);
    variable.causality = enumerated(attributes, "causality",
                                    {Causality::parameter, Causality::calculated_parameter, Causality::input,
                                     Causality::output, Causality::local, Causality::independent})
                             .value_or(Causality::local);
    explicit_variability_ = enumerated(attributes, "variability",
                                       {Variability::constant, Variability::fixed, Variability::tunable,
                                        Variability::discrete, Variability::continuous});
    variable.initial = enumerated(attributes, "initial", {Initial::exact, Initial::approx, Initial::calculated});
    description_.variables.push_back(std::move(variable));
    variable_pending_ = true;
  }

  void read_variable_type(VariableType type, const Attributes& attributes) {
    if (!variable_pending_)
      fail(fmt::format("variable '{}' has two type elements", description_.variables.back().name));
    variable_pending_ = false;
    ScalarVariable& variable = description_.variables.back();
    variable.type = type;
    // The standard's default is continuous, which only a Real may be; tools leave the attribute out of
    // Integer and Boolean variables meaning discrete (FMI 3.0 made that the rule), so read it that way.
    variable.variability =
        explicit_variability_.value_or(type == VariableType::real ? Variability::continuous : Variability::discrete);
    variable.start = optional(attributes, "start");
    variable.declared_type = optional(attributes, "declaredType");
    if (type != VariableType::real) return;
    variable.unit = optional(attributes, "unit");
    variable.display_unit = optional(attributes, "displayUnit");
    variable.derivative = optional_number<std::size_t>(attributes, "derivative");
    variable.nominal = optional_number<double>(attributes, "nominal");
  }

  Unknown read_unknown(const Attributes& attributes) const {
    Unknown unknown;
    unknown.index = number<std::size_t>("index", required(attributes, "index", "Unknown"));
    if (std::optional<std::string> text = optional(attributes, "dependencies")) {
      unknown.dependencies.emplace();
      for (const std::string& word : words(*text))
        unknown.dependencies->push_back(number<std::size_t>("dependencies", word));
    }
    if (std::optional<std::string> text = optional(attributes, "dependenciesKind"))
      unknown.dependencies_kind = words(*text);
    return unknown;
  }

  static std::vector<std::string> words(std::string_view text) {
    std::vector<std::string> result;
    constexpr std::string_view blanks = " \t\r\n";
    for (std::size_t begin = text.find_first_not_of(blanks); begin != std::string_view::npos;) {
      std::size_t end = text.find_first_of(blanks, begin);
      result.emplace_back(text.substr(begin, end - begin));
      begin = end == std::string_view::npos ? end : text.find_first_not_of(blanks, end);
    }
    return result;
  }

  std::string source_;
  XML_Parser parser_ = nullptr;
  std::exception_ptr failure_;
  std::vector<std::string> path_;
  ModelDescription description_;
  bool seen_root_ = false;
  bool type_pending_ = false;      // the last SimpleType still awaits its type element
  bool variable_pending_ = false;  // the last ScalarVariable still awaits its type element
  std::optional<Variability> explicit_variability_;
};

}  // namespace

ModelDescription parse_model_description(std::string_view xml, const std::string& source) {
  return DescriptionParser(source).parse(xml);
}

}  // namespace acausal::fmi::check
