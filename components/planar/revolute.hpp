#pragma once

#include "connectors/planar.hpp"
#include "connectors/rotational.hpp"

namespace acausal::planar {

/// Revolute joint (MSL PlanarMechanics.Joints.Revolute): frame_b shares frame_a's
/// origin and is turned from it by the joint angle phi = phi_b − phi_a. The
/// rotational flange_a drives the relative rotation (a rotational Torque,
/// Speed, Spring or Damper between flange_a and the housing, which is
/// frame_a): its torque tau turns frame_b (tau_b = −tau) and reacts on frame_a
/// (tau_a = tau). Left unconnected, flange_a carries no torque and the joint
/// turns freely. Massless and lossless. The joint angle and speed are the
/// preferred states (StateSelect prefer, as in the MSL): they stay regular all
/// the way round, where a body's x or y would not.
struct Revolute : Component {
  Frame frame_a{*this, "frame_a"}, frame_b{*this, "frame_b"};
  rotational::Flange flange_a{*this, "flange_a"};
  Variable phi = variable("phi", {.unit = "rad", .state = StateSelect::prefer});
  Variable w = variable("w", {.unit = "rad/s", .state = StateSelect::prefer});
  Variable a = variable("a", {.unit = "rad/s2"});
  Variable tau = variable("tau", {.unit = "N.m", .description = "driving torque on the relative rotation"});

  explicit Revolute(std::string name) : Component(std::move(name)) {
    equation(frame_b.x == frame_a.x);
    equation(frame_b.y == frame_a.y);
    equation(frame_b.phi == frame_a.phi + phi);
    equation(w == der(phi));
    equation(a == der(w));
    equation(frame_a.fx + frame_b.fx == 0.0);
    equation(frame_a.fy + frame_b.fy == 0.0);
    equation(flange_a.phi == phi);
    equation(tau == flange_a.tau);
    equation(frame_b.tau == -tau);
    equation(frame_a.tau == tau);
  }
};

}  // namespace acausal::planar
