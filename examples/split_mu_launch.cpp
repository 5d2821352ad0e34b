// Split-μ launch through an open differential: the left rear wheel stands on
// ice (μ = 0.1), the right one on asphalt (μ = 0.9). The open differential
// gives both sides the same torque, so the ice side limits it: the left wheel
// spins, the right one grips but can only carry as much as the ice allows.
#include <cstdio>
#include <filesystem>

#include "rear_drive_car_model.hpp"

using namespace acausal;

int main() {
  Model m("split_mu");
  examples::build_rear_drive_car(m);
  Simulator sim = m.compile();
  SimulationOptions opt;
  opt.t_end = 5.0;
  opt.output_interval = 0.01;
  Result dry = sim.simulate(opt);
  sim.set_parameter("wheel_rl.patch_start", -1e6);  // ice everywhere under the left rear wheel
  sim.set_parameter("wheel_rl.patch_end", 1e6);
  Result split = sim.simulate(opt);

  std::printf("%-10s %12s %12s %12s %14s %14s\n", "road", "v(5 s) [m/s]", "slip rl", "slip rr", "tau rl [N.m]",
              "tau rr [N.m]");
  for (auto [name, r] : {std::pair{"dry", &dry}, std::pair{"split-mu", &split}}) {
    const std::size_t k = r->size() - 1;
    std::printf("%-10s %12.2f %12.3f %12.3f %14.1f %14.1f\n", name, (*r)["body.v"][k], (*r)["wheel_rl.S_a"][k],
                (*r)["wheel_rr.S_a"][k], (*r)["differential.tau_left"][k], (*r)["differential.tau_right"][k]);
  }
  std::filesystem::create_directories("out");
  split.write_csv("out/split_mu.csv", {"body.v", "wheel_rl.omega", "wheel_rr.omega", "wheel_rl.S_a", "wheel_rr.S_a",
                                       "wheel_rl.F_traction", "wheel_rr.F_traction", "differential.tau_left",
                                       "differential.tau_right"});
  std::printf("trajectory: out/split_mu.csv\n");
}
