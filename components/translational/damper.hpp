#pragma once

#include "components/thermal/conditional_heat_port.hpp"
#include "components/translational/partial_compliant.hpp"

namespace acausal::translational {

/// Linear damper: f = d·v_rel. Dissipates f·v_rel >= 0.
/// With use_heat_port = 1 the loss lossPower leaves as heat through heat_port
/// (thermal::ConditionalHeatPort, MSL useHeatPort).
struct Damper : PartialCompliant {
  Parameter d = parameter("d", 0.0, {.unit = "N.s/m", .min = 0});
  Variable v_rel = variable("v_rel", {.unit = "m/s"});
  thermal::ConditionalHeatPort heat{*this};

  explicit Damper(std::string name) : PartialCompliant(std::move(name)) {
    // Differentiating the flange positions rather than s_rel keeps the DAE index 1
    // when both flanges carry masses.
    equation(v_rel == der(flange_b.s - flange_a.s));
    equation(f == d * v_rel);
    heat.equations(*this, f * v_rel);
  }
};

}  // namespace acausal::translational
