#pragma once

#include "connectors/rotational.hpp"
#include "connectors/signal.hpp"

namespace acausal::rotational {

/// Power transmitted from flange_a to flange_b: tau·w.
struct PowerSensor : Component {
  Flange flange_a{*this, "flange_a"}, flange_b{*this, "flange_b"};
  RealOutput power{*this, "power", {.unit = "W"}};
  explicit PowerSensor(std::string name) : Component(std::move(name)) {
    equation(flange_a.phi == flange_b.phi);
    equation(flange_a.tau + flange_b.tau == 0.0);
    equation(power == flange_a.tau * der(flange_a.phi));
  }
};

}  // namespace acausal::rotational
