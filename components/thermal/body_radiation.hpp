#pragma once

#include "components/thermal/element_1d.hpp"

namespace acausal::thermal {

/// Lumped thermal radiation between two bodies (MSL
/// HeatTransfer.Components.BodyRadiation): Q_flow = Gr·sigma·(port_a.T⁴ -
/// port_b.T⁴), the net radiation conductance Gr [m2] holding areas,
/// emissivities and view factors (a grey body of area A and emissivity eps in
/// large surroundings: Gr = eps·A).
struct BodyRadiation : Element1D {
  Parameter Gr = parameter("Gr", 1.0, {.unit = "m2", .min = 0, .description = "net radiation conductance"});
  // A constant with its unit, so that the unit check sees watts (MSL's
  // Modelica.Constants.sigma; structural like the friction elements' unit constants).
  Parameter sigma = parameter("sigma", 5.670374419e-8,
                              {.unit = "W/(m2.K4)", .min = 0, .description = "Stefan-Boltzmann constant",
                               .structural = true});

  explicit BodyRadiation(std::string name) : Element1D(std::move(name)) {
    equation(Q_flow == Gr * sigma * (pow(port_a.T, 4.0) - pow(port_b.T, 4.0)));
  }
};

}  // namespace acausal::thermal
