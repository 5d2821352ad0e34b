#pragma once

#include "solver/modeling/component.hpp"

namespace acausal::electrical {

/// Electrical pin (Modelica.Electrical.Analog.Interfaces.Pin): the potential v
/// against ground and the current i, positive when it flows into the
/// component through this pin. The power entering is v·i.
struct Pin : Connector {
  Variable v = potential("v", {.unit = "V"});
  Variable i = flow("i", {.unit = "A"});
  Pin(Component& owner, std::string name)
      : Connector(owner, std::move(name), "electrical.Pin", PortPower::potential_times_flow) {}
};

/// The pin a two-pin element calls positive (MSL PositivePin); the same connector as Pin.
using PositivePin = Pin;
/// The pin a two-pin element calls negative (MSL NegativePin); the same connector as Pin.
using NegativePin = Pin;

}  // namespace acausal::electrical
