#pragma once

#include "connectors/signal.hpp"

namespace acausal::blocks {

/// MSL Blocks.Continuous.Der: the exact derivative of the input, y = der(u)
/// (unlike Derivative's approximation). The compiler differentiates whatever
/// drives u (index reduction), so u must be differentiable: a filter's
/// output, not a step. y is in u's unit per second.
struct Der : Component {
  RealInput u{*this, "u"};
  RealOutput y{*this, "y"};

  explicit Der(std::string name) : Component(std::move(name)) { equation(y == der(u)); }
};

}  // namespace acausal::blocks
