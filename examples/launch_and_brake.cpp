// The flagship load-transfer experiment: the rear-drive car launches at full
// throttle on dry asphalt, then brakes hard; once more with an ice patch under
// the rear wheels. Prints a summary table and writes the trajectories to out/.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "rear_drive_car_model.hpp"

using namespace acausal;

namespace {

struct Summary {
  double t_100 = NAN;            // s, 0-100 km/h
  double peak_rear_load = 0;     // N, axle
  double peak_transfer = 0;      // N, |delta_N|
  double peak_slip = 0;          // |S_a| of the rear wheels during the launch
  double stopping_distance = NAN;  // m, from brake_time to standstill
};

Summary summarize(const Result& r, double brake_time) {
  Summary s;
  const auto& t = r.time();
  auto v = r["body.v"], x = r["body.s"], n_rear = r["body.N_rear"], dn = r["body.delta_N"];
  auto slip_l = r["wheel_rl.S_a"], slip_r = r["wheel_rr.S_a"];
  double x_brake = NAN;
  for (std::size_t k = 0; k < r.size(); ++k) {
    if (std::isnan(s.t_100) && v[k] >= 100 / 3.6) s.t_100 = t[k];
    s.peak_rear_load = std::max(s.peak_rear_load, n_rear[k]);
    s.peak_transfer = std::max(s.peak_transfer, std::fabs(dn[k]));
    if (t[k] < brake_time) s.peak_slip = std::max({s.peak_slip, std::fabs(slip_l[k]), std::fabs(slip_r[k])});
    if (std::isnan(x_brake) && t[k] >= brake_time) x_brake = x[k];
    if (!std::isnan(x_brake) && std::isnan(s.stopping_distance) && v[k] < 0.05) s.stopping_distance = x[k] - x_brake;
  }
  return s;
}

}  // namespace

int main() {
  examples::LaunchScenario scenario;
  Model m("rear_drive_car");
  examples::build_rear_drive_car(m, scenario);
  Simulator sim = m.compile();
  SimulationOptions opt;
  opt.t_end = 20.0;
  opt.output_interval = 0.01;
  opt.rtol = 1e-6;
  std::filesystem::create_directories("out");

  std::printf("%-22s %11s %14s %14s %10s %14s %10s\n", "case", "0-100 [s]", "rear load [N]", "transfer [N]",
              "peak slip", "stopping [m]", "wall [s]");
  struct Case {
    const char* name;
    double patch_start, patch_end;
  };
  for (const Case& c : {Case{"dry", 0, 0}, Case{"ice under rear, 5-40 m", 5, 40}}) {
    for (const char* w : {"wheel_rl", "wheel_rr"}) {
      sim.set_parameter(std::string(w) + ".patch_start", c.patch_start);
      sim.set_parameter(std::string(w) + ".patch_end", c.patch_end);
    }
    Result r = sim.simulate(opt);
    Summary s = summarize(r, scenario.brake_time);
    char t_100[32] = "not reached";
    if (!std::isnan(s.t_100)) std::snprintf(t_100, sizeof t_100, "%.2f", s.t_100);
    std::printf("%-22s %11s %14.0f %14.0f %10.3f %14.1f %10.2f\n", c.name, t_100, s.peak_rear_load, s.peak_transfer,
                s.peak_slip, s.stopping_distance, r.statistics().integration_seconds);
    std::string path = std::string("out/launch_") + (c.patch_end > 0 ? "ice" : "dry") + ".csv";
    r.write_csv(path, {"body.s", "body.v", "body.a_x", "body.N_front", "body.N_rear", "body.delta_N",
                       "wheel_rl.F_traction", "wheel_rl.F_max", "wheel_rl.S_a", "wheel_fl.F_traction",
                       "wheel_fl.F_max", "engine.rpm", "gearbox.ratio", "clutch.w_rel", "brake_fl.P_dissipated"});
  }
  std::printf("trajectories: out/launch_dry.csv, out/launch_ice.csv\n");
}
