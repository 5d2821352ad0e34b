#pragma once

#include "connectors/rotational.hpp"
#include "connectors/signal.hpp"

namespace acausal::rotational {

/// Speed source (exact): the flange turns at the input speed w_ref, whatever
/// torque that takes. Index reduction differentiates w_ref when an inertia is attached.
struct Speed : Component {
  Flange flange{*this, "flange"};
  RealInput w_ref{*this, "w_ref", {.unit = "rad/s"}};
  Variable phi = variable("phi", {.unit = "rad"});
  Variable w = variable("w", {.unit = "rad/s"});

  explicit Speed(std::string name) : Component(std::move(name)) {
    energy_source();
    equation(phi == flange.phi);
    equation(w == der(phi));
    equation(w == w_ref);
  }
};

}  // namespace acausal::rotational
