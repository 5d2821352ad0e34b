// acausal validate <checklist>|all [--out DIR] [--no-plots]
//
// Runs the shipped validation checklists, writes each report under
// DIR/<checklist>/ (report.md, report.json, one CSV and PNG per check) and an
// index; the exit status is 1 when any check fails.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "harness/checklists.hpp"

namespace {

int usage() {
  std::cerr << "usage: acausal validate <checklist>|all [--out DIR] [--no-plots]\n  checklists:";
  for (const auto& n : acausal::harness::checklist_names()) std::cerr << ' ' << n;
  std::cerr << '\n';
  return 2;
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
