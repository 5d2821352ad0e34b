#pragma once

#include <string>
#include <utility>

#include "components/vehicle/terrain/partial_soil_contact.hpp"
#include "connectors/translational.hpp"

namespace acausal::vehicle {

/// A rectangular plate (width b, length L) pressed into soft soil: the
/// bevameter's plate-sinkage test (Bekker). The load W pushes down on
/// `flange` (vertical, positive up: W = -flange.f, flange.s = -z); the plate
/// sinks z = (p/k_eq)^(1/n) under the pressure p = W/(b·L), with
/// k_eq = k_c/b + k_phi (Bekker) or Reece's modulus (pressure_law). No
/// rebound: the work of the load on the sinking plate is dissipated. A
/// negative load (pulling the plate up) is taken as none.
struct SoilPlate : PartialSoilContact {
  translational::Flange flange{*this, "flange"};
  Parameter L = parameter("L", 0.1, {.unit = "m", .min = 1e-6, .description = "plate length"});

  Variable W = variable("W", {.unit = "N", .description = "load on the plate"});
  Variable p = variable("p", {.unit = "Pa", .description = "pressure under the plate"});
  Variable z = variable("z", {.unit = "m", .description = "sinkage"});

  explicit SoilPlate(std::string name) : PartialSoilContact(std::move(name)) {
    dissipated_power(der(flange.s) * flange.f);
    equation(W == -flange.f);
    equation(p == W / (b * L));
    equation(z == pow(no_event(max(p, 0.0)) / sinkage_modulus(), 1.0 / n));
    equation(flange.s == -z);
  }
};

}  // namespace acausal::vehicle
