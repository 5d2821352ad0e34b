#include "fmi/export/model_description.hpp"

#include <array>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "fmi/export/variable_table.hpp"
#include "solver/lower/evaluation.hpp"
#include "solver/symbolic/errors.hpp"

namespace acausal::fmi {

namespace {

// Exponents of FMI's base units, in the order of BaseUnit's attributes.
constexpr std::array<const char*, 8> kBaseUnitNames{"kg", "m", "s", "A", "K", "mol", "cd", "rad"};
using BaseUnitExponents = std::array<int, 8>;

// Only coherent SI symbols: each is exactly a product of base units, so the
// BaseUnit element needs no factor or offset. A prefixed or scaled symbol
// (km, rpm, degC, bar, min) is declared by name alone rather than risk a wrong factor.
const std::map<std::string, BaseUnitExponents, std::less<>>& coherent_symbols() {
  static const std::map<std::string, BaseUnitExponents, std::less<>> table{
      {"kg", {1, 0, 0, 0, 0, 0, 0, 0}},   {"m", {0, 1, 0, 0, 0, 0, 0, 0}},     {"s", {0, 0, 1, 0, 0, 0, 0, 0}},
      {"A", {0, 0, 0, 1, 0, 0, 0, 0}},    {"K", {0, 0, 0, 0, 1, 0, 0, 0}},     {"mol", {0, 0, 0, 0, 0, 1, 0, 0}},
      {"cd", {0, 0, 0, 0, 0, 0, 1, 0}},   {"rad", {0, 0, 0, 0, 0, 0, 0, 1}},   {"N", {1, 1, -2, 0, 0, 0, 0, 0}},
      {"J", {1, 2, -2, 0, 0, 0, 0, 0}},   {"W", {1, 2, -3, 0, 0, 0, 0, 0}},    {"Pa", {1, -1, -2, 0, 0, 0, 0, 0}},
      {"Hz", {0, 0, -1, 0, 0, 0, 0, 0}},  {"V", {1, 2, -3, -1, 0, 0, 0, 0}},   {"Ohm", {1, 2, -3, -2, 0, 0, 0, 0}},
      {"C", {0, 0, 1, 1, 0, 0, 0, 0}},    {"F", {-1, -2, 4, 2, 0, 0, 0, 0}},
  };
  return table;
}

// "kg.m2", "N.m", "s-1": factors joined by '.', each a symbol with an optional
// signed integer power (the grammar the unit check reads, solver/passes/units.hpp).
std::optional<BaseUnitExponents> product_exponents(std::string_view text) {
  BaseUnitExponents total{};
  if (text == "1") return total;
  if (text.empty()) return std::nullopt;
  while (true) {
    const std::size_t dot = text.find('.');
    const std::string_view factor = text.substr(0, dot);
    const std::size_t digits = factor.find_first_of("+-0123456789");
    auto symbol = coherent_symbols().find(factor.substr(0, digits));
    if (symbol == coherent_symbols().end()) return std::nullopt;
    int power = 1;
    if (digits != std::string_view::npos) {
      std::string_view power_text = factor.substr(digits);
      const bool negative = power_text.front() == '-';
      if (power_text.front() == '-' || power_text.front() == '+') power_text.remove_prefix(1);
      if (power_text.empty() || power_text.size() > 3 ||
          power_text.find_first_not_of("0123456789") != std::string_view::npos)
        return std::nullopt;
      power = std::stoi(std::string(power_text)) * (negative ? -1 : 1);
    }
    for (std::size_t k = 0; k < total.size(); ++k) total[k] += power * symbol->second[k];
    if (dot == std::string_view::npos) return total;
    text.remove_prefix(dot + 1);
  }
}

// "N.m/s", "m/s/s", "W/(m2.K)": a product divided by further products.
std::optional<BaseUnitExponents> unit_exponents(std::string_view unit) {
  const std::size_t slash = unit.find('/');
  auto total = product_exponents(unit.substr(0, slash));
  if (!total || slash == std::string_view::npos) return total;
  std::string_view rest = unit.substr(slash + 1);
  if (rest.size() > 2 && rest.front() == '(' && rest.back() == ')') rest = rest.substr(1, rest.size() - 2);
  while (true) {
    const std::size_t next = rest.find('/');
    auto divisor = product_exponents(rest.substr(0, next));
    if (!divisor) return std::nullopt;
    for (std::size_t k = 0; k < total->size(); ++k) (*total)[k] -= (*divisor)[k];
    if (next == std::string_view::npos) return total;
    rest.remove_prefix(next + 1);
  }
}

// xs:double's lexical forms: the shortest text that reads back to the same double.
std::string xml_double(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "INF" : "-INF";
  return fmt::format("{}", value);
}

std::uint64_t fnv1a(std::string_view text, std::uint64_t hash) {
  for (unsigned char byte : text) {
    hash ^= byte;
    hash *= 1099511628211ull;
  }
  return hash;
}

class DescriptionWriter {
 public:
  DescriptionWriter(const Simulator& sim, const FmuDescriptionOptions& options)
      : sim_(sim), options_(options), table_(variable_table(sim)) {}

  std::string write() {
    line("<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
    line(fmt::format("<fmiModelDescription fmiVersion=\"2.0\" modelName=\"{}\" guid=\"{}\" generationTool=\"acausal\" "
                     "numberOfEventIndicators=\"{}\" variableNamingConvention=\"structured\">",
                     xml_escaped(sim_.compiled().dae.model_name), xml_escaped(options_.guid),
                     sim_.compiled().state_event_modes.size()));
    model_exchange();
    co_simulation();
    unit_definitions();
    log_categories();
    line(fmt::format("  <DefaultExperiment startTime=\"{}\" stopTime=\"{}\" tolerance=\"{}\" stepSize=\"{}\"/>",
                     xml_double(options_.start_time), xml_double(options_.stop_time),
                     xml_double(options_.tolerance), xml_double(options_.step_size)));
    model_variables();
    model_structure();
    line("</fmiModelDescription>");
    return std::move(out_);
  }

 private:
  void line(std::string_view text) {
    out_ += text;
    out_ += '\n';
  }

  // The host integrates; derivatives and indicators come from the compiled model.
  void model_exchange() {
    line(fmt::format("  <ModelExchange modelIdentifier=\"{}\" needsExecutionTool=\"false\" "
                     "completedIntegratorStepNotNeeded=\"{}\" canBeInstantiatedOnlyOncePerProcess=\"false\" "
                     "canNotUseMemoryManagementFunctions=\"true\" canGetAndSetFMUstate=\"true\" "
                     "canSerializeFMUstate=\"false\"/>",
                     xml_escaped(options_.model_identifier),
                     // Only the delays' recorded past needs the host's accepted steps.
                     sim_.compiled().delays.empty() ? "true" : "false"));
  }

  void co_simulation() {
    // The runtime keeps its values with new/delete, steps synchronously and
    // saves states in memory only: the capabilities say so.
    line(fmt::format("  <CoSimulation modelIdentifier=\"{}\" needsExecutionTool=\"false\" "
                     "canHandleVariableCommunicationStepSize=\"true\" canInterpolateInputs=\"false\" "
                     "maxOutputDerivativeOrder=\"0\" canBeInstantiatedOnlyOncePerProcess=\"false\" "
                     "canNotUseMemoryManagementFunctions=\"true\" canGetAndSetFMUstate=\"true\" "
                     "canSerializeFMUstate=\"false\"/>",
                     xml_escaped(options_.model_identifier)));
  }

  void unit_definitions() {
    if (table_.units.empty()) return;
    line("  <UnitDefinitions>");
    for (const std::string& unit : table_.units) {
      const auto exponents = unit_exponents(unit);
      if (!exponents) {
        line(fmt::format("    <Unit name=\"{}\"/>", xml_escaped(unit)));
        continue;
      }
      std::string base_unit = "<BaseUnit";
      for (std::size_t k = 0; k < exponents->size(); ++k)
        if ((*exponents)[k] != 0)
          fmt::format_to(std::back_inserter(base_unit), " {}=\"{}\"", kBaseUnitNames[k], (*exponents)[k]);
      base_unit += "/>";
      line(fmt::format("    <Unit name=\"{}\">{}</Unit>", xml_escaped(unit), base_unit));
    }
    line("  </UnitDefinitions>");
  }

  void log_categories() {
    line("  <LogCategories>");
    line("    <Category name=\"logAll\" description=\"Every message\"/>");
    line("    <Category name=\"logError\" description=\"Errors (always logged)\"/>");
    line("    <Category name=\"logWarning\" description=\"Warnings\"/>");
    line("    <Category name=\"logInfo\" description=\"Progress: instantiation, initialization, termination\"/>");
    line("  </LogCategories>");
  }

  void model_variables() {
    line("  <ModelVariables>");
    for (const FmuVariable& variable : table_.variables) {
      std::string attributes = fmt::format("name=\"{}\" valueReference=\"{}\"", xml_escaped(variable.name),
                                           variable.value_reference);
      if (!variable.description.empty())
        fmt::format_to(std::back_inserter(attributes), " description=\"{}\"", xml_escaped(variable.description));
      fmt::format_to(std::back_inserter(attributes), " causality=\"{}\" variability=\"{}\"",
                     causality_name(variable.causality), variability_name(variable.variability));
      if (variable.initial != FmuVariable::Initial::none)
        fmt::format_to(std::back_inserter(attributes), " initial=\"{}\"", initial_name(variable.initial));

      if (variable.type != FmuVariable::Type::real) {
        line(fmt::format("    <!-- index {} -->", variable.value_reference + 1));
        line(fmt::format("    <ScalarVariable {}>", attributes));
        line(fmt::format("      <{}/>", variable.type == FmuVariable::Type::boolean ? "Boolean" : "Integer"));
        line("    </ScalarVariable>");
        continue;
      }
      std::string real = "<Real";
      if (!variable.unit.empty()) fmt::format_to(std::back_inserter(real), " unit=\"{}\"", xml_escaped(variable.unit));
      if (variable.source == FmuVariable::Source::parameter) bounds(variable.parameter_index, real);
      if (variable.nominal != 1.0)
        fmt::format_to(std::back_inserter(real), " nominal=\"{}\"", xml_double(variable.nominal));
      if (variable.has_start) fmt::format_to(std::back_inserter(real), " start=\"{}\"", xml_double(variable.start));
      if (variable.derivative_of >= 0)
        fmt::format_to(std::back_inserter(real), " derivative=\"{}\"", variable.derivative_of + 1);
      real += "/>";

      line(fmt::format("    <!-- index {} -->", variable.value_reference + 1));
      line(fmt::format("    <ScalarVariable {}>", attributes));
      line(fmt::format("      {}", real));
      line("    </ScalarVariable>");
    }
    line("  </ModelVariables>");
  }

  // A parameter's declared range, so a master can refuse a value before setting it.
  void bounds(int parameter_index, std::string& real) {
    const auto& attributes = sim_.compiled().dae.parameters[parameter_index].attributes;
    if (std::isfinite(attributes.min))
      fmt::format_to(std::back_inserter(real), " min=\"{}\"", xml_double(attributes.min));
    if (std::isfinite(attributes.max))
      fmt::format_to(std::back_inserter(real), " max=\"{}\"", xml_double(attributes.max));
  }

  // Indices are 1-based positions in ModelVariables; leaving `dependencies`
  // out tells the master that each unknown depends on every known.
  void model_structure() {
    std::vector<unsigned> outputs;
    for (const FmuVariable& variable : table_.variables)
      if (variable.causality == FmuVariable::Causality::output) outputs.push_back(variable.value_reference + 1);
    std::vector<unsigned> derivatives;
    for (unsigned reference : table_.derivatives) derivatives.push_back(reference + 1);
    // Calculated at initialization, in index order: the outputs, the states and their derivatives.
    std::set<unsigned> initial(outputs.begin(), outputs.end());
    initial.insert(derivatives.begin(), derivatives.end());
    for (unsigned reference : table_.states) initial.insert(reference + 1);
    if (initial.empty()) {
      line("  <ModelStructure/>");
      return;
    }
    line("  <ModelStructure>");
    unknowns("Outputs", outputs);
    unknowns("Derivatives", derivatives);
    unknowns("InitialUnknowns", {initial.begin(), initial.end()});
    line("  </ModelStructure>");
  }

  void unknowns(std::string_view element, const std::vector<unsigned>& indices) {
    if (indices.empty()) return;
    line(fmt::format("    <{}>", element));
    for (unsigned index : indices) line(fmt::format("      <Unknown index=\"{}\"/>", index));
    line(fmt::format("    </{}>", element));
  }

  const Simulator& sim_;
  const FmuDescriptionOptions& options_;
  VariableTable table_;
  std::string out_;
};

}  // namespace

std::string model_description_xml(const Simulator& sim, const FmuDescriptionOptions& options) {
  return DescriptionWriter(sim, options).write();
}

std::string model_file_guid(std::string_view model_text) {
  const std::uint64_t first = fnv1a(model_text, 14695981039346656037ull);
  const std::uint64_t second = fnv1a(model_text, first);
  const std::string hex = fmt::format("{:016x}{:016x}", first, second);
  return fmt::format("{{{}-{}-{}-{}-{}}}", hex.substr(0, 8), hex.substr(8, 4), hex.substr(12, 4), hex.substr(16, 4),
                     hex.substr(20, 12));
}

std::string xml_escaped(std::string_view text) {
  const std::string printable = printable_utf8(std::string(text));
  std::string out;
  out.reserve(printable.size());
  for (const char c : printable) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      // An attribute value's newlines and tabs would be normalized to spaces unless written as references.
      case '\n': out += "&#10;"; break;
      case '\r': out += "&#13;"; break;
      case '\t': out += "&#9;"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20)
          fmt::format_to(std::back_inserter(out), "\\x{:02x}", static_cast<unsigned char>(c));
        else
          out += c;
    }
  }
  return out;
}

}  // namespace acausal::fmi
