#pragma once

#include "components/blocks/logical/pre.hpp"

namespace acausal::blocks {

/// MSL Logical.Hysteresis: y becomes true when u rises above uHigh and false
/// when it falls below uLow; in between it keeps its value (pre_y_start at
/// the start). Both crossings are located events.
struct Hysteresis : Component {
  RealInput u{*this, "u"};
  BooleanOutput y{*this, "y"};
  Parameter uLow = parameter("uLow", 0.0, {.description = "y becomes false below it"});
  Parameter uHigh = parameter("uHigh", 1.0, {.description = "y becomes true above it"});
  Parameter pre_y_start = parameter("pre_y_start", 0.0, boolean_parameter("y before the start"));

  explicit Hysteresis(std::string name) : Component(std::move(name)) {
    require(uHigh > uLow, "uHigh > uLow");
    const Expr before = ifelse(initial(), pre_y_start, pre(y));
    equation(y == ((!before && u > uHigh) || (before && u >= uLow)));
  }
};

}  // namespace acausal::blocks
