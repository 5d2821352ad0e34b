#pragma once

#include "connectors/electrical.hpp"
#include "connectors/signal.hpp"

namespace acausal::electrical {

/// Wattmeter (MSL Sensors.PowerSensor): the current path pc → nc (in series,
/// no voltage drop) and the voltage path pv, nv (in parallel, no current);
/// the output power = (pv.v - nv.v)·(current into pc).
struct PowerSensor : Component {
  PositivePin pc{*this, "pc"};
  NegativePin nc{*this, "nc"};
  PositivePin pv{*this, "pv"};
  NegativePin nv{*this, "nv"};
  RealOutput power{*this, "power", {.unit = "W"}};
  Variable v = variable("v", {.unit = "V", .description = "voltage of the voltage path, pv.v - nv.v"});
  Variable i = variable("i", {.unit = "A", .description = "current through the current path, into pc"});

  explicit PowerSensor(std::string name) : Component(std::move(name)) {
    equation(pc.v == nc.v);
    equation(0.0 == pc.i + nc.i);
    equation(i == pc.i);
    equation(pv.i == 0.0);
    equation(nv.i == 0.0);
    equation(v == pv.v - nv.v);
    equation(power == v * i);
  }
};

}  // namespace acausal::electrical
