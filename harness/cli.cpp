// acausal validate <checklist>|all [--out DIR] [--no-plots]
//   Runs the shipped validation checklists, writes each report under
//   DIR/<checklist>/ (report.md, report.json, one CSV and PNG per check) and an
//   index; the exit status is 1 when any check fails.
// acausal export-fmu car <path.fmu> [--stop T] [--step H]
//   The flagship launch-and-brake car as an FMI 2.0 FMU (Model Exchange and Co-Simulation).
// acausal fmu-check <model.fmu> [options]
//   Checks and runs any FMI 2.0 FMU (fmi/check/fmu_check.hpp lists the options).
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "acausal.hpp"
#include "fmi/check/fmu_check.hpp"
#include "harness/checklists.hpp"
#include "harness/rigs.hpp"

namespace {

int usage() {
  std::cerr << "usage: acausal validate <checklist>|all [--out DIR] [--no-plots]\n  checklists:";
  for (const auto& n : acausal::harness::checklist_names()) std::cerr << ' ' << n;
  std::cerr << "\n       acausal export-fmu car <path.fmu> [--stop T] [--step H]\n"
               "       acausal fmu-check <model.fmu> [--step H] [--stop T] [--out result.csv] [--reference ref.csv]\n"
               "                         [--tolerance 1e-6] [--two-instances] [--record NAME]... [--debug-logging]\n";
  return 2;
}

// The flagship experiment (examples/launch_and_brake.cpp): the library's
// rear-drive car with the open-loop launch-and-brake driver.
int export_car(const std::vector<std::string>& args) {
  using namespace acausal;
  if (args.size() < 2 || args[0] != "car") return usage();
  FmuExportOptions options;
  options.model_identifier = "launch_and_brake";
  options.stop_time = 20.0;
  options.step_size = 0.01;
  for (std::size_t i = 2; i < args.size(); ++i) {
    if (args[i] == "--stop" && i + 1 < args.size()) options.stop_time = std::stod(args[++i]);
    else if (args[i] == "--step" && i + 1 < args.size()) options.step_size = std::stod(args[++i]);
    else return usage();
  }
  Model m("launch_and_brake");
  auto& car = m.add<vehicle::RearDriveCar>("car");
  harness::drive_launch(m, car, 1.0, 12.0);
  const Simulator sim = m.compile();
  for (const CompileWarning& w : sim.report().warnings)
    std::cerr << "acausal export-fmu: warning [" << w.kind << "] " << w.message << '\n';
  export_fmu(sim, args[1], options);
  std::printf("wrote %s\n", args[1].c_str());
  return 0;
}

// The PNGs come from matplotlib: python3 -m acausal.validation_plots DIR...
bool render_plots(const std::vector<std::string>& directories) {
  const std::string python = ACAUSAL_PYTHON_EXECUTABLE;
  if (python.empty()) {
    std::cerr << "acausal: built without Python, no plots\n";
    return false;
  }
  std::string path = ACAUSAL_PYTHON_PATH;
  if (const char* existing = std::getenv("PYTHONPATH")) path += std::string(":") + existing;
  std::string command = "PYTHONPATH='" + path + "' '" + python + "' -m acausal.validation_plots";
  for (const auto& d : directories) command += " '" + d + "'";
  std::fflush(stdout);  // the verdicts first, then the plotter's lines
  return std::system(command.c_str()) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && args[0] == "fmu-check")
    return acausal::fmi::check::fmu_check_main(std::vector<std::string>(args.begin() + 1, args.end()));
  if (!args.empty() && args[0] == "export-fmu") {
    try {
      return export_car(std::vector<std::string>(args.begin() + 1, args.end()));
    } catch (const std::exception& e) {
      std::cerr << "acausal export-fmu: " << e.what() << '\n';
      return 1;
    }
  }
  if (args.size() < 2 || args[0] != "validate") return usage();
  std::string out = "out/validation";
  bool plots = true;
  std::vector<std::string> names;
  for (std::size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "--out" && i + 1 < args.size()) out = args[++i];
    else if (args[i] == "--no-plots") plots = false;
    else if (args[i] == "all") names = acausal::harness::checklist_names();
    else names.push_back(args[i]);
  }
  if (names.empty()) return usage();

  bool all_passed = true;
  std::vector<std::string> directories;
  std::string index = "# Validation reports\n\n| checklist | result | checks | failures |\n|---|---|---|---|\n";
  for (const auto& name : names) {
    try {
      acausal::harness::Checklist list = acausal::harness::checklist(name);
      acausal::harness::ChecklistReport report = list.run();
      const std::string directory = out + "/" + name;
      report.write(directory);
      directories.push_back(directory);
      all_passed = all_passed && report.passed();
      std::printf("%-13s %s  %zu/%zu checks hold  -> %s/report.md\n", name.c_str(),
                  report.passed() ? "PASSED" : "FAILED", report.checks.size() - report.failures(),
                  report.checks.size(), directory.c_str());
      for (const auto& c : report.checks)
        if (!c.passed) std::printf("    FAIL %s [%s] %s\n", c.id.c_str(), c.title.c_str(), c.message.c_str());
      index += "| [" + report.title + "](" + name + "/report.md) | " + (report.passed() ? "✅ passed" : "❌ failed") +
               " | " + std::to_string(report.checks.size()) + " | " + std::to_string(report.failures()) + " |\n";
    } catch (const std::exception& e) {
      std::cerr << "acausal validate: " << e.what() << '\n';
      return 2;
    }
  }
  std::filesystem::create_directories(out);
  std::ofstream(out + "/index.md") << index;
  if (plots && !render_plots(directories)) {
    std::cerr << "acausal validate: rendering the plots failed\n";
    return 1;
  }
  return all_passed ? 0 : 1;
}
