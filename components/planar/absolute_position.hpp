#pragma once

#include "connectors/planar.hpp"
#include "connectors/signal.hpp"

namespace acausal::planar {

/// Ideal sensor of a frame's absolute position and orientation (MSL
/// PlanarMechanics.Sensors.AbsolutePosition, resolved in the world frame):
/// outputs x, y and phi; it takes no force or torque.
struct AbsolutePosition : Component {
  Frame frame_a{*this, "frame_a"};
  RealOutput x{*this, "x", {.unit = "m"}};
  RealOutput y{*this, "y", {.unit = "m"}};
  RealOutput phi{*this, "phi", {.unit = "rad"}};

  explicit AbsolutePosition(std::string name) : Component(std::move(name)) {
    equation(x == frame_a.x);
    equation(y == frame_a.y);
    equation(phi == frame_a.phi);
    equation(frame_a.fx == 0.0);
    equation(frame_a.fy == 0.0);
    equation(frame_a.tau == 0.0);
  }
};

}  // namespace acausal::planar
