#pragma once

#include "connectors/signal.hpp"

namespace acausal::blocks {

/// MSL Sources.BooleanPulse: from startTime on, y is true for the first
/// width % of every period, false for the rest (false before startTime).
/// Periods start at sample() time events; the end of each pulse is a located event.
struct BooleanPulse : Component {
  BooleanOutput y{*this, "y"};
  Parameter width = parameter("width", 50.0, {.min = 1e-60, .max = 100.0, .description = "% of the period"});
  Parameter period = parameter("period", 1.0, {.unit = "s", .min = 1e-15});
  Parameter startTime = parameter("startTime", 0.0, {.unit = "s"});
  Discrete pulseStart = discrete("pulseStart", {.unit = "s", .description = "start of the current period"});

  explicit BooleanPulse(std::string name) : Component(std::move(name)) {
    const Expr t = time_symbol();
    when({initial(), sample(startTime, period)}, {pulseStart == ifelse(initial(), startTime, t)});
    equation(y == (t >= pulseStart && t < pulseStart + period * width / 100.0));
  }
};

}  // namespace acausal::blocks
