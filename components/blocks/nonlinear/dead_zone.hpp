#pragma once

#include "connectors/signal.hpp"

namespace acausal::blocks {

/// Dead zone: y = 0 inside [uMin, uMax], u - uMax above, u - uMin below.
struct DeadZone : Component {
  RealInput u{*this, "u"};
  RealOutput y{*this, "y"};
  Parameter uMax = parameter("uMax", 1.0);
  Parameter uMin = parameter("uMin", -1.0);

  explicit DeadZone(std::string name) : Component(std::move(name)) {
    require(uMax >= uMin, "uMax must be at least uMin");
    equation(y == ifelse(u > uMax, u - uMax, ifelse(u < uMin, u - uMin, 0.0)));
  }
};

}  // namespace acausal::blocks
