#pragma once

#include "solver/modeling/component.hpp"

namespace acausal::rotational {

/// Rotational flange: absolute angle (potential) and cut torque (flow, positive
/// when it acts on the component that owns the flange).
struct Flange : Connector {
  Variable phi = potential("phi", {.unit = "rad"});
  Variable tau = flow("tau", {.unit = "N.m"});
  Flange(Component& owner, std::string name) : Connector(owner, std::move(name), "rotational.Flange") {}
};

}  // namespace acausal::rotational
