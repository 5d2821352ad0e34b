#include "harness/checklist.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <optional>
#include <sstream>

#include "solver/symbolic/errors.hpp"

namespace acausal::harness {

namespace {

CheckResult verdict(Level level, std::string title, std::string detail, bool passed, std::string message) {
  CheckResult c;
  c.level = level;
  c.title = std::move(title);
  c.detail = std::move(detail);
  c.passed = passed;
  c.error = passed ? 0 : 1;
  c.message = (passed ? "holds" : "FAILS: ") + message;
  return c;
}

}  // namespace

Rig::Rig(std::string name, std::string description, SimulationOptions options)
    : name_(std::move(name)), description_(std::move(description)), options_(options),
      model_(std::make_unique<Model>(name_)) {}

Rig& Rig::check(Check c) {
  checks_.push_back(std::move(c));
  return *this;
}

Rig& Rig::expect_connectors(const Component& component,
                            std::vector<std::pair<std::string, std::string>> connectors) {
  std::string expected, missing;
  for (const auto& [name, type] : connectors) {
    const Connector* found = nullptr;
    for (const Connector* k : component.connectors())
      if (k->name() == name) found = k;
    expected += (expected.empty() ? "" : ", ") + name + " (" + type + ")";
    if (!found) missing += (missing.empty() ? "" : "; ") + component.path() + " has no connector " + name;
    else if (found->type() != type)
      missing += (missing.empty() ? "" : "; ") + found->path() + " is a " + found->type() + ", not a " + type;
  }
  interface_checks_.push_back(verdict(Level::builds, component.name() + " declares its connectors",
                                      component.path() + ": " + expected, missing.empty(), missing));
  return *this;
}

Rig& Rig::energy_balance(double tolerance) {
  if (books_) throw ModelError("rig " + name_ + ": energy_balance() was already called");
  books_ = std::make_unique<EnergyBooks>(*model_);
  checks_.push_back(books_->components_close(tolerance));
  checks_.push_back(books_->model_closes(tolerance));
  return *this;
}

Checklist::Checklist(std::string name, std::string title) : name_(std::move(name)), title_(std::move(title)) {}

Rig& Checklist::rig(const std::string& name, const std::string& description, SimulationOptions options) {
  for (const auto& r : rigs_)
    if (r.name() == name) throw ModelError("checklist " + name_ + ": two rigs named '" + name + "'");
  return rigs_.emplace_back(name, description, options);
}


ChecklistReport Checklist::run() {
  ChecklistReport report;
  report.name = name_;
  report.title = title_;
  for (Rig& rig : rigs_) {
    RigSummary summary{rig.name(), rig.description()};
    std::vector<CheckResult> results(rig.interface_checks_);
    auto t0 = std::chrono::steady_clock::now();
    std::unique_ptr<Simulator> sim;
    try {
      sim = std::make_unique<Simulator>(rig.model().compile());
      summary.compiled = true;
      results.push_back(verdict(Level::builds, "compiles", "the rig's model compiles: square, structurally regular, "
                                "parameters within their bounds", true, ""));
    } catch (const std::exception& e) {
      results.push_back(verdict(Level::builds, "compiles", "the rig's model compiles", false, e.what()));
    }
    if (sim) {
      const auto& unit_errors = sim->report().unit_errors;
      std::string text;
      for (const auto& u : unit_errors) text += (text.empty() ? "" : "; ") + u;
      results.push_back(verdict(Level::builds, "units are consistent",
                                "every equation is dimensionally consistent with the declared units",
                                unit_errors.empty(), text));
    }
    std::optional<Result> result;
    if (sim) {
      try {
        result = sim->simulate(rig.options());
        summary.simulated = true;
        results.push_back(verdict(Level::runs, "reaches the stop time",
                                  "the solver succeeds up to t = " + format_number(rig.options().t_end) + " s", true,
                                  ""));
      } catch (const SimulationError& e) {
        results.push_back(verdict(Level::runs, "reaches the stop time",
                                  "the solver succeeds up to t = " + format_number(rig.options().t_end) + " s", false,
                                  e.what()));
      } catch (const std::exception& e) {
        results.push_back(verdict(Level::runs, "reaches the stop time", "the solver starts", false, e.what()));
      }
    }
    if (result) {
      summary.t_end = result->time().empty() ? 0.0 : result->time().back();
      summary.steps = result->statistics().steps;
      std::string bad;
      const auto names = result->names();
      const auto columns = result->columns(names);
      for (std::size_t i = 0; i < names.size() && bad.empty(); ++i)
        for (std::size_t k = 0; k < columns[i].size() && bad.empty(); ++k)
          if (!std::isfinite(columns[i][k]))
            bad = names[i] + " = " + format_number(columns[i][k]) + " at t = " + format_number(result->time()[k]) + " s";
      results.push_back(verdict(Level::runs, "stays finite",
                                "all " + std::to_string(names.size()) + " variables finite at every output time",
                                bad.empty(), bad));
      for (const Check& check : rig.checks_) results.push_back(check.evaluate(*result));
    } else {
      for (const Check& check : rig.checks_) {
        CheckResult c;
        c.title = check.title();
        c.passed = false;
        c.error = NAN;
        c.message = "FAILS: not run (the rig did not " + std::string(sim ? "simulate" : "compile") + ")";
        results.push_back(std::move(c));
      }
    }
    summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    for (std::size_t i = 0; i < results.size(); ++i) {
      results[i].rig = rig.name();
      results[i].id = rig.name() + "_" + std::to_string(i + 1);
    }
    report.rigs.push_back(summary);
    report.checks.insert(report.checks.end(), results.begin(), results.end());
  }
  return report;
}

bool ChecklistReport::passed() const { return failures() == 0 && !checks.empty(); }

std::size_t ChecklistReport::failures() const {
  std::size_t n = 0;
  for (const auto& c : checks) n += !c.passed;
  return n;
}

namespace {

const char* level_name(Level level) {
  switch (level) {
    case Level::builds: return "Level 1: builds (compiles, units, interfaces)";
    case Level::runs: return "Level 2: runs (solver success, finite values)";
    case Level::physics: return "Level 3: physics validated";
  }
  return "";
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char ch : s) {
    switch (ch) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(ch) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", ch);
          out += buf;
        } else {
          out += ch;
        }
    }
  }
  return out + "\"";
}

std::string json_number(double x) {
  if (!std::isfinite(x)) return "null";
  std::ostringstream o;
  o << std::setprecision(10) << x;
  return o.str();
}

std::string markdown_cell(std::string s) {
  for (std::size_t p = 0; (p = s.find('|', p)) != std::string::npos; p += 2) s.replace(p, 1, "\\|");
  return s;
}

void write_atomically(const std::filesystem::path& path, const std::string& text) {
  const auto temporary = path.string() + ".tmp";
  {
    std::ofstream out(temporary);
    out << text;
    if (!out) throw std::runtime_error("cannot write " + temporary);
  }
  std::filesystem::rename(temporary, path);
}

}  // namespace

std::string ChecklistReport::json() const {
  std::ostringstream o;
  o << "{\n  \"checklist\": " << json_string(name) << ",\n  \"title\": " << json_string(title)
    << ",\n  \"passed\": " << (passed() ? "true" : "false") << ",\n  \"failures\": " << failures()
    << ",\n  \"rigs\": [";
  for (std::size_t i = 0; i < rigs.size(); ++i) {
    const auto& r = rigs[i];
    o << (i ? "," : "") << "\n    {\"name\": " << json_string(r.name) << ", \"description\": "
      << json_string(r.description) << ", \"compiled\": " << (r.compiled ? "true" : "false")
      << ", \"simulated\": " << (r.simulated ? "true" : "false") << ", \"t_end\": " << json_number(r.t_end)
      << ", \"steps\": " << r.steps << ", \"seconds\": " << json_number(r.seconds) << "}";
  }
  o << "\n  ],\n  \"checks\": [";
  for (std::size_t i = 0; i < checks.size(); ++i) {
    const auto& c = checks[i];
    o << (i ? "," : "") << "\n    {\"id\": " << json_string(c.id) << ", \"rig\": " << json_string(c.rig)
      << ", \"level\": " << static_cast<int>(c.level) << ", \"title\": " << json_string(c.title)
      << ", \"detail\": " << json_string(c.detail) << ", \"passed\": " << (c.passed ? "true" : "false")
      << ", \"tolerance\": " << json_number(c.tolerance) << ", \"error\": " << json_number(c.error)
      << ", \"worst_time\": " << json_number(c.worst_time) << ", \"worst_values\": {";
    for (std::size_t j = 0; j < c.worst_values.size(); ++j)
      o << (j ? ", " : "") << json_string(c.worst_values[j].first) << ": " << json_number(c.worst_values[j].second);
    o << "}, \"message\": " << json_string(c.message) << ", \"data\": "
      << (c.plot.empty() ? "null" : json_string(c.id + ".csv")) << ", \"plot\": "
      << (c.plot.empty() ? "null" : json_string(c.id + ".png")) << ", \"series\": [";
    for (std::size_t j = 0; j < c.plot.size(); ++j) o << (j ? ", " : "") << json_string(c.plot[j].label);
    o << "], \"units\": [";
    for (std::size_t j = 0; j < c.plot.size(); ++j) o << (j ? ", " : "") << json_string(c.plot[j].unit);
    o << "], \"plot_kind\": " << json_string(c.plot_kind) << ", \"kind\": " << json_string(c.kind) << "}";
  }
  o << "\n  ]\n}\n";
  return o.str();
}

std::string ChecklistReport::markdown() const {
  std::ostringstream o;
  o << "# Validation: " << title << "\n\n"
    << (passed() ? "**PASSED**" : "**FAILED**") << ": " << checks.size() - failures() << " of " << checks.size()
    << " checks hold";
  if (failures()) o << ", " << failures() << " fail";
  o << ".\n\n## Rigs\n\n| rig | setup | compiled | simulated | steps | wall time |\n|---|---|---|---|---|---|\n";
  for (const auto& r : rigs) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.3f s", r.seconds);
    o << "| " << r.name << " | " << markdown_cell(r.description) << " | " << (r.compiled ? "yes" : "**no**") << " | "
      << (r.simulated ? "to t = " + format_number(r.t_end) + " s" : "**no**") << " | " << r.steps << " | "
      << seconds << " |\n";
  }
  for (Level level : {Level::builds, Level::runs, Level::physics}) {
    o << "\n## " << level_name(level) << "\n\n| | rig | check | tolerance | measured | worst at |\n"
      << "|---|---|---|---|---|---|\n";
    for (const auto& c : checks) {
      if (c.level != level) continue;
      o << "| " << (c.passed ? "✅" : "❌") << " | " << c.rig << " | **" << markdown_cell(c.title) << "**: "
        << markdown_cell(c.detail.empty() ? c.message : c.detail) << " | " << (level == Level::physics ? format_number(c.tolerance) : "") << " | "
        << (level == Level::physics && std::isfinite(c.error) ? format_number(c.error) : "") << " | "
        << (std::isfinite(c.worst_time) ? "t = " + format_number(c.worst_time) + " s" : "") << " |\n";
    }
    for (const auto& c : checks)
      if (c.level == level && !c.passed) o << "\n- ❌ `" << c.id << "` " << c.message << "\n";
  }
  o << "\n## Plots\n";
  for (const auto& c : checks) {
    if (c.plot.empty()) continue;
    o << "\n### " << (c.passed ? "✅ " : "❌ ") << c.rig << ": " << c.title << "\n\n" << c.message << "\n\n![" << c.id
      << "](" << c.id << ".png)\n";
  }
  return o.str();
}

void ChecklistReport::write(const std::string& directory) const {
  namespace fs = std::filesystem;
  fs::create_directories(directory);
  for (const auto& c : checks) {
    if (c.plot.empty()) continue;
    std::ostringstream csv;
    csv << "time";
    for (const auto& s : c.plot) {
      std::string label = s.label;
      for (char& ch : label)
        if (ch == ',' || ch == '"') ch = ';';
      csv << ',' << label;
    }
    csv << '\n' << std::setprecision(12);
    for (std::size_t k = 0; k < c.time.size(); ++k) {
      csv << c.time[k];
      for (const auto& s : c.plot) csv << ',' << s.values[k];
      csv << '\n';
    }
    write_atomically(fs::path(directory) / (c.id + ".csv"), csv.str());
  }
  write_atomically(fs::path(directory) / "report.json", json());
  write_atomically(fs::path(directory) / "report.md", markdown());
}

}  // namespace acausal::harness
