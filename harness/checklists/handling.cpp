// The planar car (vehicle::PlanarCar) on the standard handling maneuvers
// (harness/handling.hpp): ISO 4138, ISO 7401, FMVSS 126 with and without ESC,
// split-μ braking. Every rig also holds the tire invariant |F| ≤ F_peak.
#include <fmt/format.h>

#include <cmath>
#include <numbers>

#include "components/blocks/sources/constant.hpp"
#include "components/vehicle/control/steering_robot.hpp"
#include "components/vehicle/planar/single_track.hpp"
#include "harness/checklists.hpp"
#include "harness/handling.hpp"
#include "solver/runtime/simulator.hpp"

namespace acausal::harness {

namespace {

constexpr double deg = std::numbers::pi / 180.0;
constexpr double v0 = 80.0 / 3.6;
// The default PlanarCar's steering-wheel angle for 0.3 g at 80 km/h, from its
// slowly increasing steer (examples/handling prints it): FMVSS 126 scales
// the sine with dwell by it.
constexpr double A_03g = 26.0 * deg;

// |F| ≤ F_peak on every wheel at every row.
void tire_limits(Rig& rig, vehicle::PlanarCar& car) {
  for (vehicle::PlanarWheel* w : car.wheels)
    rig.check(bound(w->F_total, 0.0, w->F_peak, 1e-9).titled(w->name() + ": combined force within the tire's peak"));
}

Check custom(std::string title, double tolerance, Check::Evaluate evaluate) {
  return Check(std::move(title), tolerance, std::move(evaluate));
}

}  // namespace

Checklist handling_checklist() {
  Checklist list("handling", "Planar car: ISO 4138, ISO 7401, FMVSS 126, split-μ braking");

  // ISO 4138 (constant speed, slowly increasing steer, 13.5°/s at the wheel).
  SimulationOptions handling_options = run_options(12.0, 0.01);
  handling_options.rtol = 1e-6;
  handling_options.atol = 1e-8;
  Rig& slow = list.rig("slowly_increasing_steer", "80 km/h held by the driver, steering wheel ramped at 13.5°/s",
                       handling_options);
  auto& car = build_maneuver(slow.model(), {.v0 = v0, .hold_speed = true,
                                            .robot = {{"profile", vehicle::SteeringProfile::ramp},
                                                      {"amplitude", 180 * deg}, {"rate", 13.5 * deg},
                                                      {"start_time", 1.0}}});
  tire_limits(slow, car);
  auto& body = car.body;
  // What the front tires carry: the outer one gains roll_share·m·a_y·h/track_f.
  slow.check(relation(car.wheels[1]->load - car.wheels[0]->load,
                      2 * body.roll_share_front * body.m * car.a_y * body.h_cg / body.track_f, 1e-6, 1.0)
                 .titled("front wheels' loads differ by 2·share·m·a_y·h/track_f")
                 .plotting({car.wheels[0]->load, car.wheels[1]->load}));
  slow.check(relation(car.wheels[0]->load + car.wheels[1]->load + car.wheels[2]->load + car.wheels[3]->load,
                      body.m * body.g, 1e-6)
                 .titled("the wheels carry the car's weight"));
  // 6.6 % measured: the four-wheel car is not the bicycle (tanh saturation
  // over the fit, Ackermann, the rear tires' drive slip); not yet explained further.
  slow.check(custom("ISO 4138: understeer gradient within 10 % of (m/L)(b/C_f − a/C_r) at the run's axle loads",
                    0.10, [](const Result& r, const std::vector<std::size_t>&, CheckResult& c) {
                      const double L = 2.7, m = 1500, a = 1.2, b = 1.5;
                      const double K = understeer_gradient(r, L, 0.5, 2.0);
                      // The drive force that holds the speed moves load to the rear axle.
                      double Nf = 0, Nr = 0, n = 0;
                      const auto& a_y = r["car.a_y"];
                      for (std::size_t k = 0; k < a_y.size(); ++k)
                        if (a_y[k] >= 0.5 && a_y[k] <= 2.0)
                          Nf += r["car.body.N_front"][k], Nr += r["car.body.N_rear"][k], n += 1;
                      const double C_f = 11.0 * Nf / n, C_r = 16.0 * Nr / n, K_us = m / L * (b / C_f - a / C_r);
                      c.error = std::fabs(K - K_us) / K_us;
                      c.passed = c.error <= c.tolerance;
                      c.message = fmt::format("K = {:.5f} rad/(m/s2) ({:.2f} deg/g) against {:.5f} from the axle loads",
                                              K, K / deg * 9.81, K_us);
                    }));
  slow.energy_balance(1e-4);

  // ISO 7401 step steer to 4 m/s², against the linear single-track model.
  const double A_4 = A_03g * 4.0 / (0.3 * 9.81);
  Rig& step = list.rig("step_steer", "80 km/h held, steering wheel step of 35° in 0.15 s", run_options(5.0, 0.005));
  auto& stepped = build_maneuver(step.model(), {.v0 = v0, .hold_speed = true,
                                                .robot = {{"profile", vehicle::SteeringProfile::step},
                                                          {"amplitude", A_4}, {"rate", A_4 / 0.15},
                                                          {"start_time", 1.0}}});
  tire_limits(step, stepped);
  step.check(custom("ISO 7401: steady yaw gain and response time within 10 % of the linear single-track's", 0.10,
                    [A_4](const Result& r, const std::vector<std::size_t>&, CheckResult& c) {
                      const StepSteerFigures car_figures = step_steer_figures(r, A_4);
                      Model ref("single_track");
                      const double Nf = r["car.body.N_front"].back(), Nr = r["car.body.N_rear"].back();
                      auto& st = ref.add<vehicle::SingleTrack>(
                          "car", {{"m", 1500}, {"Iz", 2500}, {"l_f", 1.2}, {"l_r", 1.5}, {"C_f", 11.0 * Nf},
                                  {"C_r", 16.0 * Nr}});
                      auto& robot = ref.add<vehicle::SteeringRobot>(
                          "robot", {{"profile", vehicle::SteeringProfile::step}, {"amplitude", A_4 / 16.0},
                                    {"rate", A_4 / 16.0 / 0.15}, {"start_time", 1.0}});
                      auto& speed = ref.add<blocks::Constant>("speed", {{"k", v0}});
                      ref.connect(robot.delta, st.delta);
                      ref.connect(speed.y, st.v);
                      const Result rr = ref.compile().simulate(run_options(5.0, 0.005));
                      const StepSteerFigures single = step_steer_figures(rr, A_4 / 16.0);
                      const double gain_error = std::fabs(car_figures.steady_gain * 16.0 - single.steady_gain) /
                                                single.steady_gain;
                      const double time_error = std::fabs(car_figures.response_time - single.response_time) /
                                                single.response_time;
                      c.error = std::max(gain_error, time_error);
                      c.passed = c.error <= c.tolerance;
                      c.message = fmt::format(
                          "response time {:.3f} s (single track {:.3f} s), peak {:.3f} s, overshoot {:.1f} %, "
                          "yaw gain {:.3f} 1/s per road-wheel rad ({:.3f})",
                          car_figures.response_time, single.response_time, car_figures.peak_response_time,
                          100 * car_figures.overshoot, car_figures.steady_gain * 16.0, single.steady_gain);
                    }));

  // FMVSS 126 sine with dwell at 6.5 × A(0.3 g), coasting from 80 km/h.
  for (bool esc : {false, true}) {
    // Steps of at most 1 ms at rtol 1e-6: with ESC, longer steps or tighter
    // tolerances end in a Newton failure (docs/vehicle.md, known defects).
    SimulationOptions dwell_options = run_options(6.0, 0.005);
    dwell_options.rtol = 1e-6;
    dwell_options.atol = 1e-8;
    dwell_options.max_step = 1e-3;
    Rig& swd = list.rig(esc ? "sine_with_dwell_esc" : "sine_with_dwell",
                        fmt::format("80 km/h coasting, 0.7 Hz sine with 0.5 s dwell, {:.0f}° at the steering wheel, {}",
                                    6.5 * A_03g / deg, esc ? "with ESC" : "without ESC"),
                        dwell_options);
    auto& dwell_car = build_maneuver(swd.model(), {.v0 = v0, .options = {.esc = esc},
                                                   .robot = {{"profile", vehicle::SteeringProfile::sine_with_dwell},
                                                             {"amplitude", 6.5 * A_03g}, {"start_time", 1.0}}});
    tire_limits(swd, dwell_car);
    swd.check(custom(esc ? "FMVSS 126 with ESC: yaw rate ≤ 35 % of its peak 1.0 s and ≤ 20 % 1.75 s after the steer, "
                           "lateral displacement ≥ 1.83 m at 1.07 s"
                         : "FMVSS 126 without ESC: the car fails the yaw-rate criteria (it spins)",
                     0.0, [esc](const Result& r, const std::vector<std::size_t>&, CheckResult& c) {
                       const SineWithDwellFigures f = sine_with_dwell_figures(r, 1.0);
                       c.passed = esc ? f.stable() && f.responsive() : !f.stable();
                       c.error = f.ratio_1_75;
                       c.message = fmt::format("yaw rate {:.0f} % of its peak {:.3f} rad/s at 1.0 s, {:.0f} % at 1.75 s; "
                                               "lateral displacement {:.2f} m",
                                               100 * f.ratio_1_00, f.peak_yaw_rate, 100 * f.ratio_1_75,
                                               f.lateral_displacement);
                     }));
  }

  // Split-μ braking with ABS: the high-μ side brakes harder and yaws the car.
  // Until 3 s after the pedal (the car near 5 m/s): the stop itself, four
  // locked brakes on tires without relaxation, is singular (docs/vehicle.md).
  Rig& split = list.rig("split_mu_braking", "80 km/h, full brake pedal with ABS, μ 0.9 left and 0.2 right, no steer",
                        run_options(3.5, 0.01));
  auto& split_car = build_maneuver(split.model(), {.v0 = v0, .options = {.abs = true},
                                                   .robot = {{"amplitude", 0.0}}, .brake_pedal = 1.0,
                                                   .brake_start = 0.5});
  split_mu_road(split_car, 0.9, 0.2);
  tire_limits(split, split_car);
  split.check(sign(split_car.psi, 1, 1e-9).titled("the car yaws toward the high-μ side (left)"));
  return list;
}

}  // namespace acausal::harness
