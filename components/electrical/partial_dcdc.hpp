#pragma once

#include "components/electrical/two_port.hpp"

namespace acausal::electrical {

/// Base of the averaged DC/DC converters (DCDCAveraged: ratio control,
/// DCDCVoltageControlled: voltage control): the power passed from port 1
/// (p1, n1, the input) to port 2 (p2, n2, the output), what is lost on the
/// way, and the output current limits.
///
/// Efficiency: eta applies in the direction the power flows, so the losses
/// are never negative: forward (P1 = v1·i1 >= 0 enters port 1) the output
/// gives P2 = -v2·i2 = eta·P1; backward (power enters port 2) port 1 gives
/// -P1 = eta·(-P2). That is P1 = gain()·P2, gain 1/eta forward and eta
/// backward; the direction switches by an event where P2 crosses 0, where
/// both laws give P1 = P2 = 0. The loss P1 - P2 = (1 - eta)·|throughput| >= 0.
///
/// Current limits: the output current -i2 (out of p2) stays in [I_min, I_max].
/// A converter regulates a quantity x (the voltage ratio, the output voltage)
/// to its command; when the load would draw more than I_max, it leaves
/// regulation, holds -i2 = I_max and lets x fall below the command (a
/// current-limited lab supply), and below I_min (power flowing back into port
/// 2) it holds -i2 = I_min and lets x rise. A path s parametrizes the three
/// branches, as in IdealSemiconductor, so that each leaves -i2 and x determined:
///   regulating (limited = 0):  -i2 = s,      x = command
///   at I_max   (limited = 1):  -i2 = I_max,  x = command - (s - I_max)·unit
///   at I_min   (limited = -1): -i2 = I_min,  x = command - (s - I_min)·unit
/// The branches meet at s = I_max and s = I_min, so the switching (an event
/// where s crosses a limit) leaves currents and voltages continuous. A limit
/// is left for regulation only, never straight for the other limit: the event
/// iteration then cannot swing between the two. The defaults, ±1e10 A, do not
/// limit (as MSL's w_small = 1e10).
struct PartialDCDC : TwoPort {
  Parameter eta = parameter("eta", 1.0, {.unit = "1", .min = 0, .max = 1, .description = "efficiency"});
  Parameter I_max = parameter(
      "I_max", 1e10, {.unit = "A", .min = 0, .description = "largest output current (out of p2: power leaving port 2)"});
  Parameter I_min = parameter(
      "I_min", -1e10, {.unit = "A", .max = 0, .description = "smallest output current (< 0: power flowing back into port 2)"});
  Variable P1 = variable("P1", {.unit = "W", .description = "power into port 1"});
  Variable P2 = variable("P2", {.unit = "W", .description = "power out of port 2"});
  Variable LossPower = variable("LossPower", {.unit = "W", .description = "P1 - P2, >= 0"});
  // A current on the regulating branch, a current plus a drop in the
  // regulated quantity beyond a limit: no unit (see IdealSemiconductor).
  Variable s = variable("s", {.description = "position on the current limit's characteristic: -i2 while regulating"});
  Discrete limited = discrete(
      "limited", {.kind = DiscreteKind::integer, .description = "0 regulating; 1 output current held at I_max, -1 at I_min"});

  explicit PartialDCDC(std::string name) : TwoPort(std::move(name)) {
    // eta = 0 would leave i1 undetermined forward (nothing comes out).
    require(eta > 0, "the efficiency eta must be positive");
    equation(P1 == v1 * i1);
    equation(P2 == -v2 * i2);
    equation(LossPower == P1 - P2);
    // Declared from the law rather than as P1 - P2, so that the energy books
    // check that the equations lose what the law says.
    dissipated_power(ifelse(forward(), (1.0 - eta) * P1, -(1.0 - eta) * P2));
    const Expr was_high = pre(limited) > 0.5, was_low = pre(limited) < -0.5;
    equation(limited == ifelse(was_high, ifelse(s < I_max, 0.0, 1.0),
                               ifelse(was_low, ifelse(s > I_min, 0.0, -1.0),
                                      ifelse(s > I_max, 1.0, ifelse(s < I_min, -1.0, 0.0)))));
    equation(-i2 == ifelse(limited > 0.5, I_max, ifelse(limited < -0.5, I_min, s)));
  }

 protected:
  /// True while the power flows from port 1 to port 2. Read on the output
  /// side: P1 follows from P2 through the efficiency this chooses, and a
  /// relation on P1 would read the equation it decides (the compiler may
  /// solve P1 from it, and the relation then has no root function).
  Expr forward() const { return P2 >= 0.0; }
  /// P1/P2 by the direction of the power: 1/eta forward, eta backward.
  Expr gain() const { return ifelse(forward(), 1.0 / eta, eta); }
  /// The regulated quantity x follows its command except at a limit, where it
  /// gives way by `unit` (a unit constant, x's unit per ampere) per ampere of s
  /// beyond the limit.
  void regulate(const Expr& x, const Expr& command, const Expr& unit) {
    equation(x == command - ifelse(limited > 0.5, s - I_max, ifelse(limited < -0.5, s - I_min, 0.0)) * unit);
  }
};

}  // namespace acausal::electrical
