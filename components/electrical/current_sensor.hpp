#pragma once

#include "connectors/electrical.hpp"
#include "connectors/signal.hpp"

namespace acausal::electrical {

/// Ammeter (MSL Sensors.CurrentSensor): the output i is the current into p
/// (and out of n); an ideal one has no voltage drop, p.v = n.v.
struct CurrentSensor : Component {
  PositivePin p{*this, "p"};
  NegativePin n{*this, "n"};
  RealOutput i{*this, "i", {.unit = "A"}};

  explicit CurrentSensor(std::string name) : Component(std::move(name)) {
    equation(p.v == n.v);
    equation(0.0 == p.i + n.i);
    equation(i == p.i);
  }
};

}  // namespace acausal::electrical
