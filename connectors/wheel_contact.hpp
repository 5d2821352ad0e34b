#pragma once

#include "solver/modeling/component.hpp"

namespace acausal::vehicle {

/// The contact between a wheel and the body it carries. Traction: the body
/// fixes s_traction (its longitudinal position at the axle), each wheel sets
/// its traction force. Normal: the body sets the axle load through f_normal,
/// each wheel relates its load to its tire deflection (s_normal = -deflection).
/// Axes: traction positive forward, normal positive up; flows act on the owner.
struct WheelContact : Connector {
  Variable s_traction = potential("s_traction", {.unit = "m"});
  Variable f_traction = flow("f_traction", {.unit = "N"});
  Variable s_normal = potential("s_normal", {.unit = "m"});
  Variable f_normal = flow("f_normal", {.unit = "N"});
  WheelContact(Component& owner, std::string name) : Connector(owner, std::move(name), "vehicle.WheelContact") {}
};

}  // namespace acausal::vehicle
