#pragma once

#include "connectors/rotational.hpp"
#include "connectors/signal.hpp"

namespace acausal::rotational {

/// Torque, speed and power at a rigid cut between flange_a and flange_b (MSL
/// Rotational.Sensors.MultiSensor): tau = flange_a.tau, w = der(flange_a.phi),
/// power = tau·w, the power passing from flange_a to flange_b.
struct MultiSensor : Component {
  Flange flange_a{*this, "flange_a"}, flange_b{*this, "flange_b"};
  RealOutput power{*this, "power", {.unit = "W"}};
  RealOutput w{*this, "w", {.unit = "rad/s"}};
  RealOutput tau{*this, "tau", {.unit = "N.m"}};
  explicit MultiSensor(std::string name) : Component(std::move(name)) {
    equation(flange_a.phi == flange_b.phi);
    equation(flange_a.tau + flange_b.tau == 0.0);
    equation(w == der(flange_a.phi));
    equation(tau == flange_a.tau);
    equation(power == tau * w);
  }
};

}  // namespace acausal::rotational
