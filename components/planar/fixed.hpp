#pragma once

#include "connectors/planar.hpp"

namespace acausal::planar {

/// Frame fixed in the world at position (x, y) and orientation phi (MSL
/// PlanarMechanics.Parts.Fixed); takes any reaction force and torque.
struct Fixed : Component {
  Frame frame{*this, "frame"};
  Parameter x = parameter("x", 0.0, {.unit = "m"});
  Parameter y = parameter("y", 0.0, {.unit = "m"});
  Parameter phi = parameter("phi", 0.0, {.unit = "rad"});

  explicit Fixed(std::string name) : Component(std::move(name)) {
    equation(frame.x == x);
    equation(frame.y == y);
    equation(frame.phi == phi);
  }
};

}  // namespace acausal::planar
