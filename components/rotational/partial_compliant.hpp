#pragma once

#include "connectors/rotational.hpp"

namespace acausal::rotational {

/// Base of compliant elements between two flanges (Spring, Damper, ...):
/// relative angle phi_rel = flange_b.phi - flange_a.phi and a torque tau that
/// acts on flange_b and, opposite, on flange_a.
struct PartialCompliant : Component {
  Flange flange_a{*this, "flange_a"}, flange_b{*this, "flange_b"};
  Variable phi_rel = variable("phi_rel", {.unit = "rad"});
  Variable tau = variable("tau", {.unit = "N.m"});

  explicit PartialCompliant(std::string name) : Component(std::move(name)) {
    equation(phi_rel == flange_b.phi - flange_a.phi);
    equation(flange_b.tau == tau);
    equation(flange_a.tau == -tau);
  }
};

}  // namespace acausal::rotational
