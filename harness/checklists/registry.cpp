#include <map>

#include "harness/checklists.hpp"
#include "harness/soil_checklist.hpp"
#include "solver/symbolic/errors.hpp"

namespace acausal::harness {

namespace {

const std::map<std::string, std::function<Checklist()>>& shipped() {
  static const std::map<std::string, std::function<Checklist()>> lists{
      {"wheel", [] { return wheel_checklist(); }},
      {"body", [] { return body_checklist(); }},
      {"differential", [] { return differential_checklist(); }},
      {"brake", [] { return brake_checklist(); }},
      {"clutch", [] { return clutch_checklist(); }},
      {"engine", [] { return engine_checklist(); }},
      {"gearbox", [] { return gearbox_checklist(); }},
      {"car", [] { return car_checklist(); }},
      {"cycle", [] { return cycle_checklist(); }},
      {"handling", [] { return handling_checklist(); }},
      {"soil_wheel", [] { return soil_wheel_checklist(); }},
  };
  return lists;
}

}  // namespace

std::vector<std::string> checklist_names() {
  return {"wheel", "body", "differential", "brake", "clutch", "engine", "gearbox", "car", "cycle", "handling", "soil_wheel"};
}

Checklist checklist(const std::string& name) {
  auto it = shipped().find(name);
  if (it != shipped().end()) return it->second();
  std::string names;
  for (const auto& n : checklist_names()) names += (names.empty() ? "" : ", ") + n;
  throw ModelError("no checklist named '" + name + "'; the shipped checklists are " + names + " (or all)");
}

SimulationOptions run_options(double t_end, double dt) {
  SimulationOptions options;
  options.t_end = t_end;
  options.output_interval = dt;
  options.rtol = 1e-8;
  options.atol = 1e-10;
  return options;
}

}  // namespace acausal::harness
