#pragma once

#include "connectors/signal.hpp"

namespace acausal::blocks {

/// Product: y = u1·u2.
struct Product : Component {
  RealInput u1{*this, "u1"}, u2{*this, "u2"};
  RealOutput y{*this, "y"};

  explicit Product(std::string name) : Component(std::move(name)) {
    equation(y == u1 * u2);
  }
};

}  // namespace acausal::blocks
