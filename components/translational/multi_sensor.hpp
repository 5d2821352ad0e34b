#pragma once

#include "connectors/signal.hpp"
#include "connectors/translational.hpp"

namespace acausal::translational {

/// Force, speed and power at a rigid cut between flange_a and flange_b (MSL
/// Translational.Sensors.MultiSensor): f = flange_a.f, v = der(flange_a.s),
/// power = f·v, the power passing from flange_a to flange_b.
struct MultiSensor : Component {
  Flange flange_a{*this, "flange_a"}, flange_b{*this, "flange_b"};
  RealOutput power{*this, "power", {.unit = "W"}};
  RealOutput f{*this, "f", {.unit = "N"}};
  RealOutput v{*this, "v", {.unit = "m/s"}};
  explicit MultiSensor(std::string name) : Component(std::move(name)) {
    equation(flange_a.s == flange_b.s);
    equation(flange_a.f + flange_b.f == 0.0);
    equation(v == der(flange_a.s));
    equation(f == flange_a.f);
    equation(power == f * v);
  }
};

}  // namespace acausal::translational
