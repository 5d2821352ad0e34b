#pragma once

#include "connectors/signal.hpp"
#include "connectors/translational.hpp"

namespace acausal::translational {

/// Absolute position of the flange (an ideal sensor: no force on its flange).
struct PositionSensor : Component {
  Flange flange{*this, "flange"};
  RealOutput s{*this, "s", {.unit = "m"}};
  explicit PositionSensor(std::string name) : Component(std::move(name)) {
    equation(s == flange.s);
    equation(flange.f == 0.0);
  }
};

}  // namespace acausal::translational
