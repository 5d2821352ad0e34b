#pragma once

#include "connectors/rotational.hpp"
#include "connectors/signal.hpp"

namespace acausal::rotational {

/// Torque transmitted from flange_a to flange_b: an ideal rigid cut in the shaft.
struct TorqueSensor : Component {
  Flange flange_a{*this, "flange_a"}, flange_b{*this, "flange_b"};
  RealOutput tau{*this, "tau", {.unit = "N.m"}};
  explicit TorqueSensor(std::string name) : Component(std::move(name)) {
    equation(flange_a.phi == flange_b.phi);
    equation(flange_a.tau + flange_b.tau == 0.0);
    equation(tau == flange_a.tau);
  }
};

}  // namespace acausal::rotational
