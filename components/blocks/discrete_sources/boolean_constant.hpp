#pragma once

#include "components/blocks/logical/pre.hpp"

namespace acausal::blocks {

/// MSL Sources.BooleanConstant: y = k (true by default).
struct BooleanConstant : Component {
  BooleanOutput y{*this, "y"};
  Parameter k = parameter("k", 1.0, boolean_parameter("the output"));
  explicit BooleanConstant(std::string name) : Component(std::move(name)) { equation(y == k); }
};

/// MSL Sources.BooleanStep: y = startValue before startTime, not startValue from it on (a time event).
struct BooleanStep : Component {
  BooleanOutput y{*this, "y"};
  Parameter startTime = parameter("startTime", 0.0, {.unit = "s"});
  Parameter startValue = parameter("startValue", 0.0, boolean_parameter("y before startTime"));
  explicit BooleanStep(std::string name) : Component(std::move(name)) {
    equation(y == !equal(time_symbol() >= startTime, startValue));
  }
};

/// MSL Sources.SampleTrigger: y is true at the instants startTime + k·period
/// (time events), false in between.
struct SampleTrigger : Component {
  BooleanOutput y{*this, "y"};
  Parameter period = parameter("period", 0.01, {.unit = "s", .min = 1e-15});
  Parameter startTime = parameter("startTime", 0.0, {.unit = "s"});
  explicit SampleTrigger(std::string name) : Component(std::move(name)) { equation(y == sample(startTime, period)); }
};

}  // namespace acausal::blocks
