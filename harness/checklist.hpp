// Rigs and checklists: seed 001's validation levels, run and reported.
//
//   Checklist list("wheel", "Wheel (seed 001)");
//   Rig& rig = list.rig("rolling", "60 N·m on the axle, 500 kg carried", run_options);
//   auto& wheel = ... build the rig in rig.model() ...
//   rig.check(relation(wheel.v, wheel.omega * wheel.radius, 1e-3).when(abs(wheel.v) > 1.0)
//                 .titled("v = ω·r within 0.1 %"));
//   rig.energy_balance(1e-4);
//   ChecklistReport report = list.run();
//   report.write("out/validation/wheel");   // report.md, report.json, one CSV per check
//
// Every rig gets Level 1 (it compiles; its equations are dimensionally
// consistent) and Level 2 (the solver reaches the stop time; every variable
// stays finite) without asking; Level 3 holds the physics checks.
#pragma once

#include <deque>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "harness/check.hpp"
#include "harness/energy.hpp"
#include "solver/modeling/model.hpp"
#include "solver/runtime/simulator.hpp"

namespace acausal::harness {

/// A component under test between standard sources and loads: a model, how
/// to run it and what must hold.
class Rig {
 public:
  Rig(std::string name, std::string description, SimulationOptions options);
  Rig(const Rig&) = delete;
  Rig& operator=(const Rig&) = delete;
  Rig(Rig&&) = default;
  Rig& operator=(Rig&&) = default;

  const std::string& name() const { return name_; }
  const std::string& description() const { return description_; }
  Model& model() { return *model_; }
  SimulationOptions& options() { return options_; }

  /// A Level 3 check on this rig's result.
  Rig& check(Check c);
  /// Level 1: `component` declares these connectors (name, connector type).
  Rig& expect_connectors(const Component& component, std::vector<std::pair<std::string, std::string>> connectors);
  /// Level 3: every component's energy books and the whole model's close
  /// within `tolerance`. Adds the integrals to the model: call it once the rig is built.
  Rig& energy_balance(double tolerance);

 private:
  friend class Checklist;
  std::string name_, description_;
  SimulationOptions options_;
  std::unique_ptr<Model> model_;
  std::vector<Check> checks_;
  std::vector<CheckResult> interface_checks_;
  std::unique_ptr<EnergyBooks> books_;
};

/// What one rig's run did.
struct RigSummary {
  std::string name, description;
  bool compiled = false, simulated = false;
  double t_end = 0.0;
  long steps = 0;
  double seconds = 0.0;  // compile + simulate, wall clock
};

/// Every check of a checklist, evaluated.
struct ChecklistReport {
  std::string name, title;
  std::vector<RigSummary> rigs;
  std::vector<CheckResult> checks;

  bool passed() const;
  std::size_t failures() const;
  /// Writes report.md, report.json and one CSV (time and plotted series) per
  /// check into `directory` (created if missing). The Markdown links a PNG per
  /// check, rendered from the CSVs by `python3 -m acausal.validation_plots DIR`.
  void write(const std::string& directory) const;
  std::string markdown() const;
  std::string json() const;
};

class Checklist {
 public:
  Checklist(std::string name, std::string title);
  Checklist(const Checklist&) = delete;
  Checklist& operator=(const Checklist&) = delete;
  Checklist(Checklist&&) = default;
  Checklist& operator=(Checklist&&) = default;
  const std::string& name() const { return name_; }

  /// A new rig; its model is named after the rig.
  Rig& rig(const std::string& name, const std::string& description, SimulationOptions options);
  /// Compiles, simulates and checks every rig. Never throws for a failing
  /// model: a compile or solver error is a failed Level 1 or 2 check.
  ChecklistReport run();

 private:
  std::string name_, title_;
  std::deque<Rig> rigs_;
};

}  // namespace acausal::harness
