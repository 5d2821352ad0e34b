#pragma once

#include "connectors/rotational.hpp"
#include "connectors/signal.hpp"

namespace acausal::rotational {

/// Absolute speed of the flange.
struct SpeedSensor : Component {
  Flange flange{*this, "flange"};
  RealOutput w{*this, "w", {.unit = "rad/s"}};
  explicit SpeedSensor(std::string name) : Component(std::move(name)) {
    equation(w == der(flange.phi));
    equation(flange.tau == 0.0);
  }
};

}  // namespace acausal::rotational
