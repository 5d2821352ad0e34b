#pragma once

#include "connectors/signal.hpp"

namespace acausal::blocks {

/// Weighted sum: y = k1·u1 + k2·u2.
struct Add : Component {
  RealInput u1{*this, "u1"}, u2{*this, "u2"};
  RealOutput y{*this, "y"};
  Parameter k1 = parameter("k1", 1.0);
  Parameter k2 = parameter("k2", 1.0);

  explicit Add(std::string name) : Component(std::move(name)) {
    equation(y == k1 * u1 + k2 * u2);
  }
};

}  // namespace acausal::blocks
