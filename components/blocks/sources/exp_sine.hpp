#pragma once

#include <numbers>

#include "connectors/signal.hpp"

namespace acausal::blocks {

/// MSL Blocks.Sources.ExpSine, an exponentially damped sine:
/// y = offset + amplitude·exp(-(time - startTime)·damping)·sin(2π·f·(time - startTime) + phase)
/// from startTime on, offset before.
struct ExpSine : Component {
  RealOutput y{*this, "y"};
  Parameter amplitude = parameter("amplitude", 1.0, {.description = "amplitude of the sine wave"});
  Parameter f = parameter("f", 2.0, {.unit = "Hz", .min = 0, .description = "frequency of the sine wave"});
  Parameter phase = parameter("phase", 0.0, {.unit = "rad", .description = "phase of the sine wave"});
  Parameter damping = parameter("damping", 1.0, {.unit = "1/s", .description = "damping coefficient of the sine wave"});
  Parameter offset = parameter("offset", 0.0, {.description = "offset of the output"});
  Parameter startTime = parameter("startTime", 0.0, {.unit = "s", .description = "output = offset before"});

  explicit ExpSine(std::string name) : Component(std::move(name)) {
    const Expr t = time_symbol(), elapsed = t - startTime;
    equation(y == offset + ifelse(t < startTime, 0.0,
                                  amplitude * exp(-elapsed * damping) *
                                      sin(2.0 * std::numbers::pi * f * elapsed + phase)));
  }
};

}  // namespace acausal::blocks
