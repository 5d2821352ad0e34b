#pragma once

#include "connectors/signal.hpp"

namespace acausal::vehicle {

/// Kinematic single-track ("bicycle") model of seed 002's BicycleVehicle: the
/// wheels roll without slip, so the rear axle moves along the body's axis at
/// the speed v and the car turns at the yaw rate r = v·tan(delta)/L (on a
/// circle of radius L/tan(delta) at constant inputs). Reference point: the
/// rear-axle centre; outputs x, y (its position), psi (yaw angle). At the
/// centre of gravity, l_r ahead of the rear axle: v_x = v, v_y = l_r·r and
/// the sideslip beta = atan(l_r·tan(delta)/L), which holds for either sign of
/// v and at standstill. a_y = v·r is the lateral acceleration of the rear axle
/// (exact: its velocity stays along the body axis); the CG adds l_r·der(r),
/// left out because it needs the inputs' derivatives. No forces, no slip:
/// valid at low lateral acceleration. Seed 002's actuator chain goes on the
/// inputs: blocks::VelocityActuator on v, blocks::SteeringActuator on delta.
/// The states x, y, psi start at 0 (set_start moves them).
struct KinematicBicycle : Component {
  RealInput v{*this, "v", {.unit = "m/s"}};
  RealInput delta{*this, "delta", {.unit = "rad"}};
  RealOutput x{*this, "x", {.unit = "m", .start = 0.0, .fixed = true, .state = StateSelect::prefer}};
  RealOutput y{*this, "y", {.unit = "m", .start = 0.0, .fixed = true, .state = StateSelect::prefer}};
  RealOutput psi{*this, "psi", {.unit = "rad", .start = 0.0, .fixed = true, .state = StateSelect::prefer}};
  RealOutput r{*this, "r", {.unit = "rad/s"}};
  RealOutput beta{*this, "beta", {.unit = "rad"}};
  RealOutput v_x{*this, "v_x", {.unit = "m/s"}};
  RealOutput v_y{*this, "v_y", {.unit = "m/s"}};
  RealOutput a_y{*this, "a_y", {.unit = "m/s2"}};
  Parameter L = parameter("L", 2.7, {.unit = "m", .min = 0, .description = "wheelbase"});
  Parameter l_r = parameter("l_r", 1.35, {.unit = "m", .min = 0, .description = "rear axle to centre of gravity"});

  explicit KinematicBicycle(std::string name) : Component(std::move(name)) {
    // r = v·tan(delta)/L divides by L.
    require(L > 0, "the wheelbase L must be positive");
    equation(r == v * tan(delta) / L);
    equation(der(psi) == r);
    equation(der(x) == v * cos(psi));
    equation(der(y) == v * sin(psi));
    equation(v_x == v);
    equation(v_y == l_r * r);
    equation(beta == atan(l_r * tan(delta) / L));
    equation(a_y == v * r);
  }
};

}  // namespace acausal::vehicle
