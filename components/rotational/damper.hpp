#pragma once

#include "components/rotational/partial_compliant.hpp"
#include "components/thermal/conditional_heat_port.hpp"

namespace acausal::rotational {

/// Linear torsional damper: tau = d·w_rel. Dissipates tau·w_rel >= 0.
/// With use_heat_port = 1 the loss lossPower leaves as heat through heat_port
/// (thermal::ConditionalHeatPort, MSL useHeatPort).
struct Damper : PartialCompliant {
  Parameter d = parameter("d", 0.0, {.unit = "N.m.s/rad", .min = 0});
  Variable w_rel = variable("w_rel", {.unit = "rad/s"});
  thermal::ConditionalHeatPort heat{*this};

  explicit Damper(std::string name) : PartialCompliant(std::move(name)) {
    // Differentiating the flange angles rather than phi_rel keeps the DAE index 1
    // when both flanges carry inertias.
    equation(w_rel == der(flange_b.phi - flange_a.phi));
    equation(tau == d * w_rel);
    heat.equations(*this, tau * w_rel);
  }
};

}  // namespace acausal::rotational
