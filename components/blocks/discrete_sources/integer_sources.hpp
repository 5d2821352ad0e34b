#pragma once

#include "components/blocks/math_integer/partial_integer_miso.hpp"

namespace acausal::blocks {

/// MSL Sources.IntegerConstant: y = k.
struct IntegerConstant : Component {
  IntegerOutput y{*this, "y"};
  Parameter k = integer_parameter(*this, "k", 1.0, "the output");
  explicit IntegerConstant(std::string name) : Component(std::move(name)) { equation(y == k); }
};

/// MSL Sources.IntegerStep: y = offset before startTime, offset + height from it on (a time event).
struct IntegerStep : Component {
  IntegerOutput y{*this, "y"};
  Parameter height = integer_parameter(*this, "height", 1.0, "the step");
  Parameter offset = integer_parameter(*this, "offset", 0.0, "y before startTime");
  Parameter startTime = parameter("startTime", 0.0, {.unit = "s"});
  explicit IntegerStep(std::string name) : Component(std::move(name)) {
    equation(y == offset + ifelse(time_symbol() < startTime, 0.0, height));
  }
};

}  // namespace acausal::blocks
