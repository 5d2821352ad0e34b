#pragma once

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "components/blocks/tables/interpolation.hpp"
#include "components/vehicle/terrain/height_map.hpp"
#include "connectors/signal.hpp"
#include "connectors/wheel_contact.hpp"

namespace acausal::vehicle {

/// The partial base of the longitudinal bodies (VehicleBody, PitchingBody):
/// a mass m on two axles, the CG a behind the front axle and b ahead of the
/// rear one (a + b = L), h_cg above the road, on a road that climbs at theta
/// under the CG (the constant `grade`, or set_grade_table):
///   m·a_x = F_traction - F_drag - F_roll_front - F_roll_rear - F_grade
/// with drag 0.5·rho·Cd·A·v²·tanh(v/v_eps) at the CG, rolling resistance
/// Crr·N·tanh(v/v_eps) per axle, gravity m·g·sin(theta) along the road and the
/// quasi-static inertial transfer delta_N = m·a_x·h_cg/L; or a height profile
/// under the wheels (set_height_profile). An extension says how
/// the axle loads N_front, N_rear come about (and sets contact.f_normal).
struct PartialBody : Component {
  WheelContact contact_front{*this, "contact_front"}, contact_rear{*this, "contact_rear"};
  RealOutput speed{*this, "speed", {.unit = "m/s"}};
  Parameter m = parameter("m", 1500.0, {.unit = "kg", .min = 0});
  Parameter L = parameter("L", 2.7, {.unit = "m", .min = 0});
  Parameter a = parameter("a", 1.2, {.unit = "m", .min = 0});
  Parameter b = parameter("b", 1.5, {.unit = "m", .min = 0});
  Parameter h_cg = parameter("h_cg", 0.55, {.unit = "m"});
  Parameter Cd = parameter("Cd", 0.3, {.min = 0});
  Parameter A = parameter("A", 2.2, {.unit = "m2", .min = 0});
  Parameter rho = parameter("rho", 1.225, {.unit = "kg/m3", .min = 0});
  Parameter Crr = parameter("Crr", 0.015, {.min = 0});
  Parameter g = parameter("g", 9.81, {.unit = "m/s2", .min = 0});
  Parameter grade = parameter("grade", 0.0, {.unit = "rad", .min = -1.5, .max = 1.5});
  Parameter v_eps = parameter("v_eps", 0.1, {.unit = "m/s", .min = 1e-9});

  Variable s = variable("s", {.unit = "m", .state = StateSelect::prefer});
  Variable v = variable("v", {.unit = "m/s", .state = StateSelect::prefer});
  Variable a_x = variable("a_x", {.unit = "m/s2"});
  Variable F_traction = variable("F_traction", {.unit = "N"});
  Variable F_drag = variable("F_drag", {.unit = "N"});
  Variable F_roll_front = variable("F_roll_front", {.unit = "N"});
  Variable F_roll_rear = variable("F_roll_rear", {.unit = "N"});
  Variable F_grade = variable("F_grade", {.unit = "N"});
  Variable N_front = variable("N_front", {.unit = "N"});
  Variable N_rear = variable("N_rear", {.unit = "N"});
  Variable delta_N = variable("delta_N", {.unit = "N"});
  Variable theta = variable(
      "theta", {.unit = "rad", .description = "the body's climb angle: the road's under the CG, or between the axles"});

  /// Road angle as a table of (CG position s [m], angle [rad]) points,
  /// interpolated linearly and held beyond its ends, in place of the constant
  /// `grade` (seed 004's terrain: hills, ramps). Call before compiling.
  void set_grade_table(const std::vector<std::pair<double, double>>& points) {
    for (const auto& [x, angle] : points)
      if (!(std::fabs(angle) <= 1.5)) throw ModelError(path() + ": grade table angle " + std::to_string(angle) +
                                                       " rad at s = " + std::to_string(x) + " is outside [-1.5, 1.5]");
    replace_equation(grade_law_, theta == blocks::piecewise_linear(s, points, path() + " grade table", "positions"));
    replace_equation(grade_force_law_, F_grade == m * g * sin(theta));
  }

  /// The road as a height profile z(s) (HeightProfile, load_height_profile)
  /// in place of the constant `grade`, s being the distance along the road.
  /// TerrainSampling::wheels (default): the body rests on the road under its
  /// two contacts, at s_f and s_r (the contacts' s_traction, L apart along the
  /// road). Its attitude theta is the chord between their heights,
  /// asin((z(s_f) - z(s_r))/L), which sets the axle loads, and gravity pulls
  /// along the road with F_grade = m·g·(b·z'(s_f) + a·z'(s_r))/L: the slopes
  /// under the axles weighted by their static load shares, which makes
  /// m·g·(b·z(s_f) + a·z(s_r))/L exactly the potential energy. A dip or crest
  /// shorter than the wheelbase is felt as the wheels cross it, not as the CG
  /// does. TerrainSampling::cg: theta = asin(dz/ds) under the CG and
  /// F_grade = m·g·sin(theta), potential m·g·z(s). On a constant slope both
  /// are the `grade` body. Throws when the profile is steeper than the 1.5 rad
  /// `grade` allows. Call before compiling.
  void set_height_profile(const HeightProfile& profile, TerrainSampling sampling = TerrainSampling::wheels) {
    profile.require_max_angle(1.5, path());
    if (sampling == TerrainSampling::cg) {
      replace_equation(grade_law_, theta == profile.grade(s));
      replace_equation(grade_force_law_, F_grade == m * g * sin(theta));
      return;
    }
    const Expr s_f = contact_front.s_traction, s_r = contact_rear.s_traction;
    replace_equation(grade_law_, theta == asin((profile.height(s_f) - profile.height(s_r)) / L));
    replace_equation(grade_force_law_, F_grade == m * g * (b * profile.slope(s_f) + a * profile.slope(s_r)) / L);
  }

 protected:
  explicit PartialBody(std::string name) : Component(std::move(name)) {}

  void require_geometry() {
    require(m > 0, "the mass m must be positive");
    require(h_cg > 0, "the CG height h_cg must be positive");
    require(L > 0, "the wheelbase L must be positive");
    require(abs(a + b - L) <= 1e-6 * L, "a + b must equal the wheelbase L");
  }

  /// The longitudinal motion. The contacts sit at the axles; with a pitch
  /// angle (nose down positive) they are held at road level, h_cg below the
  /// CG, so they move back by h_cg·pitch.
  void longitudinal_equations(const Variable* pitch = nullptr) {
    if (pitch) {
      equation(contact_front.s_traction == s + a - h_cg * *pitch);
      equation(contact_rear.s_traction == s - b - h_cg * *pitch);
    } else {
      equation(contact_front.s_traction == s + a);
      equation(contact_rear.s_traction == s - b);
    }
    equation(v == der(s));
    equation(a_x == der(v));
    equation(speed == v);
    equation(F_traction == contact_front.f_traction + contact_rear.f_traction);
    equation(F_drag == 0.5 * rho * Cd * A * v * v * tanh(v / v_eps));
    equation(F_roll_front == Crr * N_front * tanh(v / v_eps));
    equation(F_roll_rear == Crr * N_rear * tanh(v / v_eps));
    grade_law_ = equation(theta == grade);
    grade_force_law_ = equation(F_grade == m * g * sin(theta));
    equation(m * a_x == F_traction - F_drag - F_roll_front - F_roll_rear - F_grade);
    equation(delta_N == m * a_x * h_cg / L);
  }

 private:
  std::size_t grade_law_ = 0, grade_force_law_ = 0;
};

}  // namespace acausal::vehicle
