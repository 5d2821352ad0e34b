#pragma once

#include "connectors/signal.hpp"

namespace acausal::blocks {

/// MSL MathBoolean.OnDelay: y follows u, but becomes true only delayTime after
/// u did (a rising edge is delayed, a falling one is not). True at the start
/// if u is. The end of the delay is a located event.
struct OnDelay : Component {
  BooleanInput u{*this, "u"};
  BooleanOutput y{*this, "y"};
  Parameter delayTime = parameter("delayTime", 0.0, {.unit = "s", .min = 0.0});
  Discrete t_next = discrete("t_next", {.unit = "s", .description = "when y may become true"});

  explicit OnDelay(std::string name) : Component(std::move(name)) {
    when({initial(), u}, {t_next == ifelse(initial(), time_symbol() - 1.0, time_symbol() + delayTime)});
    equation(y == (u && time_symbol() >= t_next));
  }
};

}  // namespace acausal::blocks
