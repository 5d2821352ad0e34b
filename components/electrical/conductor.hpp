#pragma once

#include "components/electrical/conditional_heat_port.hpp"

namespace acausal::electrical {

/// Linear conductor (MSL Basic.Conductor): i = G_actual·v, the conductance
/// falling with temperature as a resistor's resistance rises, G_actual =
/// G/(1 + alpha·(T_heatPort - T_ref)). G = 0 is an open circuit, which a
/// Resistor cannot express. Turns v·i >= 0 into heat, as the Resistor does.
struct Conductor : ConditionalHeatPort {
  // A/V is the siemens, written in symbols the unit check knows.
  Parameter G = parameter("G", 1.0, {.unit = "A/V", .description = "conductance at T_ref"});
  Parameter T_ref = parameter("T_ref", 300.15, {.unit = "K", .min = 0, .description = "reference temperature"});
  Parameter alpha = parameter("alpha", 0.0, {.unit = "1/K", .description = "temperature coefficient of 1/G"});
  Variable G_actual = variable("G_actual", {.unit = "A/V", .description = "G/(1 + alpha·(T_heatPort - T_ref))"});

  explicit Conductor(std::string name) : ConditionalHeatPort(std::move(name), 300.15) {
    equation(G_actual == G / (1.0 + alpha * (T_heatPort - T_ref)));
    equation(i == G_actual * v);
    equation(LossPower == v * i);
  }
};

}  // namespace acausal::electrical
