#pragma once

#include "connectors/translational.hpp"

namespace acausal::translational {

/// Sliding mass of length L (MSL Translational.Components.Mass): its centre
/// at s, its flanges at s ∓ L/2 (L = 0, the default, is a point mass);
/// m·der(v) = flange_a.f + flange_b.f.
struct Mass : Component {
  Flange flange_a{*this, "flange_a"}, flange_b{*this, "flange_b"};
  Parameter m = parameter("m", 1.0, {.unit = "kg", .min = 0});
  // Structural, so that the flanges of a point mass (L = 0) are aliases of s.
  Parameter L = parameter("L", 0.0, {.unit = "m", .description = "length, flange_b.s - flange_a.s", .structural = true});
  Variable s = variable("s", {.unit = "m", .state = StateSelect::prefer});
  Variable v = variable("v", {.unit = "m/s", .state = StateSelect::prefer});
  Variable a = variable("a", {.unit = "m/s2"});

  explicit Mass(std::string name) : Component(std::move(name)) {
    stored_energy(0.5 * m * v * v);
    // m·der(v) with m = 0 leaves der(v) undetermined: IDA would fail on a singular matrix.
    require(m > 0, "the mass m must be positive");
    equation(flange_a.s == s - L / 2.0);
    equation(flange_b.s == s + L / 2.0);
    equation(v == der(s));
    equation(a == der(v));
    equation(m * a == flange_a.f + flange_b.f);
  }
};

}  // namespace acausal::translational
