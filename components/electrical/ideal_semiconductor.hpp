#pragma once

#include "components/electrical/conditional_heat_port.hpp"

namespace acausal::electrical {

/// Base of the ideal diode and thyristor (MSL Interfaces.IdealSemiconductor):
/// a piecewise linear characteristic parametrized by its path s, so that both
/// branches are the same equations with different slopes and no branch
/// leaves v or i undetermined:
///   off: v = s + Vknee,      i = Goff·s + Goff·Vknee  (blocking, slope Goff)
///   on:  v = Ron·s + Vknee,  i = s + Goff·Vknee       (conducting, slope 1/Ron)
/// The two meet at the knee s = 0, so switching (an event on the derived
/// element's off condition) leaves v and i continuous. The loss v·i is >= 0 on
/// both branches.
struct IdealSemiconductor : ConditionalHeatPort {
  Parameter Ron = parameter("Ron", 1e-5, {.unit = "Ohm", .min = 0, .description = "forward state-on resistance"});
  Parameter Goff = parameter("Goff", 1e-5, {.unit = "A/V", .min = 0, .description = "backward state-off conductance"});
  Parameter Vknee = parameter("Vknee", 0.0, {.unit = "V", .min = 0, .description = "forward threshold voltage"});
  Discrete off = discrete("off", {.start = 1.0, .kind = DiscreteKind::boolean, .description = "blocking"});
  // A current on one branch and a voltage on the other (MSL multiplies by unit
  // constants): no unit, so that the unit check lets each equation fix its own.
  Variable s = variable("s", {.description = "position on the characteristic; < 0 below the knee"});

  explicit IdealSemiconductor(std::string name) : ConditionalHeatPort(std::move(name), 293.15) {
    equation(v == s * ifelse(off, 1.0, Ron) + Vknee);
    equation(i == s * ifelse(off, Goff, 1.0) + Goff * Vknee);
    equation(LossPower == v * i);
  }
};

}  // namespace acausal::electrical
