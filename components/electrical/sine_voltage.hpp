#pragma once

#include <numbers>

#include "components/electrical/one_port.hpp"

namespace acausal::electrical {

/// Sine voltage source (MSL Sources.SineVoltage): v = offset before
/// startTime, offset + V·sin(2π·f·(time - startTime) + phase) from it on.
struct SineVoltage : OnePort {
  Parameter V = parameter("V", 1.0, {.unit = "V", .description = "amplitude"});
  Parameter phase = parameter("phase", 0.0, {.unit = "rad"});
  Parameter f = parameter("f", 1.0, {.unit = "Hz", .min = 0});
  Parameter offset = parameter("offset", 0.0, {.unit = "V"});
  Parameter startTime = parameter("startTime", 0.0, {.unit = "s"});

  explicit SineVoltage(std::string name) : OnePort(std::move(name)) {
    energy_source();
    const Expr t = time_symbol();
    equation(v == offset + ifelse(t < startTime, 0.0, V * sin(2 * std::numbers::pi * f * (t - startTime) + phase)));
  }
};

}  // namespace acausal::electrical
