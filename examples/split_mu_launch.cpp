// Split-μ launch through an open differential: the left rear wheel stands on
// ice (μ = 0.1), the right one on asphalt (μ = 0.9). The open differential
// gives both sides the same torque, so the ice side limits it: the left wheel
// spins, the right one grips but can only carry as much as the ice allows.
#include <acausal/acausal.hpp>
#include <acausal/harness/rigs.hpp>
#include <cstdio>
#include <filesystem>

using namespace acausal;

int main() {
  Model m("split_mu");
  auto& car = m.add<vehicle::RearDriveCar>("car");
  harness::drive_launch(m, car);
  Simulator sim = m.compile();
  SimulationOptions opt;
  opt.t_end = 5.0;
  opt.output_interval = 0.01;
  Result dry = sim.simulate(opt);
  sim.set_parameter("car.wheel_rl.patch_start",
                    -1e6);  // ice everywhere under the left rear wheel
  sim.set_parameter("car.wheel_rl.patch_end", 1e6);
  Result split = sim.simulate(opt);

  std::printf("%-10s %12s %12s %12s %14s %14s\n", "road", "v(5 s) [m/s]", "slip rl", "slip rr", "tau rl [N.m]",
              "tau rr [N.m]");
  for (auto [name, r] : {std::pair{"dry", &dry}, std::pair{"split-mu", &split}}) {
    const std::size_t k = r->size() - 1;
    std::printf("%-10s %12.2f %12.3f %12.3f %14.1f %14.1f\n", name, (*r)["car.body.v"][k],
                (*r)["car.wheel_rl.kappa"][k], (*r)["car.wheel_rr.kappa"][k], (*r)["car.differential.tau_left"][k],
                (*r)["car.differential.tau_right"][k]);
  }
  std::filesystem::create_directories("out");
  split.write_csv("out/split_mu.csv", {"car.body.v", "car.wheel_rl.omega", "car.wheel_rr.omega", "car.wheel_rl.kappa",
                                       "car.wheel_rr.kappa", "car.wheel_rl.F_traction", "car.wheel_rr.F_traction",
                                       "car.differential.tau_left", "car.differential.tau_right"});
  std::printf("trajectory: out/split_mu.csv\n");
}
