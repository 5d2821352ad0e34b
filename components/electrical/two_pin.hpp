#pragma once

#include "connectors/electrical.hpp"

namespace acausal::electrical {

/// Base of elements between two pins (MSL Interfaces.TwoPin): the voltage
/// drop v = p.v - n.v. Currents are left to the element, so that a pin may
/// carry a current of its own (a sensor's voltage path draws none).
struct TwoPin : Component {
  PositivePin p{*this, "p"};
  NegativePin n{*this, "n"};
  Variable v = variable("v", {.unit = "V", .description = "voltage drop p.v - n.v"});

  explicit TwoPin(std::string name) : Component(std::move(name)) { equation(v == p.v - n.v); }
};

}  // namespace acausal::electrical
