#pragma once

#include "components/electrical/one_port.hpp"
#include "components/thermal/conditional_heat_port.hpp"

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
  thermal::ConditionalHeatPort heat;
  Parameter use_heat_port = heat.use_heat_port;
  Parameter T = heat.T;
  thermal::HeatPort& heat_port = heat.heat_port;
  Variable LossPower = heat.lossPower;
  Variable T_heatPort = variable("T_heatPort", {.unit = "K", .start = 293.15, .nominal = 300.0});

  ConditionalHeatPort(std::string name, double T_fixed)
      : OnePort(std::move(name)), heat(*this, "LossPower", T_fixed) {
    heat.port_equations(*this);
    equation(T_heatPort == heat_port.T);
  }
};

}  // namespace acausal::electrical
