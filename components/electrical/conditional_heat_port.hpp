#pragma once

#include "components/electrical/one_port.hpp"
#include "connectors/thermal.hpp"

namespace acausal::electrical {

/// A OnePort with MSL's Interfaces.ConditionalHeatPort: the base of elements
/// that turn electrical power into heat (Resistor, Conductor, the ideal
/// switches and semiconductors). The element defines LossPower; it may read
/// the device temperature T_heatPort.
///
/// With use_heat_port = 0 (the default) the device sits at the fixed
/// temperature T, the loss is dissipated, and heat_port does not exist:
/// connecting it is refused at compile(). With use_heat_port = 1 the loss
/// leaves through heat_port as heat (heat_port.Q_flow = -LossPower, Q_flow
/// positive into the element), the element dissipates nothing itself, and
/// T_heatPort is the port's temperature, set by the thermal network. The
/// parameter is structural: compile() folds the choice, so the element off
/// has exactly the equations of one without a port.
struct ConditionalHeatPort : OnePort {
  thermal::HeatPort heat_port{*this, "heat_port"};
  Parameter use_heat_port = parameter(
      "use_heat_port", 0.0,
      {.min = 0, .max = 1, .description = "1: the loss leaves through heat_port (MSL useHeatPort)", .structural = true});
  Parameter T;
  Variable LossPower = variable("LossPower", {.unit = "W", .description = "loss power, leaving as heat (>= 0)"});
  Variable T_heatPort = variable("T_heatPort", {.unit = "K", .start = 293.15, .nominal = 300.0});

  ConditionalHeatPort(std::string name, double T_fixed)
      : OnePort(std::move(name)),
        T(parameter("T", T_fixed,
                    {.unit = "K", .min = 0, .description = "fixed device temperature while use_heat_port = 0"})) {
    const Expr on = use_heat_port > 0.5;
    conditional_connector(heat_port, on, "use_heat_port = 1");
    // Off, the port's temperature is defined and its unconnected flow is zero
    // (flattening's rule): one equation either way, decided at compile().
    equation(0.0 == ifelse(on, heat_port.Q_flow + LossPower, heat_port.T - T));
    equation(T_heatPort == heat_port.T);
    // On, the heat counts as port power (Q_flow): nothing is lost inside.
    dissipated_power(ifelse(on, 0.0, LossPower));
  }
};

}  // namespace acausal::electrical
