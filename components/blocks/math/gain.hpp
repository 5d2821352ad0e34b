#pragma once

#include "connectors/signal.hpp"

namespace acausal::blocks {

/// Gain: y = k·u.
struct Gain : Component {
  RealInput u{*this, "u"};
  RealOutput y{*this, "y"};
  Parameter k = parameter("k", 1.0);

  explicit Gain(std::string name) : Component(std::move(name)) {
    equation(y == k * u);
  }
};

}  // namespace acausal::blocks
