#pragma once

#include "connectors/thermal.hpp"

namespace acausal::thermal {

/// Fixed heat flow boundary condition (MSL HeatTransfer.Sources.FixedHeatFlow):
/// the heat flow Q_flow enters the connected component, scaled by
/// (1 + alpha·(port.T - T_ref)) for a temperature-dependent source (a heating
/// resistor). MSL's sign: port.Q_flow = -Q_flow·(1 + alpha·(port.T - T_ref)),
/// so Q_flow > 0 heats what the port is connected to. An ideal source for the
/// energy books.
struct FixedHeatFlow : Component {
  HeatPort port{*this, "port"};
  Parameter Q_flow = parameter("Q_flow", 0.0, {.unit = "W", .description = "fixed heat flow rate at port"});
  Parameter T_ref = parameter("T_ref", 293.15, {.unit = "K", .min = 0, .description = "reference temperature"});
  Parameter alpha = parameter("alpha", 0.0, {.unit = "1/K", .description = "temperature coefficient of the heat flow"});

  explicit FixedHeatFlow(std::string name) : Component(std::move(name)) {
    energy_source();
    equation(port.Q_flow == -Q_flow * (1.0 + alpha * (port.T - T_ref)));
  }
};

}  // namespace acausal::thermal
