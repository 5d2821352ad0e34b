#pragma once

#include "components/blocks/math_integer/partial_integer_miso.hpp"

namespace acausal::blocks {

/// MSL MathInteger.TriggeredAdd: at each rising edge of trigger, y = pre(y) + u;
/// y_start before the first. MSL's optional reset and set ports
/// (use_reset, use_set) are not offered.
struct TriggeredAdd : Component {
  IntegerInput u{*this, "u"};
  BooleanInput trigger{*this, "trigger"};
  IntegerOutput y{*this, "y"};
  Parameter y_start = integer_parameter(*this, "y_start", 0.0, "y before the first trigger");

  explicit TriggeredAdd(std::string name) : Component(std::move(name)) {
    when({initial(), trigger}, {y == ifelse(initial(), y_start, pre(y) + u)});
  }
};

}  // namespace acausal::blocks
