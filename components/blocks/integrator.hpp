#pragma once

#include "connectors/signal.hpp"

namespace acausal::blocks {

/// Integrator: der(y) = k·u, y(t0) = y_start.
struct Integrator : Component {
  RealInput u{*this, "u"};
  RealOutput y{*this, "y"};
  Parameter k = parameter("k", 1.0);
  Parameter y_start = parameter("y_start", 0.0);

  explicit Integrator(std::string name) : Component(std::move(name)) {
    equation(der(y) == k * u);
    initial_equation(y == y_start);
  }
};

}  // namespace acausal::blocks
