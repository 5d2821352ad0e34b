#pragma once

#include "connectors/signal.hpp"
#include "connectors/translational.hpp"

namespace acausal::translational {

/// Power transmitted from flange_a to flange_b: f·v.
struct PowerSensor : Component {
  Flange flange_a{*this, "flange_a"}, flange_b{*this, "flange_b"};
  RealOutput power{*this, "power", {.unit = "W"}};
  explicit PowerSensor(std::string name) : Component(std::move(name)) {
    equation(flange_a.s == flange_b.s);
    equation(flange_a.f + flange_b.f == 0.0);
    equation(power == flange_a.f * der(flange_a.s));
  }
};

}  // namespace acausal::translational
