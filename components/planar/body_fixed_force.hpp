#pragma once

#include "connectors/planar.hpp"
#include "connectors/signal.hpp"

namespace acausal::planar {

/// Force source resolved in frame_b's own coordinates (MSL
/// PlanarMechanics.Sources.WorldForce with resolveInFrame = frame_b): the
/// input f_long acts along frame_b's x axis and f_lat along its y axis, so
/// the force turns with the frame, as a tire's or a thruster's does. In the
/// world frame: (fx, fy) = R(phi_b)·(f_long, f_lat). No torque about frame_b's
/// origin. The reaction goes to the world: the source supplies whatever
/// power it delivers.
struct BodyFixedForce : Component {
  Frame frame_b{*this, "frame_b"};
  RealInput f_long{*this, "f_long", {.unit = "N"}};
  RealInput f_lat{*this, "f_lat", {.unit = "N"}};

  explicit BodyFixedForce(std::string name) : Component(std::move(name)) {
    energy_source();
    equation(frame_b.fx == -(cos(frame_b.phi) * f_long - sin(frame_b.phi) * f_lat));
    equation(frame_b.fy == -(sin(frame_b.phi) * f_long + cos(frame_b.phi) * f_lat));
    equation(frame_b.tau == 0.0);
  }
};

}  // namespace acausal::planar
