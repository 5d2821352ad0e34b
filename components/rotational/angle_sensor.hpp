#pragma once

#include "connectors/rotational.hpp"
#include "connectors/signal.hpp"

namespace acausal::rotational {

/// Absolute angle of the flange (an ideal sensor: no torque on its flange).
struct AngleSensor : Component {
  Flange flange{*this, "flange"};
  RealOutput phi{*this, "phi", {.unit = "rad"}};
  explicit AngleSensor(std::string name) : Component(std::move(name)) {
    equation(phi == flange.phi);
    equation(flange.tau == 0.0);
  }
};

}  // namespace acausal::rotational
