// Drive cycle: a 1250 kg compact (vehicle::MappedCar: a 1.6 L-class mapped
// engine with its BSFC map and idle governor, a shift map with kick-down)
// follows the WLTC class 3b with a CycleDriver (feed-forward, PI on a
// look-ahead, clutch at launches and stops). Prints the cycle line: distance,
// fuel, CO2, tractive energy, where the fuel's energy went, and whether the
// speed stayed within the WLTP tolerance band. Then the same car with an
// automatic transmission (vehicle::AutomaticCar: a torque converter locked
// up from third gear), and the same cycle with the battery-electric car (vehicle::BatteryElectricCar: 54 kWh pack, 100 kW
// motor drive, regenerative braking blended with the friction brakes): kWh
// per 100 km at the battery and at the wheels, the regenerated share, the
// range, where the cells' energy went. Another shipped cycle by name:
// drive_cycle nedc (udds, ftp75, hwfet, us06).
#include <acausal/acausal.hpp>
#include <acausal/harness/cycle.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>

using namespace acausal;

namespace {

SimulationOptions cycle_options(double duration) {
  SimulationOptions options;
  options.t_end = duration;
  options.output_interval = 0.1;
  options.rtol = 1e-6;
  options.atol = 1e-6;
  options.linear_solver = LinearSolver::klu;
  return options;
}

// Runs the model, printing the report's line and what the run cost.
template <class Test>
Result run(Model& m, const Test& test) {
  const SimulationOptions options = cycle_options(test.cycle.duration);
  const auto start = std::chrono::steady_clock::now();
  Result r = m.compile().simulate(options);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%s\n", harness::cycle_report(r, test).line().c_str());
  std::printf("simulated %.0f s of driving in %.1f s (%ld steps, %zu events)\n", options.t_end, wall,
              r.statistics().steps, r.event_times().size());
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string cycle = argc > 1 ? argv[1] : "wltc3b";
  Model m("drive_cycle");
  harness::CycleTest test = harness::cycle_test(m, cycle);
  Result r = run(m, test);
  Model automatic("automatic_drive_cycle");
  run(automatic, harness::cycle_test(automatic, cycle, harness::Transmission::automatic));
  Model electric("electric_drive_cycle");
  run(electric, harness::electric_cycle_test(electric, cycle));
  std::filesystem::create_directories("out");
  r.write_csv("out/drive_cycle.csv", {"cycle.v_ref", "car.body.v", "driver.throttle", "driver.brake", "driver.clutch",
                                      "car.selector.gear", "car.engine.rpm", "car.engine.tau", "car.engine.fuel_flow"});
  std::printf("trajectory: out/drive_cycle.csv\n");
}
