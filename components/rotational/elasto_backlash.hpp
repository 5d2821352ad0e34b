#pragma once

#include "components/rotational/partial_elasto_backlash.hpp"

namespace acausal::rotational {

/// Backlash in series with a linear spring and damper (MSL
/// Rotational.Components.ElastoBacklash): no torque while |phi_rel -
/// phi_rel0| < b/2; in contact the spring torque tau_c = c·(deflection beyond
/// the gap) plus a damper torque d·w_rel that is limited so that the contact
/// can only push: it is at most tau_c, and where it would cancel tau_c the
/// torque is zero (the contact lifts off). So the torque is continuous when
/// contact starts, and no event is needed where the damping limit switches
/// (MSL's smooth(0, noEvent(...))): only entering and leaving the gap are
/// events. Stored: the spring energy beyond the gap; dissipated: lossPower
/// (MSL's) and the spring energy lost at a lift-off (see finish()). With
/// use_heat_port = 1 lossPower leaves as heat through heat_port.
struct ElastoBacklash : PartialElastoBacklash {
  explicit ElastoBacklash(std::string name) : PartialElastoBacklash(std::move(name)) {
    const Expr pushing_forward = tau_c + tau_d > 0.0, pushing_backward = tau_c + tau_d < 0.0;
    const Expr forward = no_event(ifelse(pushing_forward, tau_c + min(tau_c, tau_d), 0.0));
    const Expr backward = no_event(ifelse(pushing_backward, tau_c + max(tau_c, tau_d), 0.0));
    const Expr loss_forward = no_event(ifelse(pushing_forward, min(tau_c, tau_d) * w_rel, 0.0));
    const Expr loss_backward = no_event(ifelse(pushing_backward, max(tau_c, tau_d) * w_rel, 0.0));
    finish(ifelse(phi_diff() > bMax(), forward, ifelse(phi_diff() < bMin(), backward, 0.0)),
           ifelse(phi_diff() > bMax(), loss_forward, ifelse(phi_diff() < bMin(), loss_backward, 0.0)));
  }
};

}  // namespace acausal::rotational
