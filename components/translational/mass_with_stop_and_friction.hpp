#pragma once

#include "components/common/friction_modes.hpp"
#include "components/thermal/conditional_heat_port.hpp"
#include "connectors/translational.hpp"

namespace acausal::translational {

/// Sliding mass with hard stops and Stribeck friction (MSL
/// Translational.Components.MassWithStopAndFriction): a body of length L
/// between s = smin + L/2 and smax - L/2. Sliding, the friction force is
/// F_prop·v ± (F_Coulomb + F_Stribeck·exp(-fexp·|v|)); stuck up to
/// 1.001·(F_Coulomb + F_Stribeck). At a stop the mass is set onto the limit at
/// rest (reinit, an inelastic impact) and held there until pulled away.
/// With use_heat_port = 1 the friction loss lossPower leaves as heat through
/// heat_port (thermal::ConditionalHeatPort, MSL useHeatPort); the kinetic
/// energy lost in impacts stays dissipated at events.
struct MassWithStopAndFriction : Component {
  Flange flange_a{*this, "flange_a"}, flange_b{*this, "flange_b"};
  Parameter m = parameter("m", 1.0, {.unit = "kg", .min = 0});
  Parameter L = parameter("L", 0.0, {.unit = "m", .min = 0, .description = "length of the body"});
  Parameter smax = parameter("smax", 25.0, {.unit = "m", .description = "right stop, for the right flange"});
  Parameter smin = parameter("smin", -25.0, {.unit = "m", .description = "left stop, for the left flange"});
  Parameter v_small = parameter("v_small", 1e-3, {.unit = "m/s", .min = 0});
  Parameter F_prop = parameter("F_prop", 1.0, {.unit = "N.s/m", .min = 0, .description = "viscous friction"});
  Parameter F_Coulomb = parameter("F_Coulomb", 5.0, {.unit = "N", .description = "Coulomb friction"});
  Parameter F_Stribeck = parameter("F_Stribeck", 10.0, {.unit = "N", .description = "Stribeck friction at v = 0"});
  Parameter fexp = parameter("fexp", 2.0, {.unit = "s/m", .min = 0, .description = "Stribeck decay"});
  Variable s = variable("s", {.unit = "m", .state = StateSelect::always});
  Variable v = variable("v", {.unit = "m/s", .state = StateSelect::always});
  Variable a = variable("a", {.unit = "m/s2"});
  Variable f = variable("f", {.unit = "N", .description = "friction force, positive against positive v"});
  FrictionModes friction{*this, "N", "m/s2"};
  Discrete stopped = discrete("stopped", {.kind = DiscreteKind::integer, .description = "-1 at the left stop, 1 right"});
  Discrete W_impacts = discrete("W_impacts", {.unit = "J", .description = "kinetic energy lost in impacts at the stops"});
  thermal::ConditionalHeatPort heat{*this};

  explicit MassWithStopAndFriction(std::string name) : Component(std::move(name)) {
    const Expr s_lo = smin + L / 2, s_hi = smax - L / 2;
    const Expr f0 = F_Coulomb + F_Stribeck, f0_max = 1.001 * f0;
    const Expr free = f0 <= 0.0 && F_prop <= 0.0 && s > s_lo && s < s_hi;
    equation(flange_a.s == s - L / 2);
    equation(flange_b.s == s + L / 2);
    equation(v == der(s));
    equation(a == der(v));
    equation(m * a == flange_a.f + flange_b.f - f);
    friction.equations(*this, v, a, f0, f0_max, free, v_small, s < s_hi, s > s_lo);
    // Starting, the friction is the break-away value; sliding, it decays with |v|.
    const Expr stribeck = F_Coulomb + F_Stribeck * exp(-fexp * no_event(abs(v)));
    const FrictionModes& fm = friction;
    equation(f == ifelse(fm.locked, fm.sa * fm.unit_force,
                         ifelse(free, 0.0,
                                ifelse(fm.startForward, F_prop * v + f0,
                                       ifelse(fm.startBackward, F_prop * v - f0,
                                              ifelse(equal(pre(fm.mode), FrictionModes::Forward), F_prop * v + stribeck,
                                                     F_prop * v - stribeck))))));
    equation(stopped == ifelse(s <= s_lo, -1.0, ifelse(s >= s_hi, 1.0, 0.0)));
    when(!equal(stopped, 0.0), {reinit(s, ifelse(stopped < 0.0, s_lo, s_hi)), reinit(v, 0.0),
                                W_impacts == pre(W_impacts) + 0.5 * m * v * v});
    stored_energy(0.5 * m * v * v);
    require(m > 0, "the mass m must be positive");
    dissipated_at_events(W_impacts);
    heat.equations(*this, f * v);
  }
};

}  // namespace acausal::translational
