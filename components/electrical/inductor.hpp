#pragma once

#include "components/electrical/one_port.hpp"

namespace acausal::electrical {

/// Linear inductor (MSL Basic.Inductor): L·der(i) = v; stores ½·L·i². i
/// starts at 0 and is not fixed, as in MSL: set it with set_start("L1.i", value).
struct Inductor : OnePort {
  // V.s/A is the henry, written in symbols the unit check knows.
  Parameter L = parameter("L", 1.0, {.unit = "V.s/A", .min = 0});

  explicit Inductor(std::string name) : OnePort(std::move(name)) {
    stored_energy(0.5 * L * i * i);
    // L = 0 leaves der(i) undetermined: IDA would fail on a singular matrix.
    require(L > 0, "the inductance L must be positive");
    equation(L * der(i) == v);
  }
};

}  // namespace acausal::electrical
