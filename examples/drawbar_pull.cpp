// Drawbar pull vs slip (issue 38): one rear wheel of the Tractor (a rigid
// SoftSoilWheel, 0.8 m radius, 0.45 m wide, Wong–Reece stresses) under its
// share of the static rear axle load (14.1 kN), the hull held at 1 m/s, the
// hub speeding up so that the slip sweeps 0..0.8 over 8 s: the rig of
// tests/test_tractor.cpp's drawbar test. Prints, per soil (sandy loam, dry
// sand, clayey soil of data/soils/soils.csv), the peak drawbar pull (N and as
// a share of the load) with its slip, and the best tractive efficiency
// DP·v/(T·ω) with its slip. Another shipped soil by name: drawbar_pull lete_sand.
#include <acausal/acausal.hpp>
#include <acausal/harness/rigs.hpp>

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

using namespace acausal;
using namespace acausal::vehicle;

namespace {

constexpr double radius = 0.8, width = 0.45, hull_v = 1.0, max_slip = 0.8, sweep_time = 8.0;
const double load_W = 0.5 * 4500 * 9.81 * 1.6 / 2.5;  // half the static rear axle load, 14.1 kN

struct Curve {
  double peak_pull = -1e300, slip_at_peak = 0, best_eta = 0, slip_at_best_eta = 0;
};

Curve sweep(const Soil& soil) {
  Model m("drawbar_pull");
  auto& wheel = m.add<SoftSoilWheel>("wheel", with_soil(soil, {{"radius", radius}, {"b", width}, {"J", 40.0}}, true));
  wheel.guess_sinkage(load_W);
  // ω·r = v/(1 - slip): the slip rises from 0 to max_slip (not linearly in time).
  harness::soil_contact_bench(m, wheel.flange_rot, wheel.contact, load_W, hull_v, hull_v / radius,
                              hull_v / (radius * (1.0 - max_slip)), sweep_time);
  SimulationOptions options;
  options.t_end = sweep_time;
  options.output_interval = 0.02;
  options.rtol = 1e-6;
  options.atol = 1e-8;
  const Result r = m.compile().simulate(options);
  const auto slip = r["wheel.slip"], DP = r["wheel.DP"], T = r["wheel.T_soil"];
  const auto omega = r["wheel.omega"], v = r["wheel.v"];
  Curve curve;
  for (std::size_t k = 0; k < r.size(); ++k) {
    if (DP[k] > curve.peak_pull) curve.peak_pull = DP[k], curve.slip_at_peak = slip[k];
    const double input = T[k] * omega[k];
    if (DP[k] > 0 && input > 0) {
      const double eta = DP[k] * v[k] / input;  // tractive efficiency: drawbar power / axle power
      if (eta > curve.best_eta) curve.best_eta = eta, curve.slip_at_best_eta = slip[k];
    }
  }
  return curve;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> soils = {"sandy_loam", "dry_sand", "clayey_soil"};
  if (argc > 1) soils.assign(argv + 1, argv + argc);
  const auto start = std::chrono::steady_clock::now();
  int status = 0;
  for (std::size_t k = 0; k < soils.size(); ++k) {
    try {
      const Curve c = sweep(soil(soils[k]));
      std::printf(
          "drawbar pull, %s (rear tractor wheel r %.1f m, b %.2f m, W %.1f kN, %.0f m/s, slip 0..%.1f): peak %.0f N "
          "(%.2f W) at slip %.2f; best tractive efficiency %.2f at slip %.2f\n",
          soils[k].c_str(), radius, width, load_W / 1e3, hull_v, max_slip, c.peak_pull, c.peak_pull / load_W,
          c.slip_at_peak, c.best_eta, c.slip_at_best_eta);
    } catch (const std::exception& e) {
      std::printf("drawbar pull, %s: failed: %s\n", soils[k].c_str(), e.what());
      if (k == 0) status = 1;  // the first soil is the line `make run` promises
    }
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("drawbar-pull sweeps of %zu soils in %.2f s\n", soils.size(), wall);
  return status;
}
