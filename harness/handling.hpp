// Handling maneuvers of the planar car (vehicle::PlanarCar) as the standards
// define them, and the figures each standard reads from a run:
//   ISO 4138 steady-state circular driving (constant speed, slowly increasing
//   steer): the understeer gradient from the slope of steer over a_y;
//   ISO 7401 step steer: response time, peak response time, overshoot, gain;
//   NHTSA FMVSS No. 126 sine with dwell: yaw-rate ratios 1.0 s and 1.75 s
//   after the steer completes, lateral displacement 1.07 s after it begins;
//   split-μ braking: the yaw the uneven brake forces produce;
//   ISO 3888-2 obstacle-avoidance double lane change: the coned lanes and
//   their centre line for a PathFollower;
//   braking in a turn (ISO 7975): hold_speed_until lets go of the throttle.
#pragma once

#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "components/vehicle/cars/planar_car.hpp"
#include "components/vehicle/control/steering_robot.hpp"
#include "solver/modeling/model.hpp"
#include "solver/runtime/result.hpp"

namespace acausal::harness {

/// How a maneuver drives the car named "car" of its model: at v0 [m/s]
/// straight ahead, in gear with the clutch engaged; the steering wheel from
/// a SteeringRobot "robot" (its parameters in `robot`, angles at the steering
/// wheel), or, when `path` is given, from a PathFollower "follower" (pure
/// pursuit along the path's points (x, y) [m], fed with the car's CG pose and
/// speed, wheelbase 2.7 m, its road-wheel angle through a Gain
/// "steering_ratio" of 16, the car's steering ratio); with hold_speed a
/// DriverController "driver" holds v0 with the throttle (the brake pedal
/// stays the maneuver's) until hold_speed_until, when its throttle is cut to
/// zero (a Step "throttle_cut" times a Product "throttle_gate": it does not
/// fight the brake of braking in a turn); otherwise the throttle is closed
/// (coasting, as FMVSS 126); brake_pedal (0…1) is applied from brake_start on
/// (split-μ, braking in a turn).
struct Maneuver {
  double v0 = 80.0 / 3.6;
  vehicle::CarOptions options;
  bool hold_speed = false;
  double hold_speed_until = std::numeric_limits<double>::infinity();
  ParameterValues robot;
  double brake_pedal = 0.0, brake_start = 0.0;
  std::vector<std::pair<double, double>> path;
};

/// Builds the car and its driver into `m` (the car is "car").
vehicle::PlanarCar& build_maneuver(Model& m, const Maneuver& maneuver);

/// The same car with its road split down the middle: μ_left under the left
/// wheels (y > 0), μ_right under the right ones.
void split_mu_road(vehicle::PlanarCar& car, double mu_left, double mu_right);

/// A coned lane of a lane-change track: from x_start to x_end [m], centred
/// on y_centre, `width` wide between the cones' inner edges.
struct Lane {
  double x_start, x_end, y_centre, width;
};
/// The three coned lanes of the ISO 3888-2 obstacle-avoidance double lane
/// change for a car `car_width` wide, the entry gate at x0 (ISO 3888-2:2011,
/// Table 1): entry lane 12 m long, 1.1·w + 0.25 wide; 13.5 m on, the side
/// lane, 11 m long, w + 1 wide, its right edge 1 m left of the entry lane's
/// left edge; 12.5 m on, the exit lane, 12 m long, 1.3·w + 0.25 wide but at
/// least 3 m, on the entry lane's centre line. 61 m in all.
std::vector<Lane> iso3888_2_lanes(double car_width = 1.8, double x0 = 15.0);
/// The lanes' centre line as points (x, y) every `step` m from x = 0 to
/// run_out past the last lane: straight along each lane, half a cosine from
/// one lane's end to the next one's start (a PathFollower's path).
std::vector<std::pair<double, double>> lane_centre_line(const std::vector<Lane>& lanes, double run_out = 40.0,
                                                        double step = 0.5);

/// The axle cornering stiffnesses (N/rad) and the understeer gradient
/// K_us = (m/L)(b/C_f − a/C_r) [rad/(m/s²)] of the car's linear
/// single-track equivalent, from its parameters (static loads, tanh law).
struct LinearEquivalent {
  double C_f, C_r, K_us, L, m, Iz, a, b;
};
LinearEquivalent linear_equivalent(const Simulator& sim, const std::string& car = "car");

/// ISO 4138: the understeer gradient dδ/da_y − L/v² [rad/(m/s²)], δ the mean
/// road-wheel angle, fitted by least squares over a_y in [a_low, a_high]
/// (each row's kinematic part L·r/v taken off, so a speed that drifts a
/// little does not bias it).
/// L: the wheelbase.
double understeer_gradient(const Result& r, double L, double a_low, double a_high, const std::string& car = "car");
/// The steering-wheel angle at which the slowly increasing steer reaches
/// a_y (FMVSS 126's A at 0.3 g), by the same least-squares line.
double steer_for_lateral_acceleration(const Result& r, double a_y, double a_low, double a_high,
                                      const std::string& car = "car");

/// ISO 7401 step steer figures of the yaw rate.
struct StepSteerFigures {
  double response_time;       // from 50 % of the steer to 90 % of the steady yaw rate [s]
  double peak_response_time;  // from 50 % of the steer to the yaw rate's peak [s]
  double overshoot;           // (peak − steady)/steady
  double steady_gain;         // steady yaw rate per steering-wheel angle [1/s]
  double steady_yaw_rate;     // [rad/s], the mean over the last second
};
/// amplitude: the robot's steering-wheel step.
StepSteerFigures step_steer_figures(const Result& r, double amplitude, const std::string& car = "car",
                                    const std::string& robot = "robot");

/// FMVSS 126 sine-with-dwell figures and verdict (vehicles up to 3 500 kg).
struct SineWithDwellFigures {
  double peak_yaw_rate;        // the first peak after the steer reverses [rad/s]
  double ratio_1_00;           // yaw rate 1.0 s after the steer completes, over the peak
  double ratio_1_75;           // the same 1.75 s after
  double lateral_displacement;  // of the CG, 1.07 s after the steer begins [m]
  bool stable() const { return ratio_1_00 <= 0.35 && ratio_1_75 <= 0.20; }
  bool responsive() const { return lateral_displacement >= 1.83; }
};
SineWithDwellFigures sine_with_dwell_figures(const Result& r, double start_time, double frequency = 0.7,
                                             double dwell = 0.5, const std::string& car = "car");

/// The value of a variable at time t, linear between output rows.
double value_at_time(const Result& r, const std::string& name, double t);

}  // namespace acausal::harness
