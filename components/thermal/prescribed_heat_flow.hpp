#pragma once

#include "connectors/signal.hpp"
#include "connectors/thermal.hpp"

namespace acausal::thermal {

/// Prescribed heat flow boundary condition (MSL
/// HeatTransfer.Sources.PrescribedHeatFlow): the input Q_flow [W] enters the connected component,
/// scaled by (1 + alpha·(port.T - T_ref)); port.Q_flow = -Q_flow·(1 + ...),
/// MSL's sign. An ideal source for the energy books.
struct PrescribedHeatFlow : Component {
  HeatPort port{*this, "port"};
  RealInput Q_flow{*this, "Q_flow", {.unit = "W"}};
  Parameter T_ref = parameter("T_ref", 293.15, {.unit = "K", .min = 0, .description = "reference temperature"});
  Parameter alpha = parameter("alpha", 0.0, {.unit = "1/K", .description = "temperature coefficient of the heat flow"});

  explicit PrescribedHeatFlow(std::string name) : Component(std::move(name)) {
    energy_source();
    equation(port.Q_flow == -Q_flow * (1.0 + alpha * (port.T - T_ref)));
  }
};

}  // namespace acausal::thermal
