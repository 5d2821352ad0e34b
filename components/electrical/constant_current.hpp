#pragma once

#include "components/electrical/one_port.hpp"

namespace acausal::electrical {

/// Ideal constant current source (MSL Sources.ConstantCurrent): the current
/// i = I flows into p and out of n, through the source, whatever the voltage.
/// Supplies -v·i.
struct ConstantCurrent : OnePort {
  Parameter I = parameter("I", 1.0, {.unit = "A"});

  explicit ConstantCurrent(std::string name) : OnePort(std::move(name)) {
    energy_source();
    equation(i == I);
  }
};

}  // namespace acausal::electrical
