#include "harness/handling.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

#include "components/blocks/math/gain.hpp"
#include "components/blocks/math/product.hpp"
#include "components/blocks/sources/constant.hpp"
#include "components/blocks/sources/step.hpp"
#include "components/vehicle/control/driver_controller.hpp"
#include "components/vehicle/control/path_follower.hpp"
#include "components/vehicle/control/steering_robot.hpp"
#include "solver/runtime/simulator.hpp"

namespace acausal::harness {

vehicle::PlanarCar& build_maneuver(Model& m, const Maneuver& maneuver) {
  auto& car = m.add<vehicle::PlanarCar>("car", ParameterValues{}, maneuver.options);
  car.set_initial_speed(maneuver.v0);
  if (maneuver.path.empty()) {
    auto& robot = m.add<vehicle::SteeringRobot>("robot", maneuver.robot);
    m.connect(robot.delta, car.steering);
  } else {
    if (!maneuver.robot.empty())
      throw ModelError("build_maneuver: give the steering robot's parameters or a path to follow, not both");
    auto& follower = m.add<vehicle::PathFollower>("follower", {{"L", 2.7}});
    follower.set_path(maneuver.path);
    m.connect(car.x, follower.x);
    m.connect(car.y, follower.y);
    m.connect(car.psi, follower.psi);
    m.connect(car.speed, follower.v);
    // The follower steers the road wheels; the car's input is the steering wheel.
    auto& rack = m.add<blocks::Gain>("steering_ratio", {{"k", 16.0}});
    m.connect(follower.delta, rack.u);
    m.connect(rack.y, car.steering);
  }
  auto& engaged = m.add<blocks::Constant>("clutch_pedal", {{"k", 1.0}});
  m.connect(engaged.y, car.clutch_pedal);
  auto& pedal = m.add<blocks::Step>("brake_pedal", {{"height", maneuver.brake_pedal}, {"startTime", maneuver.brake_start}});
  if (maneuver.hold_speed) {
    auto& target = m.add<blocks::Constant>("v_target", {{"k", maneuver.v0}});
    auto& driver = m.add<vehicle::DriverController>("driver");
    m.connect(target.y, driver.v_ref);
    m.connect(car.speed, driver.v);
    if (std::isfinite(maneuver.hold_speed_until)) {
      // 1 until hold_speed_until, 0 after: the driver's throttle, then none.
      auto& cut = m.add<blocks::Step>("throttle_cut",
                                      {{"height", -1.0}, {"offset", 1.0}, {"startTime", maneuver.hold_speed_until}});
      auto& gate = m.add<blocks::Product>("throttle_gate");
      m.connect(driver.throttle, gate.u1);
      m.connect(cut.y, gate.u2);
      m.connect(gate.y, car.throttle);
    } else {
      m.connect(driver.throttle, car.throttle);
    }
  } else {
    m.connect(m.add<blocks::Constant>("throttle", {{"k", 0.0}}).y, car.throttle);
  }
  m.connect(pedal.y, car.brake_pedal);
  return car;
}

std::vector<Lane> iso3888_2_lanes(double car_width, double x0) {
  if (!(car_width > 0))
    throw ModelError(fmt::format("iso3888_2_lanes: the car's width must be positive, {} given", car_width));
  const double entry = 1.1 * car_width + 0.25, side = car_width + 1.0, exit = std::max(1.3 * car_width + 0.25, 3.0);
  const double offset = entry / 2 + 1.0 + side / 2;  // the side lane's centre: 1 m between the lanes' edges
  return {{x0, x0 + 12.0, 0.0, entry}, {x0 + 25.5, x0 + 36.5, offset, side}, {x0 + 49.0, x0 + 61.0, 0.0, exit}};
}

std::vector<std::pair<double, double>> lane_centre_line(const std::vector<Lane>& lanes, double run_out, double step) {
  if (lanes.empty()) throw ModelError("lane_centre_line: no lanes given");
  if (!(step > 0)) throw ModelError(fmt::format("lane_centre_line: the step must be positive, {} given", step));
  std::vector<std::pair<double, double>> points;
  const double x_last = lanes.back().x_end + run_out;
  for (std::size_t i = 0;; ++i) {
    const double x = static_cast<double>(i) * step;
    if (x >= x_last + step / 2) break;  // as numpy.arange(0, x_last + step/2, step)
    double y = lanes.front().y_centre;
    for (std::size_t k = 0; k + 1 < lanes.size(); ++k) {
      const Lane &a = lanes[k], &b = lanes[k + 1];
      if (x < a.x_end) break;
      const double u = std::clamp((x - a.x_end) / (b.x_start - a.x_end), 0.0, 1.0);
      y = a.y_centre + (b.y_centre - a.y_centre) * (1 - std::cos(std::numbers::pi * u)) / 2;
    }
    points.emplace_back(x, y);
  }
  return points;
}

void split_mu_road(vehicle::PlanarCar& car, double mu_left, double mu_right) {
  // A 2 cm blend across the centre line; x spans any test track.
  const std::vector<double> xs{-1e5, 1e5}, ys{-0.01, 0.01};
  for (vehicle::PlanarWheel* w : car.wheels) w->set_friction_map(xs, ys, {{mu_right, mu_left}, {mu_right, mu_left}});
}

LinearEquivalent linear_equivalent(const Simulator& sim, const std::string& car) {
  const auto p = [&](const std::string& name) { return sim.parameter(car + "." + name); };
  LinearEquivalent e{};
  e.m = p("body.m");
  e.Iz = p("body.Iz");
  e.a = p("body.a");
  e.b = p("body.b");
  e.L = e.a + e.b;
  const double g = p("body.g"), N_front = e.m * g * e.b / e.L / 2, N_rear = e.m * g * e.a / e.L / 2;
  e.C_f = N_front * (p("wheel_fl.cornering_stiffness") + p("wheel_fr.cornering_stiffness"));
  e.C_r = N_rear * (p("wheel_rl.cornering_stiffness") + p("wheel_rr.cornering_stiffness"));
  e.K_us = e.m / e.L * (e.b / e.C_f - e.a / e.C_r);
  return e;
}

namespace {

struct Line {
  double slope, intercept;
};

// Least squares y = slope·x + intercept over the rows where x lies in [low, high].
Line fit(const std::vector<double>& x, const std::vector<double>& y, double low, double high) {
  double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t k = 0; k < x.size(); ++k) {
    if (!(x[k] >= low && x[k] <= high)) continue;
    n += 1;
    sx += x[k];
    sy += y[k];
    sxx += x[k] * x[k];
    sxy += x[k] * y[k];
  }
  if (n < 3) throw ModelError(fmt::format("fewer than 3 rows with the lateral acceleration in [{}, {}] m/s2", low, high));
  const double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
  return {slope, (sy - slope * sx) / n};
}

// The time at which `name` first reaches `level` (rising through it) at or after t0.
double first_crossing(const Result& r, const std::string& name, double level, double t0) {
  const auto& t = r.time();
  const auto& v = r[name];
  for (std::size_t k = 1; k < t.size(); ++k)
    if (t[k] >= t0 && v[k - 1] < level && v[k] >= level)
      return t[k - 1] + (level - v[k - 1]) / (v[k] - v[k - 1]) * (t[k] - t[k - 1]);
  return std::numeric_limits<double>::quiet_NaN();
}

}  // namespace

double value_at_time(const Result& r, const std::string& name, double t) {
  const auto& time = r.time();
  const auto& v = r[name];
  const auto it = std::lower_bound(time.begin(), time.end(), t);
  if (it == time.end()) return v.back();
  const std::size_t k = static_cast<std::size_t>(it - time.begin());
  if (k == 0 || time[k] == t) return v[k];
  return v[k - 1] + (t - time[k - 1]) / (time[k] - time[k - 1]) * (v[k] - v[k - 1]);
}

double understeer_gradient(const Result& r, double L, double a_low, double a_high, const std::string& car) {
  const auto& delta = r[car + ".steering_gear.delta"];
  const auto& yaw = r[car + ".r"];
  const auto& v = r[car + ".v_x"];
  const auto& a_y = r[car + ".a_y"];
  std::vector<double> dynamic(delta.size());
  for (std::size_t k = 0; k < delta.size(); ++k) dynamic[k] = delta[k] - L * yaw[k] / v[k];
  return fit(a_y, dynamic, a_low, a_high).slope;
}

double steer_for_lateral_acceleration(const Result& r, double a_y, double a_low, double a_high,
                                      const std::string& car) {
  const Line line = fit(r[car + ".a_y"], r[car + ".steering_gear.steering_wheel"], a_low, a_high);
  return line.slope * a_y + line.intercept;
}

StepSteerFigures step_steer_figures(const Result& r, double amplitude, const std::string& car,
                                    const std::string& robot) {
  const auto& time = r.time();
  const double t_end = time.back();
  const double t_half = first_crossing(r, robot + ".delta", 0.5 * amplitude, 0.0);
  const auto& yaw = r[car + ".r"];
  double steady = 0, n = 0, peak = 0, t_peak = t_half;
  for (std::size_t k = 0; k < time.size(); ++k) {
    if (time[k] >= t_end - 1.0) steady += yaw[k], n += 1;
    if (time[k] >= t_half && yaw[k] > peak) peak = yaw[k], t_peak = time[k];
  }
  steady /= n;
  StepSteerFigures f{};
  f.steady_yaw_rate = steady;
  f.steady_gain = steady / amplitude;
  f.response_time = first_crossing(r, car + ".r", 0.9 * steady, t_half) - t_half;
  f.peak_response_time = t_peak - t_half;
  f.overshoot = (peak - steady) / steady;
  return f;
}

SineWithDwellFigures sine_with_dwell_figures(const Result& r, double start_time, double frequency, double dwell,
                                             const std::string& car) {
  const double period = 1.0 / frequency, completion = start_time + period + dwell;
  const auto& time = r.time();
  const auto& yaw = r[car + ".r"];
  // The steer reverses at start + T/2; its second (negative) lobe drives the
  // yaw rate's first peak of that sign, which the ratios are taken against.
  double peak = 0;
  for (std::size_t k = 0; k < time.size(); ++k)
    if (time[k] >= start_time + 0.5 * period && time[k] <= completion + 1.75 && yaw[k] < peak) peak = yaw[k];
  SineWithDwellFigures f{};
  f.peak_yaw_rate = peak;
  f.ratio_1_00 = value_at_time(r, car + ".r", completion + 1.0) / peak;
  f.ratio_1_75 = value_at_time(r, car + ".r", completion + 1.75) / peak;
  f.lateral_displacement = value_at_time(r, car + ".y", start_time + 1.07) - value_at_time(r, car + ".y", start_time);
  return f;
}

}  // namespace acausal::harness
