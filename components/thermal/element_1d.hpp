#pragma once

#include "connectors/thermal.hpp"

namespace acausal::thermal {

/// Base of the lumped elements that pass heat between two ports without
/// storing any (MSL HeatTransfer.Interfaces.Element1D): the temperature
/// difference dT = port_a.T - port_b.T and the heat flow Q_flow from port_a to
/// port_b. Heat in equals heat out, so the element neither stores nor
/// dissipates energy: its books close with port_a.Q_flow + port_b.Q_flow = 0.
struct Element1D : Component {
  HeatPort port_a{*this, "port_a"}, port_b{*this, "port_b"};
  Variable Q_flow = variable("Q_flow", {.unit = "W", .description = "heat flow rate from port_a to port_b"});
  Variable dT = variable("dT", {.unit = "K", .description = "port_a.T - port_b.T"});

  explicit Element1D(std::string name) : Component(std::move(name)) {
    equation(dT == port_a.T - port_b.T);
    equation(port_a.Q_flow == Q_flow);
    equation(port_b.Q_flow == -Q_flow);
  }
};

}  // namespace acausal::thermal
