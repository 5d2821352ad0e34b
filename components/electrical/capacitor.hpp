#pragma once

#include "components/electrical/one_port.hpp"

namespace acausal::electrical {

/// Linear capacitor (MSL Basic.Capacitor): i = C·der(v); stores ½·C·v².
/// v starts at 0 and is not fixed, as in MSL: set it with
/// set_start("C1.v", value), or index reduction and initialization decide.
struct Capacitor : OnePort {
  Parameter C = parameter("C", 1.0, {.unit = "F", .min = 0});

  explicit Capacitor(std::string name) : OnePort(std::move(name)) {
    stored_energy(0.5 * C * v * v);
    // C = 0 leaves der(v) undetermined: IDA would fail on a singular matrix.
    require(C > 0, "the capacitance C must be positive");
    equation(i == C * der(v));
  }
};

}  // namespace acausal::electrical
