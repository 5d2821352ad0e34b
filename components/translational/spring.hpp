#pragma once

#include "components/translational/partial_compliant.hpp"

namespace acausal::translational {

/// Linear spring: f = c·(s_rel - s_rel0).
struct Spring : PartialCompliant {
  Parameter c = parameter("c", 1.0, {.unit = "N/m", .min = 0});
  Parameter s_rel0 = parameter("s_rel0", 0.0, {.unit = "m"});

  explicit Spring(std::string name) : PartialCompliant(std::move(name)) {
    stored_energy(0.5 * c * (s_rel - s_rel0) * (s_rel - s_rel0));
    equation(f == c * (s_rel - s_rel0));
  }
};

}  // namespace acausal::translational
