#include "fmi/check/runner.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string_view>

#include "fmi/check/run_support.hpp"
#include "fmi/check/unpacked_fmu.hpp"
#include "fmi/fmi2_api.h"

namespace acausal::fmi::check {

namespace {

// A Co-Simulation slave: an Instance and fmi2DoStep.
class CoSimulationInstance : public Instance {
 public:
  CoSimulationInstance(const CommonFunctions& functions, fmi2DoStepTYPE* do_step, const ModelDescription& description,
                       const std::string& resource_uri, std::string name, bool debug_logging,
                       std::vector<std::string>& log)
      : Instance(functions, description, resource_uri, std::move(name), fmi2CoSimulation, debug_logging, log),
        do_step_(do_step) {}

  // This checker never rolls an instance back, which it tells the FMU so it may discard its history.
  void step(double time, double step_size) {
    require(do_step_(component(), time, step_size, fmi2True), fmt::format("fmi2DoStep at t = {}", time));
  }

 private:
  fmi2DoStepTYPE* do_step_;
};

bool same_bits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

std::optional<std::string> first_difference(const ResultTable& expected, const ResultTable& actual) {
  if (actual.times.size() != expected.times.size())
    return fmt::format("{} rows instead of {}", actual.times.size(), expected.times.size());
  for (std::size_t k = 0; k < expected.times.size(); ++k) {
    if (!same_bits(actual.times[k], expected.times[k]))
      return fmt::format("row {} is at t = {:.17g} instead of {:.17g}", k, actual.times[k], expected.times[k]);
    for (std::size_t j = 0; j < expected.rows[k].size(); ++j)
      if (!same_bits(actual.rows[k][j], expected.rows[k][j]))
        return fmt::format("at t = {:.17g}, {} is {:.17g} instead of {:.17g}", expected.times[k], expected.names[j],
                           actual.rows[k][j], expected.rows[k][j]);
  }
  return std::nullopt;
}

}  // namespace

Fmu::Fmu(const std::string& path) : fmu_(std::make_unique<UnpackedFmu>(path)) {}

Fmu::~Fmu() = default;

const ModelDescription& Fmu::description() const { return fmu_->description(); }

const std::vector<Finding>& Fmu::load_findings() const { return fmu_->load_findings(); }

RunResult Fmu::run_co_simulation(const RunOptions& options) const {
  RunResult result;
  const ModelDescription& description = fmu_->description();
  if (!description.co_simulation) {
    result.findings.push_back({"co-simulation", "the FMU does not declare Co-Simulation"});
    return result;
  }
  try {
    const CommonFunctions functions(*fmu_);
    auto* do_step = required_function<fmi2DoStepTYPE>(*fmu_, "fmi2DoStep");
    Recording recording = recording_for(description, options.recorded_names);
    std::vector<double> points = communication_points(options);
    result.table.names = recording.names;
    CoSimulationInstance instance(functions, do_step, description, fmu_->resource_uri(), "instance",
                                  options.debug_logging, result.log);
    instance.initialize(options);
    record(result, points.front(), instance.sample(recording));
    for (std::size_t k = 0; k + 1 < points.size(); ++k) {
      instance.step(points[k], points[k + 1] - points[k]);
      ++result.steps;
      record(result, points[k + 1], instance.sample(recording));
    }
    instance.terminate();
    result.completed = true;
  } catch (const std::exception& error) {
    result.findings.push_back({"co-simulation", error.what()});
  }
  return result;
}

TwoInstanceResult Fmu::run_two_instances(const RunOptions& options, const RunResult& single_instance) const {
  TwoInstanceResult result;
  const ModelDescription& description = fmu_->description();
  if (!description.co_simulation) {
    result.findings.push_back({"two-instances", "the FMU does not declare Co-Simulation"});
    return result;
  }
  if (description.co_simulation->can_be_instantiated_only_once_per_process) {
    result.skipped = true;
    result.passed = true;
    return result;
  }
  try {
    const CommonFunctions functions(*fmu_);
    auto* do_step = required_function<fmi2DoStepTYPE>(*fmu_, "fmi2DoStep");
    Recording recording = recording_for(description, options.recorded_names);
    std::vector<double> points = communication_points(options);
    result.first.table.names = result.second.table.names = recording.names;
    std::string resource_uri = fmu_->resource_uri();
    CoSimulationInstance first(functions, do_step, description, resource_uri, "first", options.debug_logging,
                               result.first.log);
    CoSimulationInstance second(functions, do_step, description, resource_uri, "second", options.debug_logging,
                                result.second.log);
    first.initialize(options);
    second.initialize(options);
    record(result.first, points.front(), first.sample(recording));
    record(result.second, points.front(), second.sample(recording));
    // Alternate step by step, so state one instance wrongly keeps in shared memory shows in the other.
    for (std::size_t k = 0; k + 1 < points.size(); ++k) {
      first.step(points[k], points[k + 1] - points[k]);
      ++result.first.steps;
      second.step(points[k], points[k + 1] - points[k]);
      ++result.second.steps;
      record(result.first, points[k + 1], first.sample(recording));
      record(result.second, points[k + 1], second.sample(recording));
    }
    first.terminate();
    second.terminate();
    result.first.completed = result.second.completed = true;
  } catch (const std::exception& error) {
    result.findings.push_back({"two-instances", error.what()});
  }
  if (!single_instance.completed)
    result.findings.push_back({"two-instances", "the single-instance run to compare with did not complete"});
  for (const RunResult* run : {&result.first, &result.second}) {
    if (!run->completed || !single_instance.completed) continue;
    if (std::optional<std::string> difference = first_difference(single_instance.table, run->table))
      result.findings.push_back({"two-instances", fmt::format("instance '{}' departs from the single instance: {}",
                                                              run == &result.first ? "first" : "second", *difference)});
  }
  result.passed = result.findings.empty();
  return result;
}

}  // namespace acausal::fmi::check
