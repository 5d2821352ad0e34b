#pragma once

#include "connectors/planar.hpp"
#include "connectors/signal.hpp"

namespace acausal::planar {

/// Revolute joint whose angle is prescribed by the input phi (a steering
/// actuator, MSL PlanarMechanics' Revolute driven by a Position source):
/// frame_b shares frame_a's origin, turned by phi = phi_b − phi_a. Forces
/// pass through; the actuator holds whatever torque frame_b needs and reacts
/// it on frame_a (its housing), so tau_a + tau_b = 0, and supplies the power
/// tau·der(phi) that turning against that torque takes. Massless. The input
/// is differentiated (the joint's speed moves frame_b): give it a smooth
/// signal (a source, an actuator's lag).
struct PrescribedRevolute : Component {
  Frame frame_a{*this, "frame_a"}, frame_b{*this, "frame_b"};
  RealInput phi{*this, "phi", {.unit = "rad"}};

  explicit PrescribedRevolute(std::string name) : Component(std::move(name)) {
    supplied_power(-frame_b.tau * der(phi));
    equation(frame_b.x == frame_a.x);
    equation(frame_b.y == frame_a.y);
    equation(frame_b.phi == frame_a.phi + phi);
    equation(frame_a.fx + frame_b.fx == 0.0);
    equation(frame_a.fy + frame_b.fy == 0.0);
    equation(frame_a.tau + frame_b.tau == 0.0);
  }
};

}  // namespace acausal::planar
