// The flagship load-transfer experiment: the library's rear-drive car
// (vehicle::RearDriveCar) launches at full throttle on dry asphalt, then
// brakes hard; once more with an ice patch under the rear wheels; and on
// magic-formula tires, whose force peaks near 18 % slip, with brakes that lock
// and with ABS. Prints a summary table and writes the trajectories to out/.
#include <acausal/acausal.hpp>
#include <acausal/harness/rigs.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>

using namespace acausal;

namespace {

constexpr double brake_time = 12.0;  // s: lift, declutch, full brake pedal

struct Summary {
  double t_100 = NAN;              // s, 0-100 km/h
  double peak_rear_load = 0;       // N, axle
  double peak_transfer = 0;        // N, |delta_N|
  double peak_launch_slip = 0;     // largest kappa of the rear wheels while launching above 5 m/s
  double deepest_brake_slip = 0;   // most negative kappa of any wheel while braking above 5 m/s
  double stopping_distance = NAN;  // m, from brake_time to standstill
};

Summary summarize(const Result& r) {
  Summary s;
  const auto& t = r.time();
  auto v = r["car.body.v"], x = r["car.body.s"], n_rear = r["car.body.N_rear"], dn = r["car.body.delta_N"];
  double x_brake = NAN;
  for (std::size_t k = 0; k < r.size(); ++k) {
    if (std::isnan(s.t_100) && v[k] >= 100 / 3.6) s.t_100 = t[k];
    s.peak_rear_load = std::max(s.peak_rear_load, n_rear[k]);
    s.peak_transfer = std::max(s.peak_transfer, std::fabs(dn[k]));
    if (std::isnan(x_brake) && t[k] >= brake_time) x_brake = x[k];
    if (!std::isnan(x_brake) && std::isnan(s.stopping_distance) && v[k] < 0.05) s.stopping_distance = x[k] - x_brake;
  }
  for (const char* corner : {"fl", "fr", "rl", "rr"}) {
    auto kappa = r[std::string("car.wheel_") + corner + ".kappa"];
    for (std::size_t k = 0; k < r.size(); ++k) {
      if (t[k] < brake_time && v[k] > 5.0 && corner[0] == 'r') s.peak_launch_slip = std::max(s.peak_launch_slip, kappa[k]);
      if (t[k] >= brake_time && v[k] > 5.0) s.deepest_brake_slip = std::min(s.deepest_brake_slip, kappa[k]);
    }
  }
  return s;
}

// The car with the open-loop launch-and-brake driver of the harness.
Simulator compile_car(vehicle::CarOptions options, int tire_law) {
  Model m("launch_and_brake");
  auto& car = m.add<vehicle::RearDriveCar>("car", {}, options);
  for (vehicle::Wheel* w : car.wheels) w->set_parameter("tire_law", tire_law);
  harness::drive_launch(m, car, 1.0, brake_time);
  return m.compile();
}

}  // namespace

int main() {
  SimulationOptions opt;
  opt.t_end = 20.0;
  opt.output_interval = 0.01;
  opt.rtol = 1e-6;
  std::filesystem::create_directories("out");
  Simulator tanh_car = compile_car({}, vehicle::TireLaw::tanh);
  Simulator mf_car = compile_car({}, vehicle::TireLaw::pacejka);
  Simulator mf_abs_car = compile_car({.abs = true}, vehicle::TireLaw::pacejka);

  std::printf("%-30s %9s %13s %12s %11s %12s %12s %8s\n", "case", "0-100 [s]", "rear load [N]", "transfer [N]",
              "launch slip", "brake slip", "stopping [m]", "wall [s]");
  struct Case {
    const char* name;
    const char* file;
    Simulator* sim;
    double patch_start, patch_end;
  };
  for (const Case& c : {Case{"dry", "dry", &tanh_car, 0, 0}, Case{"ice under rear, 5-40 m", "ice", &tanh_car, 5, 40},
                        Case{"dry, magic formula, locking", "mf_locking", &mf_car, 0, 0},
                        Case{"dry, magic formula, ABS", "mf_abs", &mf_abs_car, 0, 0}}) {
    for (const char* w : {"car.wheel_rl", "car.wheel_rr"}) {
      c.sim->set_parameter(std::string(w) + ".patch_start", c.patch_start);
      c.sim->set_parameter(std::string(w) + ".patch_end", c.patch_end);
    }
    Result r = c.sim->simulate(opt);
    Summary s = summarize(r);
    char t_100[32] = "-";
    if (!std::isnan(s.t_100)) std::snprintf(t_100, sizeof t_100, "%.2f", s.t_100);
    std::printf("%-30s %9s %13.0f %12.0f %11.3f %12.3f %12.1f %8.2f\n", c.name, t_100, s.peak_rear_load,
                s.peak_transfer, s.peak_launch_slip, s.deepest_brake_slip, s.stopping_distance,
                r.statistics().integration_seconds);
    r.write_csv(std::string("out/launch_") + c.file + ".csv",
                {"car.body.s", "car.body.v", "car.body.a_x", "car.body.N_front", "car.body.N_rear", "car.body.delta_N",
                 "car.wheel_rl.F_traction", "car.wheel_rl.F_max", "car.wheel_rl.kappa", "car.wheel_fl.F_traction",
                 "car.wheel_fl.F_max", "car.wheel_fl.kappa", "car.engine.rpm", "car.gearbox.ratio", "car.clutch.w_rel",
                 "car.brake_fl.P_dissipated", "car.brake_fl.brake_input"});
  }
  std::printf("trajectories: out/launch_{dry,ice,mf_locking,mf_abs}.csv\n");
}
