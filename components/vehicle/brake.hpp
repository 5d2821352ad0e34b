#pragma once

#include "connectors/rotational.hpp"
#include "connectors/signal.hpp"

namespace acausal::vehicle {

/// Brake between driveline and wheel: both flanges turn together; the
/// friction torque brake_input·tau_max·tanh(w/w_eps) (brake_input in [0, 1])
/// acts against the fixed housing and opposes rotation, so the flange torques
/// sum to it. P_dissipated = tau·w ≥ 0.
struct Brake : Component {
  rotational::Flange flange_a{*this, "flange_a"}, flange_b{*this, "flange_b"};
  RealInput brake_input{*this, "brake_input"};
  Parameter tau_max = parameter("tau_max", 1000.0, {.unit = "N.m", .min = 0});
  Parameter w_eps = parameter("w_eps", 0.01, {.unit = "rad/s", .min = 1e-12});
  Variable phi = variable("phi", {.unit = "rad"});
  Variable w = variable("w", {.unit = "rad/s"});
  Variable tau = variable("tau", {.unit = "N.m"});
  Variable P_dissipated = variable("P_dissipated", {.unit = "W"});

  explicit Brake(std::string name) : Component(std::move(name)) {
    dissipated_power(P_dissipated);
    equation(phi == flange_a.phi);
    equation(phi == flange_b.phi);
    equation(w == der(phi));
    equation(tau == brake_input * tau_max * tanh(w / w_eps));
    equation(flange_a.tau + flange_b.tau == tau);
    equation(P_dissipated == tau * w);
  }
};

}  // namespace acausal::vehicle
