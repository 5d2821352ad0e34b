#pragma once

#include "connectors/planar.hpp"

namespace acausal::planar {

/// Rigid planar body (MSL PlanarMechanics.Parts.Body) with its centre of mass
/// at frame_a: mass m, inertia I about the vertical axis through the centre of
/// mass. Newton and Euler in the world frame:
/// m·der(vx) = fx, m·der(vy) = fy − m·g, I·der(w) = tau. Gravity g acts along
/// −y; the default g = 0 is a vehicle on a horizontal road plane (x, y in the
/// road, gravity normal to it). Kinetic energy ½m(vx² + vy²) + ½I·w² is
/// stored; gravity's work −m·g·vy is supplied from outside the model, as the
/// 1-D vehicle bodies book the grade force.
/// The states are left to index reduction (StateSelect default, as in the
/// MSL): a body on a joint is carried by the joint's angle, which stays
/// regular all the way round, not by x, y. A free body needs start values on
/// x, y, phi, vx, vy, w (set_start).
struct Body : Component {
  Frame frame_a{*this, "frame_a"};
  Parameter m = parameter("m", 1.0, {.unit = "kg", .min = 0});
  Parameter I = parameter("I", 0.1, {.unit = "kg.m2", .min = 0});
  Parameter g = parameter("g", 0.0, {.unit = "m/s2", .description = "gravity along -y (a grade: g·sin(angle))"});
  Variable x = variable("x", {.unit = "m"});
  Variable y = variable("y", {.unit = "m"});
  Variable phi = variable("phi", {.unit = "rad"});
  Variable vx = variable("vx", {.unit = "m/s"});
  Variable vy = variable("vy", {.unit = "m/s"});
  Variable w = variable("w", {.unit = "rad/s"});
  Variable ax = variable("ax", {.unit = "m/s2"});
  Variable ay = variable("ay", {.unit = "m/s2"});
  Variable z = variable("z", {.unit = "rad/s2", .description = "angular acceleration der(w)"});

  explicit Body(std::string name) : Component(std::move(name)) {
    stored_energy(0.5 * m * (vx * vx + vy * vy) + 0.5 * I * w * w);
    supplied_power(-m * g * vy);  // gravity's work
    // m·der(v) or I·der(w) with a zero coefficient leaves the derivative
    // undetermined: IDA would fail on a singular matrix (issue 30).
    require(m > 0, "the mass m must be positive");
    require(I > 0, "the inertia I must be positive");
    equation(x == frame_a.x);
    equation(y == frame_a.y);
    equation(phi == frame_a.phi);
    equation(vx == der(x));
    equation(vy == der(y));
    equation(w == der(phi));
    equation(ax == der(vx));
    equation(ay == der(vy));
    equation(z == der(w));
    equation(m * ax == frame_a.fx);
    equation(m * ay == frame_a.fy - m * g);
    equation(I * z == frame_a.tau);
  }
};

}  // namespace acausal::planar
