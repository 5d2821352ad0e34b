#pragma once

#include "components/electrical/conditional_heat_port.hpp"
#include "connectors/signal.hpp"

namespace acausal::electrical {

/// Base of the ideal switches (MSL Interfaces.IdealSwitch): closed, a small
/// resistance Ron; open, a small conductance Goff; parametrized by the path s
/// as the IdealSemiconductor, v = s·(off ? 1 : Ron), i = s·(off ? Goff : 1),
/// so neither state leaves v or i undetermined. The derived switch decides
/// off from its control input (> 0.5 is true: Boolean signals do not exist
/// yet), an event where the control crosses 0.5. The loss v·i = s²·(Goff or
/// Ron) is >= 0.
struct IdealSwitch : ConditionalHeatPort {
  RealInput control{*this, "control"};
  Parameter Ron = parameter("Ron", 1e-5, {.unit = "Ohm", .min = 0, .description = "closed switch resistance"});
  Parameter Goff = parameter("Goff", 1e-5, {.unit = "A/V", .min = 0, .description = "opened switch conductance"});
  Discrete off = discrete("off", {.start = 1.0, .kind = DiscreteKind::boolean, .description = "open"});
  // A current on one branch and a voltage on the other: no unit (see IdealSemiconductor).
  Variable s = variable("s", {.description = "position on the characteristic"});

  explicit IdealSwitch(std::string name) : ConditionalHeatPort(std::move(name), 293.15) {
    equation(v == s * ifelse(off, 1.0, Ron));
    equation(i == s * ifelse(off, Goff, 1.0));
    equation(LossPower == v * i);
  }
};

}  // namespace acausal::electrical
