#pragma once

#include "connectors/electrical.hpp"
#include "connectors/signal.hpp"

namespace acausal::electrical {

/// Current source driven by a signal (MSL Sources.SignalCurrent): the input i
/// flows into p and out of n, through the source, whatever the voltage
/// v = p.v - n.v. Supplies -v·i.
struct SignalCurrent : Component {
  PositivePin p{*this, "p"};
  NegativePin n{*this, "n"};
  RealInput i{*this, "i", {.unit = "A"}};
  Variable v = variable("v", {.unit = "V", .description = "voltage drop p.v - n.v"});

  explicit SignalCurrent(std::string name) : Component(std::move(name)) {
    energy_source();
    equation(v == p.v - n.v);
    equation(0.0 == p.i + n.i);
    equation(i == p.i);
  }
};

}  // namespace acausal::electrical
