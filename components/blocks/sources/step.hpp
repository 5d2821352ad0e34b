#pragma once

#include "connectors/signal.hpp"

namespace acausal::blocks {

/// Step signal: y = offset before startTime, offset + height from it on (a time event).
struct Step : Component {
  RealOutput y{*this, "y"};
  Parameter height = parameter("height", 1.0);
  Parameter offset = parameter("offset", 0.0);
  Parameter startTime = parameter("startTime", 0.0, {.unit = "s"});

  explicit Step(std::string name) : Component(std::move(name)) {
    equation(y == offset + ifelse(time_symbol() < startTime, 0.0, height));
  }
};

}  // namespace acausal::blocks
