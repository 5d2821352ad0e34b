#pragma once

#include "connectors/rotational.hpp"

namespace acausal::rotational {

/// Torque growing with the square of the speed: tau = tau_nominal·(w/w_nominal)²
/// (TorqueDirection = 1) or tau_nominal·(w/w_nominal)·|w/w_nominal| (0: follows
/// the rotation). A negative tau_nominal makes it a load. tau drives the flange.
struct QuadraticSpeedDependentTorque : Component {
  Flange flange{*this, "flange"};
  Parameter tau_nominal = parameter("tau_nominal", -1.0, {.unit = "N.m"});
  Parameter w_nominal = parameter("w_nominal", 1.0, {.unit = "rad/s", .min = 1e-15});
  Parameter TorqueDirection = parameter("TorqueDirection", 1.0, {.unit = "1", .min = 0, .max = 1, .structural = true});
  Variable w = variable("w", {.unit = "rad/s"});
  Variable tau = variable("tau", {.unit = "N.m"});

  explicit QuadraticSpeedDependentTorque(std::string name) : Component(std::move(name)) {
    energy_source();
    Expr ratio = w / w_nominal;
    equation(w == der(flange.phi));
    equation(tau == ifelse(TorqueDirection > 0.5, tau_nominal * ratio * ratio,
                           tau_nominal * no_event(ratio * abs(ratio))));  // C1 at w = 0: no event needed
    equation(flange.tau == -tau);
  }
};

}  // namespace acausal::rotational
