#pragma once

#include "components/electrical/one_port.hpp"

namespace acausal::electrical {

/// Charger with a constant-current, constant-voltage characteristic (MSL
/// Batteries.Utilities.CCCVcharger): from startTime it drives the charge
/// current I out of p into the battery, ramped up over rampTime, until the
/// voltage p.v - n.v reaches Vend; from then on it holds v = Vend and the
/// current decays as the battery fills. The switch is one-way (CV stays 1),
/// as in MSL, where v = Vend keeps v >= Vend true. An ideal source.
struct CCCVCharger : OnePort {
  Parameter I = parameter("I", 1.0, {.unit = "A", .min = 0, .description = "constant charge current"});
  Parameter startTime = parameter("startTime", 0.0, {.unit = "s", .description = "start of charging"});
  Parameter rampTime = parameter("rampTime", 60.0, {.unit = "s", .min = 0, .description = "ramp-up of the current"});
  Parameter Vend = parameter("Vend", 1.0, {.unit = "V", .description = "end-of-charge voltage"});
  Discrete CV = discrete("CV", {.kind = DiscreteKind::boolean, .description = "charging at constant voltage"});
  // The unknown of the present phase: v while the current is imposed, i while
  // the voltage is (MSL's if-equation, without leaving either undetermined).
  // A voltage in one phase and a current in the other: no unit, so that the
  // unit check lets each equation fix its own.
  Variable s = variable("s", {.description = "v at constant current, i at constant voltage"});

  explicit CCCVCharger(std::string name) : OnePort(std::move(name)) {
    energy_source();
    require(rampTime > 0, "the ramp time rampTime must be positive");
    equation(CV == (pre(CV) || v >= Vend));
    const Expr t = time_symbol();
    const Expr ramp = ifelse(t < startTime, 0.0, min(1.0, (t - startTime) / rampTime));
    equation(v == ifelse(CV, Vend, s));
    equation(i == ifelse(CV, s, -I * ramp));
  }
};

}  // namespace acausal::electrical
