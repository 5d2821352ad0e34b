#pragma once

#include "solver/modeling/component.hpp"

namespace acausal::translational {

/// Translational flange: absolute position (potential) and cut force (flow,
/// positive when it acts on the component that owns the flange).
struct Flange : Connector {
  Variable s = potential("s", {.unit = "m"});
  Variable f = flow("f", {.unit = "N"});
  Flange(Component& owner, std::string name) : Connector(owner, std::move(name), "translational.Flange") {}
};

}  // namespace acausal::translational
