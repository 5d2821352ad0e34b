#pragma once

#include <cmath>

#include "components/blocks/interpolation.hpp"
#include "connectors/signal.hpp"
#include "connectors/wheel_contact.hpp"

namespace acausal::vehicle {

/// Longitudinal vehicle body (mass m) on two axles with quasi-static load
/// transfer. The CG lies a behind the front axle and b ahead of the rear one
/// (a + b = L), h_cg above the road; the road climbs at the angle theta [rad]
/// under the CG: the constant `grade`, or a table of position (set_grade_table).
///   m·a_x = F_front + F_rear - F_drag - F_roll_front - F_roll_rear - F_grade
///   N_front = m·g·cos(theta)·b/L - delta_N - (F_drag + F_grade)·h_cg/L
///   N_rear  = m·g·cos(theta)·a/L + delta_N + (F_drag + F_grade)·h_cg/L
/// with the inertial load transfer delta_N = m·a_x·h_cg/L (drag acts at CG
/// height). Drag 0.5·rho·Cd·A·v²·tanh(v/v_eps) and rolling resistance
/// Crr·N·tanh(v/v_eps) per axle oppose motion. The axle loads act through
/// the contacts' f_normal, so load transfer changes each wheel's μ·N at once.
struct VehicleBody : Component {
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
  Variable theta = variable("theta", {.unit = "rad"});  // road angle under the CG

  explicit VehicleBody(std::string name) : Component(std::move(name)) {
    stored_energy(0.5 * m * v * v);
    dissipated_power((F_drag + F_roll_front + F_roll_rear) * v);
    // Gravity on the grade, and the quasi-static support that sets the axle
    // loads (the body has no vertical motion), act from outside the model.
    supplied_power(-F_grade * v - der(contact_front.s_normal) * contact_front.f_normal -
                   der(contact_rear.s_normal) * contact_rear.f_normal);
    require(m > 0, "the mass m must be positive");
    require(h_cg > 0, "the CG height h_cg must be positive");
    require(L > 0, "the wheelbase L must be positive");
    require(abs(a + b - L) <= 1e-6 * L, "a + b must equal the wheelbase L");
    equation(contact_front.s_traction == s + a);
    equation(contact_rear.s_traction == s - b);
    equation(v == der(s));
    equation(a_x == der(v));
    equation(speed == v);
    equation(F_traction == contact_front.f_traction + contact_rear.f_traction);
    equation(F_drag == 0.5 * rho * Cd * A * v * v * tanh(v / v_eps));
    equation(F_roll_front == Crr * N_front * tanh(v / v_eps));
    equation(F_roll_rear == Crr * N_rear * tanh(v / v_eps));
    grade_law_ = equation(theta == grade);
    equation(F_grade == m * g * sin(theta));
    equation(m * a_x == F_traction - F_drag - F_roll_front - F_roll_rear - F_grade);
    equation(delta_N == m * a_x * h_cg / L);
    equation(N_front == m * g * cos(theta) * b / L - delta_N - (F_drag + F_grade) * h_cg / L);
    equation(N_rear == m * g * cos(theta) * a / L + delta_N + (F_drag + F_grade) * h_cg / L);
    equation(contact_front.f_normal == N_front);
    equation(contact_rear.f_normal == N_rear);
  }

  /// Road angle as a table of (CG position s [m], angle [rad]) points,
  /// interpolated linearly and held beyond its ends, in place of the constant
  /// `grade` (seed 004's terrain: hills, ramps). Call before compiling.
  void set_grade_table(const std::vector<std::pair<double, double>>& points) {
    for (const auto& [x, angle] : points)
      if (!(std::fabs(angle) <= 1.5)) throw ModelError(path() + ": grade table angle " + std::to_string(angle) +
                                                       " rad at s = " + std::to_string(x) + " is outside [-1.5, 1.5]");
    replace_equation(grade_law_, theta == blocks::piecewise_linear(s, points, path() + " grade table", "positions"));
  }

 private:
  std::size_t grade_law_ = 0;
};

}  // namespace acausal::vehicle
