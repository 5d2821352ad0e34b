#pragma once

#include "components/electrical/conditional_heat_port.hpp"

namespace acausal::electrical {

/// Linear resistor (MSL Basic.Resistor): v = R_actual·i with the resistance
/// linear in the device temperature, R_actual = R·(1 + alpha·(T_heatPort -
/// T_ref)). Turns v·i >= 0 into heat: dissipated, or through heat_port with
/// use_heat_port = 1 (then T_heatPort is the port's temperature, else T).
struct Resistor : ConditionalHeatPort {
  Parameter R = parameter("R", 1.0, {.unit = "Ohm", .description = "resistance at T_ref"});
  Parameter T_ref = parameter("T_ref", 300.15, {.unit = "K", .min = 0, .description = "reference temperature"});
  Parameter alpha = parameter("alpha", 0.0, {.unit = "1/K", .description = "temperature coefficient of R"});
  Variable R_actual = variable("R_actual", {.unit = "Ohm", .description = "R·(1 + alpha·(T_heatPort - T_ref))"});

  explicit Resistor(std::string name) : ConditionalHeatPort(std::move(name), 300.15) {
    equation(R_actual == R * (1.0 + alpha * (T_heatPort - T_ref)));
    equation(v == R_actual * i);
    equation(LossPower == v * i);
  }
};

}  // namespace acausal::electrical
