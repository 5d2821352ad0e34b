#pragma once

#include "connectors/electrical.hpp"
#include "connectors/signal.hpp"

namespace acausal::electrical {

/// Potential against ground (MSL Sensors.PotentialSensor): the output phi =
/// p.v; draws no current.
struct PotentialSensor : Component {
  PositivePin p{*this, "p"};
  RealOutput phi{*this, "phi", {.unit = "V"}};

  explicit PotentialSensor(std::string name) : Component(std::move(name)) {
    equation(p.i == 0.0);
    equation(phi == p.v);
  }
};

}  // namespace acausal::electrical
