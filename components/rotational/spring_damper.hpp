#pragma once

#include "components/rotational/partial_compliant.hpp"
#include "components/thermal/conditional_heat_port.hpp"

namespace acausal::rotational {

/// Linear spring and damper in parallel: tau = c·(phi_rel - phi_rel0) + d·w_rel.
/// With use_heat_port = 1 the loss lossPower leaves as heat through heat_port
/// (thermal::ConditionalHeatPort, MSL useHeatPort).
struct SpringDamper : PartialCompliant {
  Parameter c = parameter("c", 1.0e5, {.unit = "N.m/rad", .min = 0});
  Parameter d = parameter("d", 0.0, {.unit = "N.m.s/rad", .min = 0});
  Parameter phi_rel0 = parameter("phi_rel0", 0.0, {.unit = "rad"});
  Variable w_rel = variable("w_rel", {.unit = "rad/s"});
  thermal::ConditionalHeatPort heat{*this};

  explicit SpringDamper(std::string name) : PartialCompliant(std::move(name)) {
    stored_energy(0.5 * c * (phi_rel - phi_rel0) * (phi_rel - phi_rel0));
    equation(w_rel == der(flange_b.phi - flange_a.phi));
    equation(tau == c * (phi_rel - phi_rel0) + d * w_rel);
    heat.equations(*this, d * w_rel * w_rel);
  }
};

}  // namespace acausal::rotational
