#pragma once

#include "connectors/signal.hpp"

namespace acausal::blocks {

/// Fixed delay: y = delay(u, delayTime), the input as it was delayTime
/// seconds ago (its value at the start before start + delayTime). The delay
/// keeps a history of u; delayTime must be positive.
struct FixedDelay : Component {
  RealInput u{*this, "u"};
  RealOutput y{*this, "y"};
  Parameter delayTime = parameter("delayTime", 1.0, {.unit = "s", .min = 0});

  explicit FixedDelay(std::string name) : Component(std::move(name)) {
    equation(y == delay(u, delayTime));
  }
};

}  // namespace acausal::blocks
