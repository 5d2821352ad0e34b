#pragma once

#include "connectors/electrical.hpp"
#include "connectors/signal.hpp"

namespace acausal::electrical {

/// Voltmeter (MSL Sensors.VoltageSensor): the output v = p.v - n.v; an ideal
/// one draws no current, so it changes nothing in the circuit.
struct VoltageSensor : Component {
  PositivePin p{*this, "p"};
  NegativePin n{*this, "n"};
  RealOutput v{*this, "v", {.unit = "V"}};

  explicit VoltageSensor(std::string name) : Component(std::move(name)) {
    equation(p.i == 0.0);
    equation(n.i == 0.0);
    equation(v == p.v - n.v);
  }
};

}  // namespace acausal::electrical
