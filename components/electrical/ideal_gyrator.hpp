#pragma once

#include "components/electrical/two_port.hpp"

namespace acausal::electrical {

/// Ideal gyrator (MSL 3.2 Ideal.IdealGyrator; MSL 4 Basic.Gyrator with G1 =
/// G2 = G): each port's current follows the other port's voltage, i1 = G·v2,
/// i2 = -G·v1, so a capacitor on one port looks like an inductor on the
/// other. Lossless: v1·i1 + v2·i2 = 0.
struct IdealGyrator : TwoPort {
  Parameter G = parameter("G", 1.0, {.unit = "A/V", .description = "gyration conductance"});

  explicit IdealGyrator(std::string name) : TwoPort(std::move(name)) {
    equation(i1 == G * v2);
    equation(i2 == -G * v1);
  }
};

}  // namespace acausal::electrical
