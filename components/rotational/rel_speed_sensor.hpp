#pragma once

#include "connectors/rotational.hpp"
#include "connectors/signal.hpp"

namespace acausal::rotational {

/// Relative speed flange_b - flange_a.
struct RelSpeedSensor : Component {
  Flange flange_a{*this, "flange_a"}, flange_b{*this, "flange_b"};
  RealOutput w_rel{*this, "w_rel", {.unit = "rad/s"}};
  explicit RelSpeedSensor(std::string name) : Component(std::move(name)) {
    equation(w_rel == der(flange_b.phi - flange_a.phi));
    equation(flange_a.tau == 0.0);
    equation(flange_b.tau == 0.0);
  }
};

}  // namespace acausal::rotational
