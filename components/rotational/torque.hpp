#pragma once

#include "connectors/rotational.hpp"
#include "connectors/signal.hpp"

namespace acausal::rotational {

/// Torque source: drives the connected flange with the input signal tau
/// (reaction in the fixed housing).
struct Torque : Component {
  Flange flange{*this, "flange"};
  RealInput tau{*this, "tau", {.unit = "N.m"}};

  explicit Torque(std::string name) : Component(std::move(name)) {
    energy_source();
    equation(flange.tau == -tau);
  }
};

}  // namespace acausal::rotational
