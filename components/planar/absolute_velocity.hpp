#pragma once

#include "connectors/planar.hpp"
#include "connectors/signal.hpp"

namespace acausal::planar {

/// Ideal sensor of a frame's absolute velocity (MSL
/// PlanarMechanics.Sensors.AbsoluteVelocity, resolved in the world frame):
/// outputs vx = der(x), vy = der(y) and the angular velocity w = der(phi); it
/// takes no force or torque. Reading a derivative of the frame's position
/// may make index reduction differentiate the constraints that place the frame.
struct AbsoluteVelocity : Component {
  Frame frame_a{*this, "frame_a"};
  RealOutput vx{*this, "vx", {.unit = "m/s"}};
  RealOutput vy{*this, "vy", {.unit = "m/s"}};
  RealOutput w{*this, "w", {.unit = "rad/s"}};

  explicit AbsoluteVelocity(std::string name) : Component(std::move(name)) {
    equation(vx == der(frame_a.x));
    equation(vy == der(frame_a.y));
    equation(w == der(frame_a.phi));
    equation(frame_a.fx == 0.0);
    equation(frame_a.fy == 0.0);
    equation(frame_a.tau == 0.0);
  }
};

}  // namespace acausal::planar
