#pragma once

#include "components/thermal/element_1d.hpp"

namespace acausal::thermal {

/// Lumped thermal resistance without storage (MSL
/// HeatTransfer.Components.ThermalResistor): dT = R·Q_flow, R = L/(k·A); the inverse of a
/// ThermalConductor, and resistances in series add.
struct ThermalResistor : Element1D {
  Parameter R = parameter("R", 1.0, {.unit = "K/W", .min = 0, .description = "constant thermal resistance"});

  explicit ThermalResistor(std::string name) : Element1D(std::move(name)) { equation(dT == R * Q_flow); }
};

}  // namespace acausal::thermal
