#pragma once

#include <string>

#include "components/common/friction_modes.hpp"
#include "components/vehicle/driveline/directional_efficiency.hpp"
#include "connectors/rotational.hpp"

namespace acausal::vehicle {

/// Clutch-type (preloaded, torque-biasing) limited-slip differential:
/// the kinematics and the efficiency of the Differential,
/// ω_input = ratio·(ω_left + ω_right)/2, τ_left + τ_right = ratio·τ_input·η,
/// with a locking friction clutch between the half-shafts (FrictionModes, the
/// machine of the locking Clutch and Brake) whose torque is the bias
/// tau_bias = τ_right - τ_left, acting on w_rel = ω_left - ω_right. Its
/// capacity is
///   capacity = T_pre + (TBR - 1)/(TBR + 1)·|τ_left + τ_right|,
/// a preload plus a share of the delivered torque (ramp and cone clutches).
/// Below it the half-shafts lock (ω_left = ω_right exactly, the bias whatever
/// holds them); beyond it they slip with |tau_bias| = capacity, torque going
/// to the slower side, so that without preload the slower side gets TBR times
/// the faster side's torque (with it, TBR·τ_low + T_pre·(TBR + 1)/2).
/// TBR = 1 and T_pre = 0: an open differential (the clutch is free).
/// P_loss = τ_input·ω_input - τ_left·ω_left - τ_right·ω_right
///        = τ_input·ω_input·(1 - η) + tau_bias·w_rel/2 ≥ 0.
struct LimitedSlipDifferential : Component {
  rotational::Flange flange_input{*this, "flange_input"};
  rotational::Flange flange_left{*this, "flange_left"}, flange_right{*this, "flange_right"};
  Parameter ratio = parameter("ratio", 3.5, {.min = 1e-6});
  Parameter T_pre = parameter("T_pre", 0.0, {.unit = "N.m", .min = 0, .description = "clutch preload"});
  Parameter TBR = parameter("TBR", 2.0, {.min = 1, .description = "torque bias ratio (slow side / fast side)"});
  Parameter efficiency = parameter("efficiency", 1.0, {.min = 1e-3, .max = 1});
  Parameter P_eps = parameter("P_eps", 100.0, {.unit = "W", .min = 1e-9});
  Variable w_input = variable("w_input", {.unit = "rad/s"});
  Variable w_left = variable("w_left", {.unit = "rad/s"});
  Variable w_right = variable("w_right", {.unit = "rad/s"});
  Variable w_rel = variable("w_rel", {.unit = "rad/s", .description = "w_left - w_right"});
  Variable tau_left = variable("tau_left", {.unit = "N.m", .description = "delivered to the left wheel"});
  Variable tau_right = variable("tau_right", {.unit = "N.m", .description = "delivered to the right wheel"});
  Variable tau_bias = variable("tau_bias", {.unit = "N.m", .description = "tau_right - tau_left, the clutch torque"});
  Variable capacity = variable("capacity", {.unit = "N.m", .description = "T_pre + (TBR-1)/(TBR+1)·|sum|"});
  Variable P_loss = variable("P_loss", {.unit = "W"});
  FrictionModes friction{*this, "N.m", "rad/s2"};

  explicit LimitedSlipDifferential(std::string name) : Component(std::move(name)) {
    dissipated_power(P_loss);
    const Expr open = T_pre <= 0.0 && TBR <= 1.0;  // parameters only: no event
    equation(2.0 * flange_input.phi == ratio * (flange_left.phi + flange_right.phi));
    equation(w_input == der(flange_input.phi));
    equation(w_left == der(flange_left.phi));
    equation(w_right == der(flange_right.phi));
    equation(w_rel == w_left - w_right);
    equation(tau_left == -flange_left.tau);
    equation(tau_right == -flange_right.tau);
    const Expr eta = directional_efficiency(efficiency, flange_input.tau * w_input, P_eps);
    equation(tau_left + tau_right == ratio * flange_input.tau * eta);
    equation(capacity == T_pre + (TBR - 1.0) / (TBR + 1.0) * no_event(abs(tau_left + tau_right)));
    friction.equations(*this, w_rel, der(w_rel), capacity, capacity, open, Expr(1e10));  // no reversals
    equation(tau_bias == friction.force(open, capacity, -capacity));
    equation(tau_right - tau_left == tau_bias);
    equation(P_loss == flange_input.tau * w_input - tau_left * w_left - tau_right * w_right);
  }
};

}  // namespace acausal::vehicle
