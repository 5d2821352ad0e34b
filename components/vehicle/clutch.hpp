#pragma once

#include "components/rotational/partial_compliant.hpp"
#include "connectors/signal.hpp"

namespace acausal::vehicle {

/// Friction clutch: transmits tau = engagement_input·tau_max·tanh(w_rel/w_eps)
/// (engagement_input in [0, 1]). Engaged with a torque demand below its
/// capacity it turns both sides together (w_rel of order w_eps); above it, it
/// slips at its capacity; disengaged it decouples. P_dissipated = tau·w_rel ≥ 0.
struct Clutch : rotational::PartialCompliant {
  RealInput engagement_input{*this, "engagement_input"};
  Parameter tau_max = parameter("tau_max", 400.0, {.unit = "N.m", .min = 0});
  Parameter w_eps = parameter("w_eps", 1.0, {.unit = "rad/s", .min = 1e-12});
  Variable w_rel = variable("w_rel", {.unit = "rad/s"});
  Variable P_dissipated = variable("P_dissipated", {.unit = "W"});

  explicit Clutch(std::string name) : PartialCompliant(std::move(name)) {
    dissipated_power(P_dissipated);
    equation(w_rel == der(phi_rel));
    equation(tau == engagement_input * tau_max * tanh(w_rel / w_eps));
    equation(P_dissipated == tau * w_rel);
  }
};

}  // namespace acausal::vehicle
