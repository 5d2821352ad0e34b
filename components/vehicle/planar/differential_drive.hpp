#pragma once

#include "connectors/signal.hpp"

namespace acausal::vehicle {

/// Differential-drive ("tank steering") vehicle of seed 002's
/// DifferentialVehicle: two independently driven wheels of radius `radius`,
/// `track` apart, rolling without slip. The inputs are the commanded twist, the
/// forward speed v and the yaw rate omega; the wheels turn at
///   w_left = (v − omega·track/2)/radius,  w_right = (v + omega·track/2)/radius,
/// the inverse of the seed's v = (v_left + v_right)/2, omega = (v_right − v_left)/track.
/// Reference point: the centre of the wheel axle; outputs x, y (its position),
/// psi (yaw angle), integrated from v and omega, v_x = v and r = omega. The
/// axle centre cannot slip sideways, so its lateral velocity and sideslip are
/// zero (no outputs for them); a_y = v·r is its lateral acceleration (exact).
/// At constant inputs it drives a circle of radius v/omega (turns on the spot
/// at v = 0). No forces, no slip. Seed 002's actuator chain goes on the inputs:
/// blocks::VelocityActuator on v, and one on omega (its limits then read as a
/// yaw-rate and a yaw-acceleration limit). The states x, y, psi start at 0
/// (set_start moves them).
struct DifferentialDrive : Component {
  RealInput v{*this, "v", {.unit = "m/s"}};
  RealInput omega{*this, "omega", {.unit = "rad/s"}};
  RealOutput w_left{*this, "w_left", {.unit = "rad/s"}};
  RealOutput w_right{*this, "w_right", {.unit = "rad/s"}};
  RealOutput x{*this, "x", {.unit = "m", .start = 0.0, .fixed = true, .state = StateSelect::prefer}};
  RealOutput y{*this, "y", {.unit = "m", .start = 0.0, .fixed = true, .state = StateSelect::prefer}};
  RealOutput psi{*this, "psi", {.unit = "rad", .start = 0.0, .fixed = true, .state = StateSelect::prefer}};
  RealOutput r{*this, "r", {.unit = "rad/s"}};
  RealOutput v_x{*this, "v_x", {.unit = "m/s"}};
  RealOutput a_y{*this, "a_y", {.unit = "m/s2"}};
  Parameter track = parameter("track", 0.5, {.unit = "m", .min = 0, .description = "distance between the left and right wheels"});
  Parameter radius = parameter("radius", 0.1, {.unit = "m", .min = 0, .description = "wheel radius"});

  explicit DifferentialDrive(std::string name) : Component(std::move(name)) {
    // The wheel speeds divide by the radius.
    require(radius > 0, "the wheel radius must be positive");
    equation(w_left == (v - omega * track / 2) / radius);
    equation(w_right == (v + omega * track / 2) / radius);
    equation(r == omega);
    equation(v_x == v);
    equation(der(psi) == r);
    equation(der(x) == v * cos(psi));
    equation(der(y) == v * sin(psi));
    equation(a_y == v * r);
  }
};

}  // namespace acausal::vehicle
