#pragma once

#include "connectors/rotational.hpp"

namespace acausal::rotational {

/// Constant torque tau_constant driving the flange (reaction in the fixed housing).
struct ConstantTorque : Component {
  Flange flange{*this, "flange"};
  Parameter tau_constant = parameter("tau_constant", 1.0, {.unit = "N.m"});
  Variable tau = variable("tau", {.unit = "N.m"});
  Variable w = variable("w", {.unit = "rad/s"});

  explicit ConstantTorque(std::string name) : Component(std::move(name)) {
    energy_source();
    equation(w == der(flange.phi));
    equation(tau == tau_constant);
    equation(flange.tau == -tau);
  }
};

}  // namespace acausal::rotational
