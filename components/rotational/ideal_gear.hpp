#pragma once

#include "connectors/rotational.hpp"

namespace acausal::rotational {

/// Ideal gear without inertia or losses: flange_a.phi = ratio·flange_b.phi and
/// ratio·flange_a.tau + flange_b.tau = 0 (power in = power out). Between two
/// inertias this is a constraint between states; index reduction handles it.
struct IdealGear : Component {
  Flange flange_a{*this, "flange_a"}, flange_b{*this, "flange_b"};
  Parameter ratio = parameter("ratio", 1.0, {.unit = "1"});
  Variable phi_a = variable("phi_a", {.unit = "rad"});
  Variable phi_b = variable("phi_b", {.unit = "rad"});

  explicit IdealGear(std::string name) : Component(std::move(name)) {
    equation(phi_a == flange_a.phi);
    equation(phi_b == flange_b.phi);
    equation(phi_a == ratio * phi_b);
    equation(0.0 == ratio * flange_a.tau + flange_b.tau);
  }
};

}  // namespace acausal::rotational
