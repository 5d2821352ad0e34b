#pragma once

#include "connectors/signal.hpp"

namespace acausal::blocks {

/// Second-order system: der(der(y)) = w²·(k·u - y) - 2·D·w·der(y), starting at rest at y_start.
struct SecondOrder : Component {
  RealInput u{*this, "u"};
  RealOutput y{*this, "y"};
  Parameter k = parameter("k", 1.0);
  Parameter w = parameter("w", 1.0, {.unit = "rad/s", .min = 0});
  Parameter D = parameter("D", 1.0, {.unit = "1", .min = 0});
  Parameter y_start = parameter("y_start", 0.0);
  Variable yd = variable("yd");

  explicit SecondOrder(std::string name) : Component(std::move(name)) {
    equation(yd == der(y));
    equation(der(yd) == w * (w * (k * u - y) - 2.0 * D * yd));
    initial_equation(y == y_start);
    initial_equation(yd == 0.0);
  }
};

}  // namespace acausal::blocks
