#pragma once

#include "connectors/rotational.hpp"

namespace acausal::rotational {

/// Rotational inertia: J·der(w) = flange_a.tau + flange_b.tau; both flanges
/// turn with the body (phi).
struct Inertia : Component {
  Flange flange_a{*this, "flange_a"}, flange_b{*this, "flange_b"};
  Parameter J = parameter("J", 1.0, {.unit = "kg.m2", .min = 0});
  Variable phi = variable("phi", {.unit = "rad", .state = StateSelect::prefer});
  Variable w = variable("w", {.unit = "rad/s", .state = StateSelect::prefer});
  Variable a = variable("a", {.unit = "rad/s2"});

  explicit Inertia(std::string name) : Component(std::move(name)) {
    stored_energy(0.5 * J * w * w);
    // J·der(w) with J = 0 leaves der(w) undetermined: IDA would fail on a singular matrix.
    require(J > 0, "the inertia J must be positive");
    equation(phi == flange_a.phi);
    equation(phi == flange_b.phi);
    equation(w == der(phi));
    equation(a == der(w));
    equation(J * a == flange_a.tau + flange_b.tau);
  }
};

}  // namespace acausal::rotational
