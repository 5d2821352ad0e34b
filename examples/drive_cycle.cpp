// Drive cycle: a 1250 kg compact (vehicle::MappedCar: a 1.6 L-class mapped
// engine with its BSFC map and idle governor, a shift map with kick-down)
// follows the WLTC class 3b with a CycleDriver (feed-forward, PI on a
// look-ahead, clutch at launches and stops). Prints the cycle line: distance,
// fuel, CO2, tractive energy, where the fuel's energy went, and whether the
// speed stayed within the WLTP tolerance band. Another shipped cycle by name:
// drive_cycle nedc (udds, ftp75, hwfet, us06).
#include <acausal/acausal.hpp>
#include <acausal/harness/cycle.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>

using namespace acausal;

int main(int argc, char** argv) {
  Model m("drive_cycle");
  harness::CycleTest test = harness::cycle_test(m, argc > 1 ? argv[1] : "wltc3b");
  SimulationOptions options;
  options.t_end = test.cycle.duration;
  options.output_interval = 0.1;
  options.rtol = 1e-6;
  options.atol = 1e-6;
  options.linear_solver = LinearSolver::klu;
  const auto start = std::chrono::steady_clock::now();
  Result r = m.compile().simulate(options);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%s\n", harness::cycle_report(r, test).line().c_str());
  std::printf("simulated %.0f s of driving in %.1f s (%ld steps, %zu events)\n", options.t_end, wall,
              r.statistics().steps, r.event_times().size());
  std::filesystem::create_directories("out");
  r.write_csv("out/drive_cycle.csv", {"cycle.v_ref", "car.body.v", "driver.throttle", "driver.brake", "driver.clutch",
                                      "car.selector.gear", "car.engine.rpm", "car.engine.tau", "car.engine.fuel_flow"});
  std::printf("trajectory: out/drive_cycle.csv\n");
}
