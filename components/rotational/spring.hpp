#pragma once

#include "components/rotational/partial_compliant.hpp"

namespace acausal::rotational {

/// Linear torsional spring: tau = c·(phi_rel - phi_rel0).
struct Spring : PartialCompliant {
  Parameter c = parameter("c", 1.0e5, {.unit = "N.m/rad", .min = 0});
  Parameter phi_rel0 = parameter("phi_rel0", 0.0, {.unit = "rad"});

  explicit Spring(std::string name) : PartialCompliant(std::move(name)) {
    stored_energy(0.5 * c * (phi_rel - phi_rel0) * (phi_rel - phi_rel0));
    equation(tau == c * (phi_rel - phi_rel0));
  }
};

}  // namespace acausal::rotational
