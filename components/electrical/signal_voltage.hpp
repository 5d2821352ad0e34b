#pragma once

#include "connectors/electrical.hpp"
#include "connectors/signal.hpp"

namespace acausal::electrical {

/// Voltage source driven by a signal (MSL Sources.SignalVoltage): p.v - n.v
/// is the input v, whatever the current i (into p, out of n). Supplies what
/// the circuit draws, -v·i.
struct SignalVoltage : Component {
  PositivePin p{*this, "p"};
  NegativePin n{*this, "n"};
  RealInput v{*this, "v", {.unit = "V"}};
  Variable i = variable("i", {.unit = "A", .description = "current from p through the source to n"});

  explicit SignalVoltage(std::string name) : Component(std::move(name)) {
    energy_source();
    equation(v == p.v - n.v);
    equation(0.0 == p.i + n.i);
    equation(i == p.i);
  }
};

}  // namespace acausal::electrical
