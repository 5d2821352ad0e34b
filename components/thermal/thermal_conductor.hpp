#pragma once

#include "components/thermal/element_1d.hpp"

namespace acausal::thermal {

/// Lumped thermal conduction without storage (MSL
/// HeatTransfer.Components.ThermalConductor): Q_flow = G·dT, G = k·A/L for a slab of conductivity k,
/// area A and thickness L.
struct ThermalConductor : Element1D {
  Parameter G = parameter("G", 1.0, {.unit = "W/K", .min = 0, .description = "constant thermal conductance"});

  explicit ThermalConductor(std::string name) : Element1D(std::move(name)) { equation(Q_flow == G * dT); }
};

}  // namespace acausal::thermal
