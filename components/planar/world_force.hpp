#pragma once

#include "connectors/planar.hpp"
#include "connectors/signal.hpp"

namespace acausal::planar {

/// Force source in world coordinates (MSL PlanarMechanics.Sources.WorldForce):
/// pushes frame_b's origin with the input force (fx, fy), resolved in the
/// world frame whatever frame_b's orientation; no torque (WorldTorque adds
/// one). The reaction goes to the world, so the source supplies whatever
/// power it delivers.
struct WorldForce : Component {
  Frame frame_b{*this, "frame_b"};
  RealInput fx{*this, "fx", {.unit = "N"}};
  RealInput fy{*this, "fy", {.unit = "N"}};

  explicit WorldForce(std::string name) : Component(std::move(name)) {
    energy_source();
    equation(frame_b.fx == -fx);
    equation(frame_b.fy == -fy);
    equation(frame_b.tau == 0.0);
  }
};

}  // namespace acausal::planar
