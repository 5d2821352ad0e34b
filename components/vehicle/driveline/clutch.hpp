#pragma once

#include "components/rotational/partial_compliant.hpp"
#include "components/thermal/conditional_heat_port.hpp"
#include "components/vehicle/driveline/brake.hpp"
#include "connectors/signal.hpp"

namespace acausal::vehicle {

/// Friction clutch of capacity engagement_input·tau_max (engagement_input in
/// [0, 1]; disengaged at 0 it decouples). Engaged with a torque demand below
/// its capacity it turns both sides together (locking: exactly; smooth: with a
/// slip of order w_eps); above it, it slips at its capacity (FrictionLaw).
/// P_dissipated = tau·w_rel ≥ 0, zero while locked.
/// With use_heat_port = 1 the loss lossPower leaves as heat through heat_port
/// (thermal::ConditionalHeatPort, MSL useHeatPort).
struct Clutch : rotational::PartialCompliant {
  RealInput engagement_input{*this, "engagement_input"};
  Parameter tau_max = parameter("tau_max", 400.0, {.unit = "N.m", .min = 0});
  Parameter friction_law = parameter("friction", FrictionLaw::locking,
                                     {.description = "friction law (locking, smooth)", .choices = FrictionLaw::names});
  Parameter peak = parameter("peak", 1.0, {.min = 1, .description = "break-away / sliding torque (locking)"});
  Parameter w_eps = parameter("w_eps", 1.0, {.unit = "rad/s", .min = 1e-12, .description = "smooth law's slip scale"});
  Variable w_rel = variable("w_rel", {.unit = "rad/s"});
  Variable P_dissipated = variable("P_dissipated", {.unit = "W"});
  FrictionModes friction{*this, "N.m", "rad/s2"};
  thermal::ConditionalHeatPort heat{*this};

  explicit Clutch(std::string name) : PartialCompliant(std::move(name)) {
    const Expr locking = chosen(friction_law, FrictionLaw::locking);
    const Expr capacity = engagement_input * tau_max, free = engagement_input <= 0.0;
    equation(w_rel == der(phi_rel));
    // der(w_rel), not a variable of its own: with the smooth law it vanishes.
    friction.equations_when(locking, *this, w_rel, der(w_rel), capacity, peak * capacity, free, Expr(1e10));
    // The smooth law reads the flanges' speeds (the neighbours' states), not w_rel = der(phi_rel): IDA
    // weighs a correction to a derivative at h times its size, so a residual nonlinear in one fails its
    // Newton test at every step size (a gear shift under a locking synchronizer stopped the car so).
    const Expr slip = der(flange_b.phi) - der(flange_a.phi);
    equation(tau == ifelse(locking, friction.force(free, capacity, -capacity), capacity * tanh(slip / w_eps)));
    equation(P_dissipated == tau * w_rel);
    heat.equations(*this, P_dissipated);
  }
};

}  // namespace acausal::vehicle
