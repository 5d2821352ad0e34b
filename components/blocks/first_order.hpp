#pragma once

#include "connectors/signal.hpp"

namespace acausal::blocks {

/// First-order lag: T·der(y) = k·u - y, y(t0) = y_start.
struct FirstOrder : Component {
  RealInput u{*this, "u"};
  RealOutput y{*this, "y"};
  Parameter k = parameter("k", 1.0);
  Parameter T = parameter("T", 1.0, {.unit = "s", .min = 1e-15});
  Parameter y_start = parameter("y_start", 0.0);

  explicit FirstOrder(std::string name) : Component(std::move(name)) {
    equation(T * der(y) == k * u - y);
    initial_equation(y == y_start);
  }
};

}  // namespace acausal::blocks
