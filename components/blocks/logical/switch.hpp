#pragma once

#include "connectors/signal.hpp"

namespace acausal::blocks {

/// MSL Logical.Switch: y = u1 while the Boolean u2 is true, else u3.
struct Switch : Component {
  RealInput u1{*this, "u1"};
  BooleanInput u2{*this, "u2"};
  RealInput u3{*this, "u3"};
  RealOutput y{*this, "y"};
  explicit Switch(std::string name) : Component(std::move(name)) { equation(y == ifelse(u2, u1, u3)); }
};

}  // namespace acausal::blocks
