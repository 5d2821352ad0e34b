#pragma once

#include "components/electrical/one_port.hpp"

namespace acausal::electrical {

/// Step voltage source (MSL Sources.StepVoltage): v = offset before startTime,
/// offset + V from it on (a time event, hit exactly).
struct StepVoltage : OnePort {
  Parameter V = parameter("V", 1.0, {.unit = "V", .description = "height of the step"});
  Parameter offset = parameter("offset", 0.0, {.unit = "V"});
  Parameter startTime = parameter("startTime", 0.0, {.unit = "s"});

  explicit StepVoltage(std::string name) : OnePort(std::move(name)) {
    energy_source();
    equation(v == offset + ifelse(time_symbol() < startTime, 0.0, V));
  }
};

}  // namespace acausal::electrical
