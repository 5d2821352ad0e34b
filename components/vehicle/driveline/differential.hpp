#pragma once

#include "components/vehicle/driveline/directional_efficiency.hpp"
#include "connectors/rotational.hpp"

namespace acausal::vehicle {

/// Differential: ω_input = ratio·(ω_left + ω_right)/2. Open by default, the
/// two outputs get equal torques; a limited-slip coupling k_lsd moves torque
/// to the slower side, τ_left - τ_right = k_lsd·(ω_right - ω_left).
/// τ_left + τ_right = ratio·τ_input·η, with η = efficiency when the input
/// drives and 1/efficiency when the wheels drive (blended over P_eps).
struct Differential : Component {
  rotational::Flange flange_input{*this, "flange_input"};
  rotational::Flange flange_left{*this, "flange_left"}, flange_right{*this, "flange_right"};
  Parameter ratio = parameter("ratio", 3.5, {.min = 1e-6});
  Parameter k_lsd = parameter("k_lsd", 0.0, {.unit = "N.m.s/rad", .min = 0});
  Parameter efficiency = parameter("efficiency", 1.0, {.min = 1e-3, .max = 1});
  Parameter P_eps = parameter("P_eps", 100.0, {.unit = "W", .min = 1e-9});
  Variable w_input = variable("w_input", {.unit = "rad/s"});
  Variable w_left = variable("w_left", {.unit = "rad/s"});
  Variable w_right = variable("w_right", {.unit = "rad/s"});
  Variable tau_left = variable("tau_left", {.unit = "N.m"});
  Variable tau_right = variable("tau_right", {.unit = "N.m"});
  Variable P_loss = variable("P_loss", {.unit = "W"});

  explicit Differential(std::string name) : Component(std::move(name)) {
    dissipated_power(P_loss);
    equation(2.0 * flange_input.phi == ratio * (flange_left.phi + flange_right.phi));
    equation(w_input == der(flange_input.phi));
    equation(w_left == der(flange_left.phi));
    equation(w_right == der(flange_right.phi));
    equation(tau_left == -flange_left.tau);
    equation(tau_right == -flange_right.tau);
    equation(tau_left - tau_right == k_lsd * (w_right - w_left));
    const Expr eta = directional_efficiency(efficiency, flange_input.tau * w_input, P_eps);
    equation(tau_left + tau_right == ratio * flange_input.tau * eta);
    equation(P_loss == flange_input.tau * w_input - tau_left * w_left - tau_right * w_right);
  }
};

}  // namespace acausal::vehicle
