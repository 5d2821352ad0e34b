#pragma once

#include "solver/modeling/component.hpp"

namespace acausal::vehicle {

/// The contact between a wheel and the body it carries. Traction: the body
/// fixes s_traction (its longitudinal position at the axle), each wheel sets
/// its traction force. Normal: the body sets the axle load through f_normal,
/// each wheel relates its load to its tire deflection (s_normal = -deflection).
/// Axes: traction positive forward, normal positive up; flows act on the owner.
///
/// Energy books: the normal pair is left out of the port power. Its work is
/// the tires' vertical spring energy, -½·f_normal·s_normal on the body's
/// side (the tire law is linear in the deflection); a body with vertical
/// motion books it as stored energy, a quasi-static body (load transfer
/// without heave) leaves it to the quasi-static support on both sides. Booked
/// as der(s_normal)·f_normal it would ask the model for the rate of the axle
/// loads, hence of the tire forces: one index higher than the car itself.
struct WheelContact : Connector {
  Variable s_traction = potential("s_traction", {.unit = "m"});
  Variable f_traction = flow("f_traction", {.unit = "N"});
  Variable s_normal = potential("s_normal", {.unit = "m"});
  Variable f_normal = flow("f_normal", {.unit = "N"});
  WheelContact(Component& owner, std::string name) : Connector(owner, std::move(name), "vehicle.WheelContact") {
    unbooked("s_normal");
  }
  /// The tires' vertical spring energy under this contact, seen from the body (J).
  Expr tire_spring_energy() const { return -0.5 * f_normal * s_normal; }
};

}  // namespace acausal::vehicle
