#pragma once

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "components/blocks/interpolation.hpp"
#include "connectors/signal.hpp"
#include "connectors/wheel_contact.hpp"

namespace acausal::vehicle {

/// Longitudinal vehicle body (mass m, pitch inertia J_pitch) with heave and
/// pitch on a spring-damper suspension per axle: the sibling of VehicleBody
/// whose load transfer takes time, overshoots and can lift a wheel. Small-angle
/// planar model with VehicleBody's geometry, parameters and connectors (CG a
/// behind the front axle, b ahead of the rear one, h_cg above the road; road
/// angle theta from `grade` or set_grade_table):
///   m·a_x = F_traction - F_drag - F_roll_front - F_roll_rear - F_grade
///   m·der(v_z) = N_front + N_rear - m·g·cos(theta)
///   J_pitch·der(w_pitch) = b·N_rear - a·N_front - h_cg·(F_traction - F_roll_front - F_roll_rear)
/// z is the CG's heave (up positive) and pitch the body's angle, nose down
/// positive (ISO 8855: about the y axis, which points left), so braking makes
/// it dive. The tire forces act at the road, h_cg below the CG (their moment is
/// the dive); drag and gravity act at the CG. Each axle is massless and rests
/// on its tires: its height is the contact's s_normal, and its suspension
/// force N = N_static + c·deflection + d·der(deflection), with the compression
/// deflection_front = s_normal - (z - a·pitch) (rear: z + b·pitch), is at once
/// the load on the body and on the tires (contact.f_normal = N, up on the body).
/// N_static (m·g·b/L front, m·g·a/L rear) is the springs' preload at zero
/// deflection: on a level road at rest they sit at that design point, and z
/// and pitch differ from zero only by the tires' sag. Use wheels that can lift
/// off (Wheel lift_off = yes): an unloaded tire then leaves the road, with
/// N = 0 and no traction, its suspension extends, and it lands again (events).
/// initType SteadyState (default) starts heave, pitch and suspensions at rest
/// relative to the road under the initial forces, so a body started at rest
/// stays at rest with no tuning; NoInit starts them from their start values.
/// Steady, the axle loads are VehicleBody's whatever the stiffness:
/// N_front = m·g·cos(theta)·b/L - (m·a_x + F_drag + F_grade)·h_cg/L.
/// delta_N is VehicleBody's quasi-static inertial transfer m·a_x·h_cg/L.
struct PitchingBody : Component {
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
  Parameter J_pitch = parameter("J_pitch", 2500.0, {.unit = "kg.m2", .min = 0, .description = "pitch inertia"});
  Parameter c_front = parameter("c_front", 5e4, {.unit = "N/m", .min = 0, .description = "front axle spring"});
  Parameter c_rear = parameter("c_rear", 5e4, {.unit = "N/m", .min = 0, .description = "rear axle spring"});
  Parameter d_front = parameter("d_front", 5e3, {.unit = "N.s/m", .min = 0, .description = "front axle damper"});
  Parameter d_rear = parameter("d_rear", 5e3, {.unit = "N.s/m", .min = 0, .description = "rear axle damper"});
  Parameter initType = parameter("initType", 1.0,
                                 {.description = "how heave, pitch and suspensions start (NoInit, SteadyState)",
                                  .choices = {"NoInit", "SteadyState"}});

  Variable s = variable("s", {.unit = "m", .state = StateSelect::prefer});
  Variable v = variable("v", {.unit = "m/s", .state = StateSelect::prefer});
  Variable a_x = variable("a_x", {.unit = "m/s2"});
  Variable z = variable("z", {.unit = "m", .state = StateSelect::prefer, .description = "CG heave, up positive"});
  Variable v_z = variable("v_z", {.unit = "m/s", .state = StateSelect::prefer});
  Variable a_z = variable("a_z", {.unit = "m/s2"});
  Variable pitch =
      variable("pitch", {.unit = "rad", .state = StateSelect::prefer, .description = "nose down positive"});
  Variable w_pitch = variable("w_pitch", {.unit = "rad/s", .state = StateSelect::prefer});
  Variable deflection_front =
      variable("deflection_front",
               {.unit = "m", .state = StateSelect::prefer, .description = "compression from the design point"});
  Variable deflection_rear =
      variable("deflection_rear",
               {.unit = "m", .state = StateSelect::prefer, .description = "compression from the design point"});
  Variable F_traction = variable("F_traction", {.unit = "N"});
  Variable F_drag = variable("F_drag", {.unit = "N"});
  Variable F_roll_front = variable("F_roll_front", {.unit = "N"});
  Variable F_roll_rear = variable("F_roll_rear", {.unit = "N"});
  Variable F_grade = variable("F_grade", {.unit = "N"});
  Variable N_front = variable("N_front", {.unit = "N", .description = "front suspension force = axle load"});
  Variable N_rear = variable("N_rear", {.unit = "N", .description = "rear suspension force = axle load"});
  Variable delta_N = variable("delta_N", {.unit = "N", .description = "quasi-static inertial transfer m·a_x·h_cg/L"});
  Variable theta = variable("theta", {.unit = "rad"});  // road angle under the CG

  explicit PitchingBody(std::string name) : Component(std::move(name)) {
    const Expr N_static_front = m * g * b / L, N_static_rear = m * g * a / L;
    const Expr rate_front = der(deflection_front), rate_rear = der(deflection_rear);
    const Expr F_road = F_traction - F_roll_front - F_roll_rear;  // longitudinal forces at the road
    stored_energy(0.5 * m * (v * v + v_z * v_z) + 0.5 * J_pitch * w_pitch * w_pitch +
                  (N_static_front + 0.5 * c_front * deflection_front) * deflection_front +
                  (N_static_rear + 0.5 * c_rear * deflection_rear) * deflection_rear);
    // Rolling resistance acts at the road, whose point under the CG moves at v - h_cg·w_pitch.
    dissipated_power(F_drag * v + (F_roll_front + F_roll_rear) * (v - h_cg * w_pitch) +
                     d_front * rate_front * rate_front + d_rear * rate_rear * rate_rear);
    // Gravity is a field from outside, along the road and across it: a grade
    // table turns it with the position, so it has no potential of the body's own.
    supplied_power(-F_grade * v - m * g * cos(theta) * v_z);
    require(m > 0, "the mass m must be positive");
    require(h_cg > 0, "the CG height h_cg must be positive");
    require(L > 0, "the wheelbase L must be positive");
    require(abs(a + b - L) <= 1e-6 * L, "a + b must equal the wheelbase L");
    require(J_pitch > 0, "the pitch inertia J_pitch must be positive");
    require(c_front > 0 && c_rear > 0, "the suspension springs c_front and c_rear must be positive");
    // The massless axle's height follows from its damper: without one it
    // would be an algebraic balance of springs the solver cannot integrate.
    require(d_front > 0 && d_rear > 0, "the suspension dampers d_front and d_rear must be positive");

    // Longitudinal: the wheels are held at road level, h_cg below the CG, so
    // their contacts move with the pitch and the dive moment does work through them.
    equation(contact_front.s_traction == s + a - h_cg * pitch);
    equation(contact_rear.s_traction == s - b - h_cg * pitch);
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

    // Heave and pitch on the two suspensions.
    equation(v_z == der(z));
    equation(a_z == der(v_z));
    equation(w_pitch == der(pitch));
    equation(m * a_z == N_front + N_rear - m * g * cos(theta));
    equation(J_pitch * der(w_pitch) == b * N_rear - a * N_front - h_cg * F_road);
    equation(deflection_front == contact_front.s_normal - (z - a * pitch));
    equation(deflection_rear == contact_rear.s_normal - (z + b * pitch));
    equation(N_front == N_static_front + c_front * deflection_front + d_front * rate_front);
    equation(N_rear == N_static_rear + c_rear * deflection_rear + d_rear * rate_rear);
    equation(contact_front.f_normal == N_front);
    equation(contact_rear.f_normal == N_rear);

    const Expr steady = chosen(initType, 1);
    initial_value(v_z, 0.0, steady);
    initial_value(w_pitch, 0.0, steady);
    initial_equation(der(v_z) == 0.0, steady);
    initial_equation(der(w_pitch) == 0.0, steady);
    initial_equation(der(deflection_front) == 0.0, steady);
    initial_equation(der(deflection_rear) == 0.0, steady);
  }

  /// Road angle as a table of (CG position s [m], angle [rad]) points,
  /// interpolated linearly and held beyond its ends, in place of the constant
  /// `grade` (as VehicleBody::set_grade_table). Call before compiling.
  void set_grade_table(const std::vector<std::pair<double, double>>& points) {
    for (const auto& [x, angle] : points)
      if (!(std::fabs(angle) <= 1.5))
        throw ModelError(path() + ": grade table angle " + std::to_string(angle) + " rad at s = " + std::to_string(x) +
                         " is outside [-1.5, 1.5]");
    replace_equation(grade_law_, theta == blocks::piecewise_linear(s, points, path() + " grade table", "positions"));
  }

 private:
  std::size_t grade_law_ = 0;
};

}  // namespace acausal::vehicle
