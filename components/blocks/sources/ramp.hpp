#pragma once

#include "connectors/signal.hpp"

namespace acausal::blocks {

/// Ramp: offset until startTime, rising by height over duration, then held (kinks are time events).
struct Ramp : Component {
  RealOutput y{*this, "y"};
  Parameter height = parameter("height", 1.0);
  Parameter duration = parameter("duration", 1.0, {.unit = "s", .min = 0});
  Parameter offset = parameter("offset", 0.0);
  Parameter startTime = parameter("startTime", 0.0, {.unit = "s"});

  explicit Ramp(std::string name) : Component(std::move(name)) {
    Expr t = time_symbol();
    equation(y == offset + ifelse(t < startTime, 0.0,
                                  ifelse(t < startTime + duration, height * (t - startTime) / duration, height)));
  }
};

}  // namespace acausal::blocks
