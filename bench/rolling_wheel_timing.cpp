// Times Simulator::simulate for the rolling-wheel model from C++, the
// reference for the Python overhead test (tests/python/test_speed.py).
//   rolling_wheel_timing [repeats]  -> prints the median seconds of one simulate()
#include <acausal/acausal.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace acausal;

int main(int argc, char** argv) {
  int repeats = argc > 1 ? std::atoi(argv[1]) : 21;
  Model m("rolling_wheel");
  auto& torque = m.add<rotational::TorqueStep>("torqueStep", {{"stepTorque", 10.0}, {"startTime", 0.1}});
  auto& inertia = m.add<rotational::Inertia>("inertia", {{"J", 1.0}});
  auto& wheel = m.add<rotational::IdealRollingWheel>("wheel", {{"radius", 1.0}});
  auto& mass = m.add<translational::Mass>("mass", {{"m", 1.0}});
  auto& drag = m.add<translational::QuadraticSpeedDependentForce>("drag", {{"f_nominal", -10.0}, {"v_nominal", 5.0}});
  m.connect(torque.flange, inertia.flange_a);
  m.connect(inertia.flange_b, wheel.flangeR);
  m.connect(wheel.flangeT, mass.flange_a);
  m.connect(mass.flange_b, drag.flange);
  m.set_start("inertia.phi", 0.0);
  m.set_start("inertia.w", 0.0);
  Simulator sim = m.compile();
  SimulationOptions opt;
  opt.t_end = 5.0;
  opt.output_interval = 1e-3;
  std::vector<double> times;
  for (int i = 0; i < repeats; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    Result r = sim.simulate(opt);
    times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
  std::printf("%.9f\n", times[times.size() / 2]);
}
