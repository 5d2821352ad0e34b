#pragma once

#include "components/electrical/one_port.hpp"

namespace acausal::electrical {

/// Ideal constant voltage source (MSL Sources.ConstantVoltage): v = V whatever
/// the current. Supplies what the circuit draws, -v·i.
struct ConstantVoltage : OnePort {
  Parameter V = parameter("V", 1.0, {.unit = "V"});

  explicit ConstantVoltage(std::string name) : OnePort(std::move(name)) {
    energy_source();
    equation(v == V);
  }
};

}  // namespace acausal::electrical
