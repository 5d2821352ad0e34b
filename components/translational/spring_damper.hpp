#pragma once

#include "components/thermal/conditional_heat_port.hpp"
#include "components/translational/partial_compliant.hpp"

namespace acausal::translational {

/// Linear spring and damper in parallel: f = c·(s_rel - s_rel0) + d·v_rel.
/// With use_heat_port = 1 the loss lossPower leaves as heat through heat_port
/// (thermal::ConditionalHeatPort, MSL useHeatPort).
struct SpringDamper : PartialCompliant {
  Parameter c = parameter("c", 1.0, {.unit = "N/m", .min = 0});
  Parameter d = parameter("d", 0.0, {.unit = "N.s/m", .min = 0});
  Parameter s_rel0 = parameter("s_rel0", 0.0, {.unit = "m"});
  Variable v_rel = variable("v_rel", {.unit = "m/s"});
  thermal::ConditionalHeatPort heat{*this};

  explicit SpringDamper(std::string name) : PartialCompliant(std::move(name)) {
    stored_energy(0.5 * c * (s_rel - s_rel0) * (s_rel - s_rel0));
    equation(v_rel == der(flange_b.s - flange_a.s));
    equation(f == c * (s_rel - s_rel0) + d * v_rel);
    heat.equations(*this, d * v_rel * v_rel);
  }
};

}  // namespace acausal::translational
