#pragma once

#include "connectors/rotational.hpp"

namespace acausal::rotational {

/// Base of the ideal gears: phi_a = ratio·phi_b and ratio·flange_a.tau +
/// flange_b.tau = 0 (no inertia, no losses: power in = power out), with the
/// flange angles measured from the housing angle phi_support.
struct PartialIdealGear : Component {
  Flange flange_a{*this, "flange_a"}, flange_b{*this, "flange_b"};
  Parameter ratio = parameter("ratio", 1.0, {.unit = "1"});
  Variable phi_a = variable("phi_a", {.unit = "rad"});
  Variable phi_b = variable("phi_b", {.unit = "rad"});
  Variable phi_support = variable("phi_support", {.unit = "rad"});

  explicit PartialIdealGear(std::string name) : Component(std::move(name)) {
    // A ratio of 0 locks flange_a and cuts flange_b off: a singular model.
    require(abs(ratio) > 0.0, "ratio must not be 0");
    equation(phi_a == flange_a.phi - phi_support);
    equation(phi_b == flange_b.phi - phi_support);
    equation(phi_a == ratio * phi_b);
    equation(0.0 == ratio * flange_a.tau + flange_b.tau);
  }
};

/// Ideal gear in a fixed housing. Between two inertias it is a constraint
/// between states; index reduction handles it.
struct IdealGear : PartialIdealGear {
  explicit IdealGear(std::string name) : PartialIdealGear(std::move(name)) { equation(phi_support == 0.0); }
};

/// Ideal gear whose housing is the `support` flange: it turns with the support
/// and passes the reaction torque -(flange_a.tau + flange_b.tau) to it.
struct IdealGearWithSupport : PartialIdealGear {
  Flange support{*this, "support"};

  explicit IdealGearWithSupport(std::string name) : PartialIdealGear(std::move(name)) {
    equation(phi_support == support.phi);
    equation(support.tau == -(flange_a.tau + flange_b.tau));
  }
};

}  // namespace acausal::rotational
