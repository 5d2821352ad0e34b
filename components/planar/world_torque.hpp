#pragma once

#include "connectors/planar.hpp"
#include "connectors/signal.hpp"

namespace acausal::planar {

/// Torque source (MSL PlanarMechanics.Sources.WorldTorque): turns frame_b
/// with the input torque tau about the vertical axis; no force. The reaction
/// goes to the world, so the source supplies whatever power it delivers.
struct WorldTorque : Component {
  Frame frame_b{*this, "frame_b"};
  RealInput tau{*this, "tau", {.unit = "N.m"}};

  explicit WorldTorque(std::string name) : Component(std::move(name)) {
    energy_source();
    equation(frame_b.fx == 0.0);
    equation(frame_b.fy == 0.0);
    equation(frame_b.tau == -tau);
  }
};

}  // namespace acausal::planar
