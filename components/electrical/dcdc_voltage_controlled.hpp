#pragma once

#include "components/electrical/partial_dcdc.hpp"
#include "connectors/signal.hpp"

namespace acausal::electrical {

/// Averaged DC/DC converter with output voltage control: port 1 (p1, n1) the
/// input, port 2 (p2, n2) the output, regulated to the input v_ref whatever
/// the input voltage (ideal regulation; T > 0, a first-order response
/// T·der(v_set) = v_ref - v_set, starting at v_set = v_ref unless a start
/// value is set on v_set, e.g. 0 for a soft start). T is structural: T = 0
/// (ideal) or T > 0 is decided at compile().
///
/// The efficiency eta applies in the direction the power flows (PartialDCDC):
/// P1 = P2/eta forward, P1 = eta·P2 backward; the losses are >= 0 both ways.
/// The input voltage v1 must not be 0 while power flows (nothing passes
/// through a zero voltage).
///
/// Output current limits I_max and I_min (PartialDCDC, off by default), as a
/// current-limited lab supply: when the load would draw more than I_max, the
/// converter leaves voltage regulation, holds -i2 = I_max and v2 drops below
/// v_set (above it at I_min); `limited` says which (1, -1; 0 regulating).
/// The lag acts on the set point, which keeps following v_ref while the
/// current is limited.
struct DCDCVoltageControlled : PartialDCDC {
  RealInput v_ref{*this, "v_ref", {.unit = "V", .description = "output voltage reference"}};
  Parameter T = parameter("T", 0.0,
                          {.unit = "s",
                           .min = 0,
                           .description = "time constant of the output voltage's response to v_ref (0: ideal)",
                           .structural = true});
  // The output voltage gives way per ampere of s beyond a limit (MSL's unit constants).
  Parameter unit_per_ampere =
      parameter("unit_per_ampere", 1.0, {.unit = "V/A", .description = "unit constant", .structural = true});
  Variable v_set = variable(
      "v_set", {.unit = "V", .description = "the regulated output voltage: v_ref, through the lag T when T > 0"});

  explicit DCDCVoltageControlled(std::string name) : PartialDCDC(std::move(name)) {
    const Expr lag = T > 0.0;
    equation(0.0 == ifelse(lag, T * der(v_set) + v_set - v_ref, v_set - v_ref));
    initial_value(v_set, v_ref, lag);
    regulate(v2, v_set, unit_per_ampere);
    equation(P1 == gain() * P2);
  }
};

}  // namespace acausal::electrical
