#pragma once

#include "connectors/signal.hpp"
#include "connectors/translational.hpp"

namespace acausal::translational {

/// Speed source (exact): the flange moves at v_ref, whatever force that takes.
struct Speed : Component {
  Flange flange{*this, "flange"};
  RealInput v_ref{*this, "v_ref", {.unit = "m/s"}};
  Variable s = variable("s", {.unit = "m"});
  Variable v = variable("v", {.unit = "m/s"});

  explicit Speed(std::string name) : Component(std::move(name)) {
    energy_source();
    equation(s == flange.s);
    equation(v == der(s));
    equation(v == v_ref);
  }
};

}  // namespace acausal::translational
