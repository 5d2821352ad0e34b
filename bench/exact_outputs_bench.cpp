// The cost of exact outputs (SimulationOptions::exact_outputs): the flagship
// rear-drive car, 20 s launch and brake, simulated with and without them,
// interleaved in one process so machine drift hits both alike.
//   exact_outputs_bench [repeats]  -> median seconds per simulate() and the ratio
#include "tests/flat_car.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace acausal;

namespace {
double median(std::vector<double> v) {
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}
}  // namespace

int main(int argc, char** argv) {
  const int repeats = argc > 1 ? std::atoi(argv[1]) : 15;
  Model m("launch_and_brake");
  test::build_rear_drive_car(m);
  Simulator sim = m.compile();
  std::printf("%-16s %10s %12s %12s %8s %10s %12s\n", "output_interval", "rows", "interpolated", "exact", "ratio",
              "iter/row", "factor/row");
  for (double interval : {1e-2, 1e-3}) {
    SimulationOptions opt;
    opt.t_end = 20.0;
    opt.output_interval = interval;
    std::vector<double> plain, exact;
    SolverStatistics stats;
    std::size_t rows = 0;
    for (int i = 0; i < repeats; ++i)
      for (bool on : {false, true}) {
        opt.exact_outputs = on;
        auto t0 = std::chrono::steady_clock::now();
        Result r = sim.simulate(opt);
        (on ? exact : plain).push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        if (on) stats = r.statistics(), rows = r.size();
      }
    std::printf("%-16g %10zu %12.6f %12.6f %8.3f %10.2f %12.4f\n", interval, rows, median(plain), median(exact),
                median(exact) / median(plain), double(stats.exact_iterations) / rows,
                double(stats.exact_factorizations) / rows);
  }
}
