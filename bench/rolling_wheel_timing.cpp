// Times Simulator::simulate for the rolling-wheel model from C++, the
// reference for the Python overhead test (tests/python/test_speed.py).
//   rolling_wheel_timing [repeats]  -> prints the median seconds of one simulate()
#include "examples/rolling_wheel_model.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace acausal;

int main(int argc, char** argv) {
  int repeats = argc > 1 ? std::atoi(argv[1]) : 21;
  Model m("rolling_wheel");
  examples::build_rolling_wheel(m);
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
