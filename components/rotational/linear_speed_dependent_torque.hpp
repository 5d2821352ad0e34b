#pragma once

#include "connectors/rotational.hpp"

namespace acausal::rotational {

/// Torque linear in the speed: tau = tau_nominal·w/w_nominal (TorqueDirection = 0)
/// or tau_nominal·|w/w_nominal| (1: same sign both ways). tau drives the flange.
struct LinearSpeedDependentTorque : Component {
  Flange flange{*this, "flange"};
  Parameter tau_nominal = parameter("tau_nominal", -1.0, {.unit = "N.m"});
  Parameter w_nominal = parameter("w_nominal", 1.0, {.unit = "rad/s", .min = 1e-15});
  Parameter TorqueDirection = parameter("TorqueDirection", 1.0, {.unit = "1", .min = 0, .max = 1, .structural = true});
  Variable w = variable("w", {.unit = "rad/s"});
  Variable tau = variable("tau", {.unit = "N.m"});

  explicit LinearSpeedDependentTorque(std::string name) : Component(std::move(name)) {
    energy_source();
    equation(w == der(flange.phi));
    equation(tau == ifelse(TorqueDirection > 0.5, tau_nominal * abs(w / w_nominal), tau_nominal * w / w_nominal));
    equation(flange.tau == -tau);
  }
};

}  // namespace acausal::rotational
