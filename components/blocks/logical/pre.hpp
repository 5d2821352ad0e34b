#pragma once

#include "connectors/signal.hpp"

namespace acausal::blocks {

/// A Boolean parameter: 0 is false, 1 is true (set by value or by name).
inline ParameterAttributes boolean_parameter(std::string description) {
  return {.description = std::move(description), .choices = {"false", "true"}};
}

/// MSL Logical.Pre: y = pre(u), the input's value just before the current
/// event; pre_u_start at initialization. It breaks a loop of Boolean blocks
/// (a flip-flop's feedback).
struct Pre : Component {
  BooleanInput u{*this, "u"};
  BooleanOutput y{*this, "y"};
  Parameter pre_u_start = parameter("pre_u_start", 0.0, boolean_parameter("pre(u) at initialization"));

  explicit Pre(std::string name) : Component(std::move(name)) {
    equation(y == ifelse(initial(), pre_u_start, pre(u)));
  }
};

}  // namespace acausal::blocks
