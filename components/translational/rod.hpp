#pragma once

#include "connectors/translational.hpp"

namespace acausal::translational {

/// Massless rigid rod of length L (MSL Translational.Components.Rod): the
/// flanges sit at s ∓ L/2 and the force passes through unchanged. It places
/// elements at fixed offsets from one another (a housing's stops, the ends
/// of a body with length), storing and losing nothing.
struct Rod : Component {
  Flange flange_a{*this, "flange_a"}, flange_b{*this, "flange_b"};
  Parameter L = parameter("L", 0.0, {.unit = "m", .description = "length, flange_b.s - flange_a.s"});
  Variable s = variable("s", {.unit = "m", .description = "position of the centre"});

  explicit Rod(std::string name) : Component(std::move(name)) {
    equation(flange_a.s == s - L / 2.0);
    equation(flange_b.s == s + L / 2.0);
    equation(0.0 == flange_a.f + flange_b.f);
  }
};

}  // namespace acausal::translational
