#pragma once

#include "components/translational/partial_compliant.hpp"

namespace acausal::translational {

/// Linear spring and damper in parallel: f = c·(s_rel - s_rel0) + d·v_rel.
struct SpringDamper : PartialCompliant {
  Parameter c = parameter("c", 1.0, {.unit = "N/m", .min = 0});
  Parameter d = parameter("d", 0.0, {.unit = "N.s/m", .min = 0});
  Parameter s_rel0 = parameter("s_rel0", 0.0, {.unit = "m"});
  Variable v_rel = variable("v_rel", {.unit = "m/s"});

  explicit SpringDamper(std::string name) : PartialCompliant(std::move(name)) {
    stored_energy(0.5 * c * (s_rel - s_rel0) * (s_rel - s_rel0));
    dissipated_power(d * v_rel * v_rel);
    equation(v_rel == der(flange_b.s - flange_a.s));
    equation(f == c * (s_rel - s_rel0) + d * v_rel);
  }
};

}  // namespace acausal::translational
