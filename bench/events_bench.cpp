// The cost of sampled controllers (issue 34, "cheap events"): the flagship
// rear-drive car on magic-formula tires, 20 s launch and brake, without and
// with ABS (four controllers sampled every 10 ms for the whole run), runs
// interleaved in one process so machine drift hits both alike. Prints the
// median wall time of each, their ratio, and the integrator's counts: the
// ABS run's ticks while the pedal is up change nothing the continuous
// equations read and continue the integration (quiet events); those that
// move a brake pressure restart it.
//   events_bench [repeats]
#include <acausal/acausal.hpp>
#include <acausal/harness/rigs.hpp>

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

Simulator compile_car(bool abs) {
  Model m("launch_and_brake");
  auto& car = m.add<vehicle::RearDriveCar>("car", {}, vehicle::CarOptions{.abs = abs});
  for (vehicle::Wheel* w : car.wheels) w->set_parameter("tire_law", vehicle::TireLaw::pacejka);
  harness::drive_launch(m, car, 1.0, 12.0);
  return m.compile();
}
}  // namespace

int main(int argc, char** argv) {
  const int repeats = argc > 1 ? std::atoi(argv[1]) : 7;
  SimulationOptions opt;
  opt.t_end = 20.0;
  opt.output_interval = 0.01;
  Simulator plain = compile_car(false), with_abs = compile_car(true);
  std::vector<double> wall[2];
  SolverStatistics stats[2];
  std::size_t events[2] = {0, 0};
  for (int i = 0; i < repeats; ++i)
    for (int k : {0, 1}) {
      const auto t0 = std::chrono::steady_clock::now();
      Result r = (k ? with_abs : plain).simulate(opt);
      wall[k].push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      stats[k] = r.statistics();
      events[k] = r.event_times().size();
    }
  std::printf("%-10s %10s %8s %8s %18s\n", "case", "median [s]", "steps", "events", "reinitializations");
  for (int k : {0, 1})
    std::printf("%-10s %10.4f %8ld %8zu %18ld\n", k ? "ABS" : "no ABS", median(wall[k]), stats[k].steps, events[k],
                stats[k].reinitializations);
  std::printf("ABS / no ABS: %.2fx (target 1.5x)\n", median(wall[1]) / median(wall[0]));
}
