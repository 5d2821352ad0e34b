#pragma once

#include "connectors/signal.hpp"
#include "connectors/translational.hpp"

namespace acausal::translational {

/// Absolute speed of the flange (an ideal sensor: no force on its flange).
struct SpeedSensor : Component {
  Flange flange{*this, "flange"};
  RealOutput v{*this, "v", {.unit = "m/s"}};
  explicit SpeedSensor(std::string name) : Component(std::move(name)) {
    equation(v == der(flange.s));
    equation(flange.f == 0.0);
  }
};

}  // namespace acausal::translational
