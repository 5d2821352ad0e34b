#pragma once

#include "connectors/signal.hpp"
#include "connectors/translational.hpp"

namespace acausal::translational {

/// Force source: pushes the connected flange with the input signal f
/// (reaction in the fixed housing).
struct Force : Component {
  Flange flange{*this, "flange"};
  RealInput f{*this, "f", {.unit = "N"}};

  explicit Force(std::string name) : Component(std::move(name)) {
    energy_source();
    equation(flange.f == -f);
  }
};

}  // namespace acausal::translational
