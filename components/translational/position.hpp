#pragma once

#include "connectors/signal.hpp"
#include "connectors/translational.hpp"

namespace acausal::translational {

/// Position source (exact): the flange follows s_ref, whatever force that takes.
struct Position : Component {
  Flange flange{*this, "flange"};
  RealInput s_ref{*this, "s_ref", {.unit = "m"}};
  Variable s = variable("s", {.unit = "m"});

  explicit Position(std::string name) : Component(std::move(name)) {
    energy_source();
    equation(s == flange.s);
    equation(s == s_ref);
  }
};

}  // namespace acausal::translational
