// The FMI 2.0 model-description checker, rule by rule: one valid modelDescription.xml, and for every rule of
// fmi/check/rules.hpp a small textual mutation that breaks exactly that rule. Also the parser's refusal of
// malformed XML and the ZIP archive reader/writer the checker's FMUs come in.
#include <catch2/catch.hpp>

#include <acausal/fmi/archive.hpp>
#include <acausal/fmi/check/model_description.hpp>
#include <acausal/fmi/check/rules.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <regex>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace test_fmi_rules {

namespace {

using acausal::fmi::ArchiveEntry;
using acausal::fmi::read_zip;
using acausal::fmi::write_zip;
using acausal::fmi::check::check_description;
using acausal::fmi::check::Finding;
using acausal::fmi::check::parse_model_description;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

// Variables, 1-based as ModelStructure counts them:
//   1 time       independent, continuous
//   2 gain       parameter, tunable, initial exact, start
//   3 force      input, continuous, start
//   4 speed_out  output, continuous (initial calculated by default)
//   5 energy     local, continuous (initial calculated by default)
//   6 position   local state, initial exact, start, declared type Position (unit m, display unit mm)
//   7 velocity   derivative of 6
// Every ScalarVariable sits on one line, so a mutation keeps the line numbers and a variable's line is the line
// of its name.
const std::string kValidXml = R"xml(<?xml version="1.0" encoding="UTF-8"?>
<fmiModelDescription fmiVersion="2.0" modelName="Valid" guid="{5d1d7e0c-0f3e-4b8e-9a51-2c2f6f1f0a01}" generationTool="acausal tests" numberOfEventIndicators="0">
  <CoSimulation modelIdentifier="Valid" canHandleVariableCommunicationStepSize="true"/>
  <UnitDefinitions>
    <Unit name="m"><DisplayUnit name="mm"/></Unit>
    <Unit name="s"/>
    <Unit name="m/s"/>
  </UnitDefinitions>
  <TypeDefinitions>
    <SimpleType name="Position"><Real unit="m" displayUnit="mm"/></SimpleType>
  </TypeDefinitions>
  <DefaultExperiment startTime="0" stopTime="10" tolerance="1e-6" stepSize="0.01"/>
  <ModelVariables>
    <ScalarVariable name="time" valueReference="0" causality="independent" variability="continuous"><Real unit="s"/></ScalarVariable>
    <ScalarVariable name="gain" valueReference="1" causality="parameter" variability="tunable" initial="exact"><Real start="2"/></ScalarVariable>
    <ScalarVariable name="force" valueReference="2" causality="input"><Real start="0"/></ScalarVariable>
    <ScalarVariable name="speed_out" valueReference="3" causality="output"><Real unit="m/s"/></ScalarVariable>
    <ScalarVariable name="energy" valueReference="4" causality="local"><Real/></ScalarVariable>
    <ScalarVariable name="position" valueReference="5" causality="local" initial="exact"><Real declaredType="Position" start="0"/></ScalarVariable>
    <ScalarVariable name="velocity" valueReference="6" causality="local" initial="calculated"><Real unit="m/s" derivative="6"/></ScalarVariable>
  </ModelVariables>
  <ModelStructure>
    <Outputs>
      <Unknown index="4" dependencies="6" dependenciesKind="dependent"/>
    </Outputs>
    <Derivatives>
      <Unknown index="7" dependencies="3 6" dependenciesKind="dependent dependent"/>
    </Derivatives>
    <InitialUnknowns>
      <Unknown index="4" dependencies="6"/>
      <Unknown index="7" dependencies="2 3 6"/>
    </InitialUnknowns>
  </ModelStructure>
</fmiModelDescription>
)xml";

std::size_t occurrences(const std::string& text, const std::string& part) {
  std::size_t count = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++count;
  return count;
}

// The valid XML with `from` (which must occur exactly once) replaced by `to`.
std::string mutated(const std::string& from, const std::string& to) {
  INFO("mutation of: " << from);
  REQUIRE(occurrences(kValidXml, from) == 1);
  std::string xml = kValidXml;
  xml.replace(xml.find(from), from.size(), to);
  return xml;
}

// 1-based line of the last occurrence of `part`.
std::size_t line_of_last(const std::string& text, const std::string& part) {
  std::size_t at = text.rfind(part);
  REQUIRE(at != std::string::npos);
  return 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

std::size_t line_of(const std::string& text, const std::string& part) {
  REQUIRE(occurrences(text, part) == 1);
  return line_of_last(text, part);
}

std::vector<Finding> findings_of(const std::string& xml) {
  return check_description(parse_model_description(xml, "valid.xml"));
}

std::string listed(const std::vector<Finding>& findings) {
  std::string text;
  for (const Finding& finding : findings) text += "  [" + finding.rule + "] " + finding.message + "\n";
  return text.empty() ? "  (none)\n" : text;
}

// The message of the std::runtime_error `action` throws; fails the test if it throws none.
std::string failure_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const std::runtime_error& error) {
    return error.what();
  }
  FAIL("no std::runtime_error thrown");
  return {};
}

struct Breakage {
  std::string rule;
  std::string from;     // in the valid XML, exactly once
  std::string to;       // its replacement
  std::string culprit;  // a finding of `rule` must contain this; "variable 'x'" also gets x's line appended
};

// One row or more per rule; each breaks that rule and no other.
const std::vector<Breakage> kBreakages = {
    {"fmi-version", R"(fmiVersion="2.0")", R"(fmiVersion="3.0")", R"(fmiVersion is "3.0", not "2.0")"},
    {"guid-present", R"( guid="{5d1d7e0c-0f3e-4b8e-9a51-2c2f6f1f0a01}")", "", "fmiModelDescription has no guid"},
    {"guid-present", R"(guid="{5d1d7e0c-0f3e-4b8e-9a51-2c2f6f1f0a01}")", R"(guid="")",
     "fmiModelDescription has no guid"},
    {"interface-present",
     R"(<CoSimulation modelIdentifier="Valid" canHandleVariableCommunicationStepSize="true"/>)",
     "<!-- no interface -->", "neither a ModelExchange nor a CoSimulation element"},
    {"model-identifier", R"(modelIdentifier="Valid")", R"(modelIdentifier="my-model")",
     R"(CoSimulation modelIdentifier "my-model" is not a C identifier)"},
    {"model-identifier",
     R"(<CoSimulation modelIdentifier="Valid" canHandleVariableCommunicationStepSize="true"/>)",
     R"(<ModelExchange modelIdentifier="1st"/>)", R"(ModelExchange modelIdentifier "1st" is not a C identifier)"},
    {"default-experiment", R"(stopTime="10")", R"(stopTime="0")", "DefaultExperiment startTime 0 is not before stopTime 0"},
    {"default-experiment", R"(tolerance="1e-6")", R"(tolerance="0")", "DefaultExperiment tolerance 0 is not positive"},
    {"default-experiment", R"(stepSize="0.01")", R"(stepSize="-0.01")", "DefaultExperiment stepSize"},
    {"unique-name", R"(name="energy")", R"(name="gain")", "variable 'gain'"},
    {"unique-value-reference", R"(name="force" valueReference="2")", R"(name="force" valueReference="1")",
     "variable 'force'"},
    {"causality-variability", R"(causality="parameter" variability="tunable")",
     R"(causality="parameter" variability="continuous")", "variable 'gain'"},
    {"causality-variability", R"(name="force" valueReference="2" causality="input")",
     R"(name="force" valueReference="2" causality="input" variability="tunable")", "variable 'force'"},
    {"causality-variability", R"(causality="independent" variability="continuous")",
     R"(causality="independent" variability="discrete")", "variable 'time'"},
    {"continuous-real", R"(name="energy" valueReference="4" causality="local"><Real/>)",
     R"(name="energy" valueReference="4" causality="local" variability="continuous"><Integer/>)", "variable 'energy'"},
    {"independent-variable", R"(name="energy" valueReference="4" causality="local")",
     R"(name="energy" valueReference="4" causality="independent")", "variable 'energy'"},
    {"variability-initial", R"(name="force" valueReference="2" causality="input")",
     R"(name="force" valueReference="2" causality="input" initial="exact")", "variable 'force'"},
    {"variability-initial", R"(variability="tunable" initial="exact")", R"(variability="tunable" initial="approx")",
     "variable 'gain'"},
    {"start-required", R"(<Real start="2"/>)", "<Real/>", "variable 'gain'"},
    {"start-required", R"(name="force" valueReference="2" causality="input"><Real start="0"/>)",
     R"(name="force" valueReference="2" causality="input"><Real/>)", "variable 'force'"},
    {"start-forbidden", R"(name="speed_out" valueReference="3" causality="output"><Real unit="m/s"/>)",
     R"(name="speed_out" valueReference="3" causality="output"><Real unit="m/s" start="1"/>)", "variable 'speed_out'"},
    {"start-forbidden", R"(<Real unit="s"/>)", R"(<Real unit="s" start="0"/>)", "variable 'time'"},
    {"declared-type", R"(declaredType="Position")", R"(declaredType="Length")", "variable 'position'"},
    {"declared-type", R"(name="energy" valueReference="4" causality="local"><Real/>)",
     R"(name="energy" valueReference="4" causality="local"><Integer declaredType="Position"/>)", "variable 'energy'"},
    {"declared-type", R"(name="energy" valueReference="4" causality="local"><Real/>)",
     R"(name="energy" valueReference="4" causality="local"><Enumeration/>)", "variable 'energy'"},
    {"unit-defined", R"(name="speed_out" valueReference="3" causality="output"><Real unit="m/s"/>)",
     R"(name="speed_out" valueReference="3" causality="output"><Real unit="km/h"/>)", "variable 'speed_out'"},
    {"display-unit-defined", R"(<Real declaredType="Position" start="0"/>)",
     R"(<Real declaredType="Position" displayUnit="cm" start="0"/>)", "variable 'position'"},
    {"display-unit-defined", R"(name="energy" valueReference="4" causality="local"><Real/>)",
     R"(name="energy" valueReference="4" causality="local"><Real displayUnit="mm"/>)", "variable 'energy'"},
    {"display-unit-defined", R"(<Real unit="m" displayUnit="mm"/>)", R"(<Real unit="m" displayUnit="km"/>)",
     R"(type 'Position' has displayUnit "km")"},
    {"nominal", R"(name="energy" valueReference="4" causality="local"><Real/>)",
     R"(name="energy" valueReference="4" causality="local"><Real nominal="-2"/>)", "variable 'energy'"},
    {"structure-index", R"(<Unknown index="7" dependencies="2 3 6"/>)", R"(<Unknown index="8" dependencies="2 3 6"/>)",
     "ModelStructure/InitialUnknowns lists index 8, but there are 7 variables"},
    {"structure-index", R"(<Unknown index="7" dependencies="3 6" )", R"(<Unknown index="7" dependencies="3 9" )",
     "ModelStructure/Derivatives index 7 depends on index 9"},
    {"structure-index", R"(dependenciesKind="dependent"/>)", R"(dependenciesKind="dependent dependent"/>)",
     "ModelStructure/Outputs index 4 has 2 dependenciesKind for 1 dependencies"},
    {"output-listed", R"(name="energy" valueReference="4" causality="local")",
     R"(name="energy" valueReference="4" causality="output")", "variable 'energy'"},
    {"output-listed", R"(<Unknown index="4" dependencies="6" dependenciesKind="dependent"/>)",
     R"(<Unknown index="4" dependencies="6" dependenciesKind="dependent"/><Unknown index="5"/>)", "variable 'energy'"},
    {"derivative-index", R"(derivative="6")", R"(derivative="9")", "variable 'velocity'"},
    {"derivative-index", R"(derivative="6")", R"(derivative="2")", "variable 'velocity'"},
    {"derivative-index", R"(<Unknown index="7" dependencies="3 6" )", R"(<Unknown index="5" dependencies="3 6" )",
     "variable 'energy'"},
};

// The rule names rules.hpp lists.
const std::set<std::string> kAllRules = {
    "fmi-version",        "guid-present",         "interface-present", "model-identifier", "default-experiment",
    "unique-name",        "unique-value-reference", "causality-variability", "continuous-real", "independent-variable",
    "variability-initial", "start-required",      "start-forbidden",   "declared-type",    "unit-defined",
    "display-unit-defined", "nominal",            "structure-index",    "output-listed",     "derivative-index",
};

// A temporary directory of this test process, removed afterwards.
class ScratchDirectory {
 public:
  explicit ScratchDirectory(const std::string& name)
      : path_(std::filesystem::temp_directory_path() /
              ("acausal-test-fmi-rules-" + name + "-" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~ScratchDirectory() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  ScratchDirectory(const ScratchDirectory&) = delete;
  ScratchDirectory& operator=(const ScratchDirectory&) = delete;

  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void put_file_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  REQUIRE(out.good());
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  REQUIRE(out.good());
}

// Every byte value, a NUL-laden run and a marker to find the data by in the archive.
std::string binary_payload() {
  std::string data;
  for (int round = 0; round < 3; ++round)
    for (int byte = 0; byte < 256; ++byte) data.push_back(static_cast<char>(byte));
  data += std::string(17, '\0');
  data += "PAYLOAD\r\n\x1a\xff\xfe";
  data.push_back('\0');
  return data;
}

std::vector<ArchiveEntry> sample_entries() {
  return {
      {"modelDescription.xml", kValidXml},
      {"resources/empty.dat", ""},
      {"binaries/linux64/blob.bin", binary_payload()},
      {"documentation/r\xC3\xA9sum\xC3\xA9.txt", "text\n"},
  };
}

}  // namespace

TEST_CASE("FMI rules: the valid description parses as written and has no findings", "[fmi][rules]") {
  auto description = parse_model_description(kValidXml, "valid.xml");
  CHECK(description.fmi_version == "2.0");
  REQUIRE(description.co_simulation);
  CHECK(description.co_simulation->model_identifier == "Valid");
  CHECK_FALSE(description.model_exchange);
  CHECK(description.units.size() == 3);
  REQUIRE(description.default_experiment);
  CHECK(description.default_experiment->stop_time == 10.0);
  REQUIRE(description.variables.size() == 7);
  const std::vector<std::string> names = {"time", "gain", "force", "speed_out", "energy", "position", "velocity"};
  for (std::size_t k = 0; k < names.size(); ++k) {
    INFO("variable " << k + 1);
    CHECK(description.variables[k].name == names[k]);
    CHECK(description.variables[k].line == line_of(kValidXml, "name=\"" + names[k] + "\""));
  }
  CHECK(description.variables[6].derivative == std::size_t{6});
  CHECK(description.outputs.size() == 1);
  CHECK(description.derivatives.size() == 1);
  CHECK(description.initial_unknowns.size() == 2);

  auto findings = check_description(description);
  INFO("findings:\n" << listed(findings));
  CHECK(findings.empty());
}

TEST_CASE("FMI rules: each rule fires on a description that breaks it and names the culprit", "[fmi][rules]") {
  std::set<std::string> exercised;
  for (const Breakage& breakage : kBreakages) {
    INFO("rule " << breakage.rule << ": " << breakage.from << " -> " << breakage.to);
    REQUIRE(kAllRules.count(breakage.rule) == 1);
    exercised.insert(breakage.rule);

    std::string xml = mutated(breakage.from, breakage.to);
    std::vector<Finding> findings = findings_of(xml);
    INFO("findings:\n" << listed(findings));
    REQUIRE_FALSE(findings.empty());
    // Exactly that rule breaks: no other rule reports.
    CHECK(std::all_of(findings.begin(), findings.end(),
                      [&](const Finding& finding) { return finding.rule == breakage.rule; }));

    std::string culprit = breakage.culprit;
    const std::string variable_prefix = "variable '";
    if (culprit.rfind(variable_prefix, 0) == 0) {
      std::string name = culprit.substr(variable_prefix.size(), culprit.size() - variable_prefix.size() - 1);
      culprit += " (line " + std::to_string(line_of_last(xml, "name=\"" + name + "\"")) + ")";
    }
    INFO("culprit: " << culprit);
    CHECK(std::any_of(findings.begin(), findings.end(), [&](const Finding& finding) {
      return finding.rule == breakage.rule && finding.message.find(culprit) != std::string::npos;
    }));
  }
  // Every rule rules.hpp names has a breaking mutation above.
  CHECK(exercised == kAllRules);
}

TEST_CASE("FMI rules: aliases that agree and Integers without variability are no findings", "[fmi][rules]") {
  SECTION("an alias without a start value of its own") {
    std::string xml = mutated(R"(name="energy" valueReference="4")", R"(name="energy" valueReference="3")");
    auto findings = findings_of(xml);
    INFO("findings:\n" << listed(findings));
    CHECK(findings.empty());
  }
  SECTION("an Integer that leaves variability out is read as discrete") {
    std::string xml = mutated(R"(name="energy" valueReference="4" causality="local"><Real/>)",
                              R"(name="energy" valueReference="4" causality="local"><Integer/>)");
    auto description = parse_model_description(xml, "valid.xml");
    CHECK(description.variables[4].variability == acausal::fmi::check::Variability::discrete);
    auto findings = check_description(description);
    INFO("findings:\n" << listed(findings));
    CHECK(findings.empty());
  }
}

TEST_CASE("FMI rules: malformed XML throws std::runtime_error naming the source and line", "[fmi][rules]") {
  SECTION("a mismatched end tag") {
    std::string xml = mutated("</ModelVariables>", "</ModelVariabels>");
    std::string message = failure_of([&] { parse_model_description(xml, "valid.xml"); });
    CHECK_THAT(message, StartsWith("valid.xml:" + std::to_string(line_of(xml, "</ModelVariabels>")) + ":"));
  }
  SECTION("a document cut short") {
    std::string xml = kValidXml.substr(0, kValidXml.find("  <ModelStructure>"));
    std::string message = failure_of([&] { parse_model_description(xml, "cut.xml"); });
    CHECK(std::regex_search(message, std::regex(R"(^cut\.xml:\d+: )")));
  }
  SECTION("a valueReference that is no number") {
    std::string xml = mutated(R"(name="force" valueReference="2")", R"(name="force" valueReference="two")");
    std::string message = failure_of([&] { parse_model_description(xml, "valid.xml"); });
    CHECK_THAT(message, StartsWith("valid.xml:" + std::to_string(line_of(xml, "name=\"force\"")) + ":"));
    CHECK_THAT(message, Contains("valueReference=\"two\""));
  }
  SECTION("a causality the standard does not define") {
    std::string xml = mutated(R"(causality="input")", R"(causality="inlet")");
    std::string message = failure_of([&] { parse_model_description(xml, "valid.xml"); });
    CHECK_THAT(message, StartsWith("valid.xml:" + std::to_string(line_of(xml, "name=\"force\"")) + ":"));
    CHECK_THAT(message, Contains("causality=\"inlet\""));
  }
  SECTION("a ScalarVariable without a type element") {
    std::string xml = mutated(R"(name="energy" valueReference="4" causality="local"><Real/>)",
                              R"(name="energy" valueReference="4" causality="local">)");
    std::string message = failure_of([&] { parse_model_description(xml, "valid.xml"); });
    CHECK_THAT(message, StartsWith("valid.xml:" + std::to_string(line_of(xml, "name=\"energy\"")) + ":"));
    CHECK_THAT(message, Contains("'energy'"));
  }
  SECTION("a root element other than fmiModelDescription") {
    std::string xml = kValidXml;
    for (std::size_t at = xml.find("fmiModelDescription"); at != std::string::npos;
         at = xml.find("fmiModelDescription", at))
      xml.replace(at, std::string("fmiModelDescription").size(), "fmiModel");
    std::string message = failure_of([&] { parse_model_description(xml, "valid.xml"); });
    CHECK_THAT(message, StartsWith("valid.xml:2:"));
    CHECK_THAT(message, Contains("fmiModel"));
  }
}

TEST_CASE("FMI archive: write_zip and read_zip round-trip entries byte for byte", "[fmi][archive]") {
  ScratchDirectory scratch("round-trip");
  const std::vector<ArchiveEntry> entries = sample_entries();
  REQUIRE(entries[1].data.empty());
  REQUIRE(entries[2].data.find('\0') != std::string::npos);

  std::string path = scratch.file("sample.fmu");
  write_zip(path, entries);
  std::vector<ArchiveEntry> read = read_zip(path);
  REQUIRE(read.size() == entries.size());
  for (std::size_t k = 0; k < entries.size(); ++k) {
    INFO("entry " << entries[k].name);
    CHECK(read[k].name == entries[k].name);
    CHECK(read[k].data.size() == entries[k].data.size());
    CHECK(read[k].data == entries[k].data);
  }

  // The same entries give the same bytes.
  std::string again = scratch.file("again.fmu");
  write_zip(again, entries);
  CHECK(file_bytes(again) == file_bytes(path));

  // Writing over an existing archive replaces it.
  write_zip(again, {{"only.txt", "x"}});
  std::vector<ArchiveEntry> replaced = read_zip(again);
  REQUIRE(replaced.size() == 1);
  CHECK(replaced[0].name == "only.txt");
  CHECK(replaced[0].data == "x");

  // An archive without entries.
  std::string empty = scratch.file("empty.zip");
  write_zip(empty, {});
  CHECK(read_zip(empty).empty());
}

TEST_CASE("FMI archive: names that escape the extraction directory are refused", "[fmi][archive]") {
  ScratchDirectory scratch("escape");

  SECTION("write_zip refuses to write them") {
    for (std::string name : {"../evil", "a/../../evil", "/etc/evil", "..\\evil", "C:evil"}) {
      INFO("entry name " << name);
      std::string path = scratch.file("evil.fmu");
      std::string message = failure_of([&] { write_zip(path, {{"ok.txt", "fine"}, {name, "boom"}}); });
      CHECK_THAT(message, Contains(path));
      CHECK_THAT(message, Contains("'" + name + "'"));
      CHECK_FALSE(std::filesystem::exists(path));
    }
  }

  SECTION("read_zip refuses a hand-made archive holding ../evil") {
    // Written under a name of the same length, then renamed in the local header and the central directory;
    // the CRC covers only the data, so nothing else changes.
    std::string path = scratch.file("evil.fmu");
    write_zip(path, {{"ok.txt", "fine"}, {"aa/evil", "boom"}});
    std::string bytes = file_bytes(path);
    REQUIRE(occurrences(bytes, "aa/evil") == 2);
    for (std::size_t at = bytes.find("aa/evil"); at != std::string::npos; at = bytes.find("aa/evil", at))
      bytes.replace(at, 7, "../evil");
    put_file_bytes(path, bytes);

    std::string message = failure_of([&] { read_zip(path); });
    CHECK_THAT(message, Contains(path));
    CHECK_THAT(message, Contains("entry '../evil'"));
    CHECK_THAT(message, Contains("refused"));
  }
}

TEST_CASE("FMI archive: read_zip refuses truncated and damaged archives, naming them", "[fmi][archive]") {
  ScratchDirectory scratch("damaged");
  std::string whole_path = scratch.file("whole.fmu");
  write_zip(whole_path, sample_entries());
  const std::string whole = file_bytes(whole_path);
  REQUIRE(whole.size() > 200);

  SECTION("cut short") {
    for (std::size_t length : {whole.size() - 1, whole.size() - 22, whole.size() / 2, std::size_t{10}, std::size_t{0}}) {
      INFO("kept " << length << " of " << whole.size() << " bytes");
      std::string path = scratch.file("cut-" + std::to_string(length) + ".fmu");
      put_file_bytes(path, whole.substr(0, length));
      CHECK_THAT(failure_of([&] { read_zip(path); }), Contains(path));
    }
  }

  SECTION("the middle missing, the end record kept") {
    std::string path = scratch.file("holed.fmu");
    put_file_bytes(path, whole.substr(0, 100) + whole.substr(whole.size() - 22));
    std::string message = failure_of([&] { read_zip(path); });
    CHECK_THAT(message, Contains(path));
  }

  SECTION("a data byte changed") {
    std::string bytes = whole;
    std::size_t at = bytes.find("PAYLOAD");
    REQUIRE(at != std::string::npos);
    bytes[at] = 'X';
    std::string path = scratch.file("flipped.fmu");
    put_file_bytes(path, bytes);
    std::string message = failure_of([&] { read_zip(path); });
    CHECK_THAT(message, Contains(path));
    CHECK_THAT(message, Contains("entry 'binaries/linux64/blob.bin'"));
    CHECK_THAT(message, Contains("CRC-32"));
  }

  SECTION("no such file") {
    std::string path = scratch.file("missing.fmu");
    CHECK_THAT(failure_of([&] { read_zip(path); }), Contains(path));
  }
}

}  // namespace test_fmi_rules
