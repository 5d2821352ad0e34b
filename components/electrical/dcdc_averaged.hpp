#pragma once

#include "components/electrical/partial_dcdc.hpp"
#include "connectors/signal.hpp"

namespace acausal::electrical {

/// Averaged DC/DC converter: the switching converter seen over many switching
/// periods (no MSL counterpart in Analog; Modelica.Electrical.PowerConverters
/// models the switches themselves). Port 1 (p1, n1) is the input, port 2
/// (p2, n2) the output; the voltage ratio is the input d, v2 = d·v1 (a buck
/// for 0 <= d <= 1, d > 1 a boost).
///
/// The efficiency eta applies in the direction the power flows (PartialDCDC):
/// with the applied ratio r = v2/v1 it is a current ratio, i1 = -r·i2/eta
/// forward and i1 = -r·i2·eta backward, that holds at v1 = 0 too; at the
/// switching event where P2 crosses 0 both laws give P1 = P2 = 0, so the
/// currents stay continuous. The loss P1 - P2 = (1 - eta)·|throughput| >= 0.
///
/// The output current limits I_max and I_min (PartialDCDC, off by default)
/// act on the ratio: at a limit the converter holds -i2 there and applies a
/// ratio below d (above d at I_min), the one the load accepts that current at.
/// While limited, v1 must not be 0 (no ratio then gives the limited current).
struct DCDCAveraged : PartialDCDC {
  RealInput d{*this, "d", {.unit = "1", .description = "voltage ratio v2/v1 (duty cycle of a buck)"}};
  // The ratio gives way per ampere of s beyond a limit (MSL's unit constants).
  Parameter unit_per_ampere =
      parameter("unit_per_ampere", 1.0, {.unit = "1/A", .description = "unit constant", .structural = true});
  Variable ratio = variable(
      "ratio", {.unit = "1", .description = "the voltage ratio v2/v1 applied: d, except while the current is limited"});

  explicit DCDCAveraged(std::string name) : PartialDCDC(std::move(name)) {
    equation(v2 == ratio * v1);
    equation(i1 == -ratio * i2 * gain());
    regulate(ratio, d, unit_per_ampere);
  }
};

}  // namespace acausal::electrical
