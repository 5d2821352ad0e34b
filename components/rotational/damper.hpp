#pragma once

#include "components/rotational/partial_compliant.hpp"

namespace acausal::rotational {

/// Linear torsional damper: tau = d·w_rel. Dissipates tau·w_rel >= 0.
struct Damper : PartialCompliant {
  Parameter d = parameter("d", 0.0, {.unit = "N.m.s/rad", .min = 0});
  Variable w_rel = variable("w_rel", {.unit = "rad/s"});

  explicit Damper(std::string name) : PartialCompliant(std::move(name)) {
    dissipated_power(tau * w_rel);
    // Differentiating the flange angles rather than phi_rel keeps the DAE index 1
    // when both flanges carry inertias.
    equation(w_rel == der(flange_b.phi - flange_a.phi));
    equation(tau == d * w_rel);
  }
};

}  // namespace acausal::rotational
