#pragma once

#include "connectors/signal.hpp"

namespace acausal::blocks {

/// Follows u at most as fast as Rising (up) and Falling (down, negative):
/// der(y) = clamp((u - y)/Td, Falling, Rising), with a small tracking time Td.
struct SlewRateLimiter : Component {
  RealInput u{*this, "u"};
  RealOutput y{*this, "y"};
  Parameter Rising = parameter("Rising", 1.0, {.unit = "1/s", .min = 0});
  Parameter Falling = parameter("Falling", -1.0, {.unit = "1/s", .max = 0});
  Parameter Td = parameter("Td", 1e-3, {.unit = "s", .min = 1e-15});
  Parameter y_start = parameter("y_start", 0.0);

  explicit SlewRateLimiter(std::string name) : Component(std::move(name)) {
    equation(der(y) == max(min((u - y) / Td, Rising), Falling));
    initial_equation(y == y_start);
  }
};

}  // namespace acausal::blocks
