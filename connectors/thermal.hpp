#pragma once

#include "solver/modeling/component.hpp"

namespace acausal::thermal {

/// Heat port (Modelica.Thermal.HeatTransfer.Interfaces.HeatPort): the port
/// temperature T and the heat flow rate Q_flow, positive into the component.
/// Q_flow is itself the power entering.
struct HeatPort : Connector {
  Variable T = potential("T", {.unit = "K", .start = 293.15, .nominal = 300.0});
  Variable Q_flow = flow("Q_flow", {.unit = "W"});
  HeatPort(Component& owner, std::string name)
      : Connector(owner, std::move(name), "thermal.HeatPort", PortPower::flow) {}
};

}  // namespace acausal::thermal
