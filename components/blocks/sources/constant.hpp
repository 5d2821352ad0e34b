#pragma once

#include "connectors/signal.hpp"

namespace acausal::blocks {

/// Constant signal: y = k.
struct Constant : Component {
  RealOutput y{*this, "y"};
  Parameter k = parameter("k", 1.0);

  explicit Constant(std::string name) : Component(std::move(name)) { equation(y == k); }
};

}  // namespace acausal::blocks
