#pragma once

#include "connectors/signal.hpp"

namespace acausal::blocks {

/// Limiter: y = u clipped to [uMin, uMax] (switches are events).
struct Limiter : Component {
  RealInput u{*this, "u"};
  RealOutput y{*this, "y"};
  Parameter uMax = parameter("uMax", 1.0);
  Parameter uMin = parameter("uMin", -1.0);

  explicit Limiter(std::string name) : Component(std::move(name)) {
    require(uMax >= uMin, "uMax must be at least uMin");
    equation(y == max(min(u, uMax), uMin));
  }
};

}  // namespace acausal::blocks
