#pragma once

#include "connectors/translational.hpp"

namespace acausal::translational {

/// Flange fixed at position s0; takes any reaction force.
struct Fixed : Component {
  Flange flange{*this, "flange"};
  Parameter s0 = parameter("s0", 0.0, {.unit = "m"});

  explicit Fixed(std::string name) : Component(std::move(name)) { equation(flange.s == s0); }
};

}  // namespace acausal::translational
