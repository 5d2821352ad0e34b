#pragma once

#include "connectors/signal.hpp"

namespace acausal::blocks {

/// Feedback difference: y = u1 - u2 (u1 the reference, u2 the measurement).
struct Feedback : Component {
  RealInput u1{*this, "u1"}, u2{*this, "u2"};
  RealOutput y{*this, "y"};

  explicit Feedback(std::string name) : Component(std::move(name)) {
    equation(y == u1 - u2);
  }
};

}  // namespace acausal::blocks
