#pragma once

#include <numbers>

#include "connectors/signal.hpp"

namespace acausal::blocks {

/// Sine signal: y = offset + amplitude·sin(2π·f·(time - startTime) + phase)
/// from startTime on, offset before.
struct Sine : Component {
  RealOutput y{*this, "y"};
  Parameter amplitude = parameter("amplitude", 1.0);
  Parameter f = parameter("f", 1.0, {.unit = "Hz", .min = 0});
  Parameter phase = parameter("phase", 0.0, {.unit = "rad"});
  Parameter offset = parameter("offset", 0.0);
  Parameter startTime = parameter("startTime", 0.0, {.unit = "s"});

  explicit Sine(std::string name) : Component(std::move(name)) {
    Expr t = time_symbol();
    equation(y == offset + ifelse(t < startTime, 0.0,
                                  amplitude * sin(2 * std::numbers::pi * f * (t - startTime) + phase)));
  }
};

}  // namespace acausal::blocks
