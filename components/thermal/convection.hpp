#pragma once

#include "connectors/signal.hpp"
#include "connectors/thermal.hpp"

namespace acausal::thermal {

/// Convection between a solid surface and a fluid (MSL
/// HeatTransfer.Components.Convection): Q_flow = Gc·dT, dT = solid.T - fluid.T, with the
/// convective conductance Gc = h·A [W/K] an input (it depends on the flow:
/// a disc cools faster at speed). Stores and dissipates nothing.
struct Convection : Component {
  HeatPort solid{*this, "solid"}, fluid{*this, "fluid"};
  RealInput Gc{*this, "Gc", {.unit = "W/K"}};
  Variable Q_flow = variable("Q_flow", {.unit = "W", .description = "heat flow rate from solid to fluid"});
  Variable dT = variable("dT", {.unit = "K", .description = "solid.T - fluid.T"});

  explicit Convection(std::string name) : Component(std::move(name)) {
    equation(dT == solid.T - fluid.T);
    equation(solid.Q_flow == Q_flow);
    equation(fluid.Q_flow == -Q_flow);
    equation(Q_flow == Gc * dT);
  }
};

}  // namespace acausal::thermal
