#pragma once

#include "components/vehicle/bodies/partial_body.hpp"

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
struct VehicleBody : PartialBody {
  explicit VehicleBody(std::string name) : PartialBody(std::move(name)) {
    stored_energy(0.5 * m * v * v);
    dissipated_power((F_drag + F_roll_front + F_roll_rear) * v);
    // Gravity on the grade acts from outside the model. The quasi-static
    // support that sets the axle loads (the body has no vertical motion) and
    // the tires' vertical springs trade energy only with each other: neither
    // side books it (WheelContact).
    supplied_power(-F_grade * v);
    require_geometry();
    longitudinal_equations();
    equation(N_front == m * g * cos(theta) * b / L - delta_N - (F_drag + F_grade) * h_cg / L);
    equation(N_rear == m * g * cos(theta) * a / L + delta_N + (F_drag + F_grade) * h_cg / L);
    equation(contact_front.f_normal == N_front);
    equation(contact_rear.f_normal == N_rear);
  }
};

}  // namespace acausal::vehicle
