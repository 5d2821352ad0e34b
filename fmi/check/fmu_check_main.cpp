#include "fmi/check/fmu_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <exception>
#include <optional>
#include <stdexcept>
#include <string_view>

#include "fmi/check/result_table.hpp"
#include "fmi/check/rules.hpp"
#include "fmi/check/runner.hpp"

namespace acausal::fmi::check {

namespace {

constexpr std::string_view kUsage =
    "usage: acausal fmu-check model.fmu [--interface cs|me|both] [--step H] [--stop T] [--out result.csv]\n"
    "                         [--reference ref.csv] [--tolerance 1e-6] [--two-instances] [--record NAME]...\n"
    "                         [--debug-logging]\n";

// Without a DefaultExperiment step, the run samples the interval this many times.
constexpr double kDefaultStepCount = 500;

struct CommandLine {
  std::string fmu_path;
  std::optional<double> step_size;
  std::optional<double> stop_time;
  std::optional<std::string> out_path;
  std::optional<std::string> reference_path;
  double tolerance = 1e-6;
  std::string interface = "both";  // every interface the FMU declares
  bool two_instances = false;
  bool debug_logging = false;
  std::vector<std::string> recorded_names;
};

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

double number(std::string_view option, const std::string& text, bool must_be_positive) {
  double value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  bool parsed = !text.empty() && error == std::errc() && end == text.data() + text.size() && std::isfinite(value);
  if (!parsed || (must_be_positive && !(value > 0)))
    throw UsageError(fmt::format("{} takes a {}number, not '{}'", option, must_be_positive ? "positive " : "", text));
  return value;
}

CommandLine parse_command_line(const std::vector<std::string>& args) {
  CommandLine line;
  for (std::size_t k = 0; k < args.size(); ++k) {
    const std::string& word = args[k];
    auto value = [&]() -> const std::string& {
      if (k + 1 >= args.size()) throw UsageError(fmt::format("{} needs a value", word));
      return args[++k];
    };
    if (word == "--step") {
      line.step_size = number(word, value(), true);
    } else if (word == "--stop") {
      line.stop_time = number(word, value(), false);
    } else if (word == "--tolerance") {
      line.tolerance = number(word, value(), true);
    } else if (word == "--interface") {
      line.interface = value();
      if (line.interface != "cs" && line.interface != "me" && line.interface != "both")
        throw UsageError(fmt::format("--interface takes cs, me or both, not '{}'", line.interface));
    } else if (word == "--out") {
      line.out_path = value();
    } else if (word == "--reference") {
      line.reference_path = value();
    } else if (word == "--record") {
      line.recorded_names.push_back(value());
    } else if (word == "--two-instances") {
      line.two_instances = true;
    } else if (word == "--debug-logging") {
      line.debug_logging = true;
    } else if (word.starts_with("--") || !line.fmu_path.empty()) {
      throw UsageError(fmt::format("unexpected argument '{}'", word));
    } else {
      line.fmu_path = word;
    }
  }
  if (line.fmu_path.empty()) throw UsageError("no FMU given");
  return line;
}

// The command line wins over the FMU's DefaultExperiment, which wins over a one-second run.
RunOptions run_options(const CommandLine& line, const ModelDescription& description) {
  DefaultExperiment experiment = description.default_experiment.value_or(DefaultExperiment{});
  RunOptions options;
  options.start_time = experiment.start_time.value_or(0.0);
  options.stop_time = line.stop_time ? *line.stop_time : experiment.stop_time.value_or(options.start_time + 1.0);
  options.step_size = line.step_size
                          ? *line.step_size
                          : experiment.step_size.value_or((options.stop_time - options.start_time) / kDefaultStepCount);
  options.tolerance = experiment.tolerance;
  options.recorded_names = line.recorded_names;
  options.debug_logging = line.debug_logging;
  return options;
}

bool print_findings(const std::vector<Finding>& findings) {
  for (const Finding& finding : findings) fmt::print("{}: {}\n", finding.rule, finding.message);
  return findings.empty();
}

void print_run(const RunResult& run, const RunOptions& options, bool model_exchange) {
  for (const std::string& message : run.log) fmt::print("log: {}\n", message);
  if (run.table.times.empty()) return;
  if (model_exchange)
    fmt::print("model exchange: CVODE, {} steps and {} events from {} to {}, read every {}{}\n", run.steps,
               run.event_times.size(), options.start_time, run.table.times.back(), options.step_size,
               run.completed ? "" : " (stopped early)");
  else
    fmt::print("co-simulation: {} steps of {} from {} to {}{}\n", run.steps, options.step_size, options.start_time,
               run.table.times.back(), run.completed ? "" : " (stopped early)");
  for (std::size_t j = 0; j < run.table.names.size(); ++j)
    fmt::print("  {} = {:.17g}\n", run.table.names[j], run.table.rows.back()[j]);
}

bool print_comparison(std::string_view head, const Comparison& comparison, double tolerance) {
  for (const ColumnComparison& column : comparison.columns) {
    if (!column.problem.empty())
      fmt::print("{}: {}: {}\n", head, column.name, column.problem);
    else
      fmt::print("{}: {}: largest relative error {:.3g} at t = {} ({} {:g})\n", head, column.name,
                 column.largest_error, column.worst_time, column.passed ? "below" : "NOT below", tolerance);
  }
  fmt::print("{}: {}\n", head, comparison.passed ? "passed" : "FAILED");
  return comparison.passed;
}

// "out.csv" for one interface; "out_cs.csv" and "out_me.csv" when both run.
std::string output_path(const std::string& path, std::string_view suffix) {
  if (suffix.empty()) return path;
  const std::size_t dot = path.rfind('.');
  const std::size_t slash = path.rfind('/');
  const bool has_extension = dot != std::string::npos && (slash == std::string::npos || dot > slash);
  return has_extension ? fmt::format("{}_{}{}", path.substr(0, dot), suffix, path.substr(dot))
                       : fmt::format("{}_{}", path, suffix);
}

// One interface's run: printed, written, compared with the reference.
bool check_run(const CommandLine& line, const ResultTable* reference, const RunResult& run, const RunOptions& options,
               bool model_exchange, bool both) {
  print_run(run, options, model_exchange);
  bool passed = print_findings(run.findings) && run.completed;
  const std::string_view suffix = both ? (model_exchange ? "me" : "cs") : "";
  if (line.out_path && !run.table.times.empty()) {
    const std::string path = output_path(*line.out_path, suffix);
    try {
      write_csv(path, run.table);
      fmt::print("result: written to {}\n", path);
    } catch (const std::exception& error) {
      fmt::print("result: {}\n", error.what());
      passed = false;
    }
  }
  if (reference) {
    const std::string head = both ? fmt::format("reference ({})", suffix) : "reference";
    passed = print_comparison(head, compare_with_reference(run.table, *reference, line.tolerance), line.tolerance) &&
             passed;
  }
  return passed;
}

bool check_two_instances(const Fmu& fmu, const RunOptions& options, const RunResult& single_instance) {
  TwoInstanceResult result = fmu.run_two_instances(options, single_instance);
  if (result.skipped) {
    fmt::print("two-instances: skipped, the FMU declares canBeInstantiatedOnlyOncePerProcess\n");
    return true;
  }
  for (const RunResult* run : {&result.first, &result.second})
    for (const std::string& message : run->log) fmt::print("log: {}\n", message);
  print_findings(result.findings);
  fmt::print("two-instances: {}\n", result.passed ? "passed, each equal to the single instance bit for bit" : "FAILED");
  return result.passed;
}

int run_checks(const CommandLine& line) {
  std::optional<Fmu> fmu;
  try {
    fmu.emplace(line.fmu_path);
  } catch (const std::exception& error) {
    fmt::print("load: {}\n", error.what());
    return 1;
  }
  const ModelDescription& description = fmu->description();
  fmt::print("model: {} (FMI {}{}{}, generated by {})\n", description.model_name, description.fmi_version,
             description.model_exchange ? ", Model Exchange" : "", description.co_simulation ? ", Co-Simulation" : "",
             description.generation_tool.empty() ? "an unnamed tool" : description.generation_tool);
  bool passed = print_findings(check_description(description));
  passed = print_findings(fmu->load_findings()) && passed;
  fmt::print("description: {}\n", passed ? "every rule holds" : "rules broken (above)");

  RunOptions options = run_options(line, description);
  const bool co_simulation = description.co_simulation && line.interface != "me";
  const bool model_exchange = description.model_exchange && line.interface != "cs";
  if (!co_simulation && !model_exchange) {
    fmt::print("run: the FMU does not declare the interface asked for ({})\n", line.interface);
    return 1;
  }
  // Read once, for every interface's run.
  std::optional<ResultTable> reference;
  if (line.reference_path) {
    try {
      reference = read_csv(*line.reference_path);
    } catch (const std::exception& error) {
      fmt::print("reference: {}\n", error.what());
      passed = false;
    }
  }
  const ResultTable* reference_table = reference ? &*reference : nullptr;
  RunResult cs_run, me_run;
  if (co_simulation) {
    cs_run = fmu->run_co_simulation(options);
    passed = check_run(line, reference_table, cs_run, options, false, model_exchange) && passed;
  }
  if (model_exchange) {
    me_run = fmu->run_model_exchange(options);
    passed = check_run(line, reference_table, me_run, options, true, co_simulation) && passed;
  }
  // The two interfaces integrate the same model with different solvers: they agree to the tolerances.
  if (co_simulation && model_exchange && cs_run.completed && me_run.completed) {
    const Comparison agreement = compare_with_reference(me_run.table, cs_run.table, line.tolerance);
    const auto worst = std::max_element(agreement.columns.begin(), agreement.columns.end(),
                                        [](const auto& a, const auto& b) { return a.largest_error < b.largest_error; });
    if (worst != agreement.columns.end())
      fmt::print("model exchange vs co-simulation: largest difference {:.3g} of its range, in {} at t = {}\n",
                 worst->largest_error, worst->name, worst->worst_time);
  }
  if (line.two_instances && co_simulation) passed = check_two_instances(*fmu, options, cs_run) && passed;
  return passed ? 0 : 1;
}

}  // namespace

int fmu_check_main(const std::vector<std::string>& args) {
  CommandLine line;
  try {
    line = parse_command_line(args);
  } catch (const UsageError& error) {
    fmt::print(stderr, "acausal fmu-check: {}\n{}", error.what(), kUsage);
    return 2;
  }
  return run_checks(line);
}

}  // namespace acausal::fmi::check
