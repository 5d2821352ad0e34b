#pragma once

#include "components/electrical/two_port.hpp"
#include "connectors/signal.hpp"

namespace acausal::electrical {

/// Averaged DC/DC converter: the switching converter seen over many switching
/// periods (no MSL counterpart in Analog; Modelica.Electrical.PowerConverters
/// models the switches themselves). Port 1 (p1, n1) is the input, port 2
/// (p2, n2) the output; the voltage ratio is the input d, v2 = d·v1 (a buck
/// for 0 <= d <= 1, d > 1 a boost).
///
/// The efficiency eta applies in the direction the power flows, so the losses
/// are never negative: forward (P1 = v1·i1 >= 0 enters port 1), the output
/// gives P2 = -v2·i2 = eta·P1; backward (power enters port 2), port 1 gives
/// -P1 = eta·(-P2). Both reduce to a current ratio, i1 = -d·i2/eta forward and
/// i1 = -d·i2·eta backward, that holds at v1 = 0 too; the direction switches
/// by an event where P1 crosses 0, where both laws give P1 = P2 = 0, so the
/// currents stay continuous. The loss P1 - P2 = (1 - eta)·|throughput| >= 0.
struct DCDCAveraged : TwoPort {
  RealInput d{*this, "d", {.unit = "1", .description = "voltage ratio v2/v1 (duty cycle of a buck)"}};
  Parameter eta = parameter("eta", 1.0, {.unit = "1", .min = 0, .max = 1, .description = "efficiency"});
  Variable P1 = variable("P1", {.unit = "W", .description = "power into port 1"});
  Variable P2 = variable("P2", {.unit = "W", .description = "power out of port 2"});
  Variable LossPower = variable("LossPower", {.unit = "W", .description = "P1 - P2, >= 0"});

  explicit DCDCAveraged(std::string name) : TwoPort(std::move(name)) {
    // eta = 0 would leave i1 undetermined forward (nothing comes out).
    require(eta > 0, "the efficiency eta must be positive");
    const Expr forward = P1 >= 0.0;
    equation(v2 == d * v1);
    equation(i1 == -d * i2 * ifelse(forward, 1.0 / eta, eta));
    equation(P1 == v1 * i1);
    equation(P2 == -v2 * i2);
    equation(LossPower == P1 - P2);
    // Declared from the law rather than as P1 - P2, so that the energy books
    // check that the equations lose what the law says.
    dissipated_power(ifelse(forward, (1.0 - eta) * P1, -(1.0 - eta) * P2));
  }
};

}  // namespace acausal::electrical
