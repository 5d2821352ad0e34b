#pragma once

#include "connectors/signal.hpp"

namespace acausal::blocks {

/// Dead time (transport delay) with the actuator vocabulary of seed 002:
/// y = delay(u, dead_time). Same block as FixedDelay; dead_time must be positive.
struct DeadTime : Component {
  RealInput u{*this, "u"};
  RealOutput y{*this, "y"};
  Parameter dead_time = parameter("dead_time", 0.1, {.unit = "s", .min = 0});

  explicit DeadTime(std::string name) : Component(std::move(name)) {
    equation(y == delay(u, dead_time));
  }
};

}  // namespace acausal::blocks
