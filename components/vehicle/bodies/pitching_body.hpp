#pragma once

#include "components/vehicle/bodies/partial_body.hpp"

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
struct PitchingBody : PartialBody {
  Parameter J_pitch = parameter("J_pitch", 2500.0, {.unit = "kg.m2", .min = 0, .description = "pitch inertia"});
  Parameter c_front = parameter("c_front", 5e4, {.unit = "N/m", .min = 0, .description = "front axle spring"});
  Parameter c_rear = parameter("c_rear", 5e4, {.unit = "N/m", .min = 0, .description = "rear axle spring"});
  Parameter d_front = parameter("d_front", 5e3, {.unit = "N.s/m", .min = 0, .description = "front axle damper"});
  Parameter d_rear = parameter("d_rear", 5e3, {.unit = "N.s/m", .min = 0, .description = "rear axle damper"});
  Parameter initType = parameter("initType", 1.0,
                                 {.description = "how heave, pitch and suspensions start (NoInit, SteadyState)",
                                  .choices = {"NoInit", "SteadyState"}});

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

  explicit PitchingBody(std::string name) : PartialBody(std::move(name)) {
    const Expr N_static_front = m * g * b / L, N_static_rear = m * g * a / L;
    const Expr rate_front = der(deflection_front), rate_rear = der(deflection_rear);
    const Expr F_road = F_traction - F_roll_front - F_roll_rear;  // longitudinal forces at the road
    stored_energy(0.5 * m * (v * v + v_z * v_z) + 0.5 * J_pitch * w_pitch * w_pitch +
                  (N_static_front + 0.5 * c_front * deflection_front) * deflection_front +
                  (N_static_rear + 0.5 * c_rear * deflection_rear) * deflection_rear +
                  contact_front.tire_spring_energy() + contact_rear.tire_spring_energy());
    // Rolling resistance acts at the road, whose point under the CG moves at v - h_cg·w_pitch.
    dissipated_power(F_drag * v + (F_roll_front + F_roll_rear) * (v - h_cg * w_pitch) +
                     d_front * rate_front * rate_front + d_rear * rate_rear * rate_rear);
    // Gravity is a field from outside, along the road and across it: a grade
    // table turns it with the position, so it has no potential of the body's own.
    supplied_power(-F_grade * v - m * g * cos(theta) * v_z);
    require_geometry();
    require(J_pitch > 0, "the pitch inertia J_pitch must be positive");
    require(c_front > 0 && c_rear > 0, "the suspension springs c_front and c_rear must be positive");
    // The massless axle's height follows from its damper: without one it
    // would be an algebraic balance of springs the solver cannot integrate.
    require(d_front > 0 && d_rear > 0, "the suspension dampers d_front and d_rear must be positive");

    longitudinal_equations(&pitch);

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
};

}  // namespace acausal::vehicle
