#pragma once

#include "connectors/signal.hpp"
#include "connectors/translational.hpp"

namespace acausal::translational {

/// Absolute acceleration of the flange (an ideal sensor: no force on its flange).
struct AccSensor : Component {
  Flange flange{*this, "flange"};
  RealOutput a{*this, "a", {.unit = "m/s2"}};
  Variable v = variable("v", {.unit = "m/s"});
  explicit AccSensor(std::string name) : Component(std::move(name)) {
    equation(v == der(flange.s));
    equation(a == der(v));
    equation(flange.f == 0.0);
  }
};

}  // namespace acausal::translational
