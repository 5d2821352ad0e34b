#pragma once

#include <string>
#include <vector>

#include "components/common/friction_modes.hpp"
#include "components/thermal/conditional_heat_port.hpp"
#include "connectors/rotational.hpp"
#include "connectors/signal.hpp"

namespace acausal::vehicle {

/// How a vehicle Brake or Clutch rubs, a structural choice (`{"friction",
/// FrictionLaw::smooth}` in C++, `friction="smooth"` in Python; locking by
/// default). locking: dry
/// friction with a stuck mode (FrictionModes): below its capacity it holds
/// exactly (no creep), above it slides at the capacity, and it breaks away at
/// peak times the capacity. smooth: capacity·tanh(w/w_eps), with no events but
/// a slip of order w_eps under any load.
struct FrictionLaw {
  enum : int { locking, smooth };
  static inline const std::vector<std::string> names = {"locking", "smooth"};
};

/// Brake between driveline and wheel: both flanges turn together; the
/// friction torque, of capacity brake_input·tau_max (brake_input in [0, 1]),
/// acts against the fixed housing and opposes rotation, so the flange torques
/// sum to it (FrictionLaw). P_dissipated = tau·w ≥ 0, zero while held.
/// With use_heat_port = 1 the loss lossPower leaves as heat through heat_port
/// (thermal::ConditionalHeatPort, MSL useHeatPort).
struct Brake : Component {
  rotational::Flange flange_a{*this, "flange_a"}, flange_b{*this, "flange_b"};
  RealInput brake_input{*this, "brake_input"};
  Parameter tau_max = parameter("tau_max", 1000.0, {.unit = "N.m", .min = 0});
  Parameter friction_law = parameter("friction", FrictionLaw::locking,
                                     {.description = "friction law (locking, smooth)", .choices = FrictionLaw::names});
  Parameter peak = parameter("peak", 1.0, {.min = 1, .description = "break-away / sliding torque (locking)"});
  Parameter w_eps = parameter("w_eps", 0.01, {.unit = "rad/s", .min = 1e-12, .description = "smooth law's slip scale"});
  Variable phi = variable("phi", {.unit = "rad"});
  Variable w = variable("w", {.unit = "rad/s"});
  Variable tau = variable("tau", {.unit = "N.m"});
  Variable P_dissipated = variable("P_dissipated", {.unit = "W"});
  FrictionModes friction{*this, "N.m", "rad/s2"};
  thermal::ConditionalHeatPort heat{*this};

  explicit Brake(std::string name) : Component(std::move(name)) {
    const Expr locking = chosen(friction_law, FrictionLaw::locking);
    const Expr capacity = brake_input * tau_max, free = brake_input <= 0.0;
    equation(phi == flange_a.phi);
    equation(phi == flange_b.phi);
    equation(w == der(phi));
    // Released at standstill, unloaded: the held torque is round-off against a limit fading to zero.
    friction.breakaway_margin = 1e-9;
    // der(w), not a variable of its own: with the smooth law it vanishes.
    friction.equations_when(locking, *this, w, der(w), capacity, peak * capacity, free, Expr(1e10));  // no reversals
    equation(tau == ifelse(locking, friction.force(free, capacity, -capacity), capacity * tanh(w / w_eps)));
    equation(flange_a.tau + flange_b.tau == tau);
    equation(P_dissipated == tau * w);
    heat.equations(*this, P_dissipated);
  }
};

}  // namespace acausal::vehicle
