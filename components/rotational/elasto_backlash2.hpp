#pragma once

#include "components/rotational/partial_elasto_backlash.hpp"

namespace acausal::rotational {

/// Backlash in series with a linear spring and damper, MSL v4's second
/// variant (Rotational.Components.ElastoBacklash2): as ElastoBacklash, but in
/// contact the full tau_c + d·w_rel acts, so the torque jumps by d·w_rel when
/// contact starts; where that sum would pull, the contact is let go (tau =
/// 0). That release is a relation with events (no noEvent in MSL), so a
/// lift-off is located exactly, as are entering and leaving the gap.
/// Stored: the spring energy beyond the gap; dissipated: lossPower = d·w_rel²
/// in contact (MSL's) and the spring energy lost at a lift-off (see
/// finish()). With use_heat_port = 1 lossPower leaves as heat through heat_port.
struct ElastoBacklash2 : PartialElastoBacklash {
  explicit ElastoBacklash2(std::string name) : PartialElastoBacklash(std::move(name)) {
    const Expr released_forward = tau_c + tau_d <= 0.0, released_backward = tau_c + tau_d >= 0.0;
    finish(ifelse(phi_diff() > bMax(), ifelse(released_forward, 0.0, tau_c + tau_d),
                  ifelse(phi_diff() < bMin(), ifelse(released_backward, 0.0, tau_c + tau_d), 0.0)),
           ifelse(phi_diff() > bMax(), ifelse(released_forward, 0.0, tau_d * w_rel),
                  ifelse(phi_diff() < bMin(), ifelse(released_backward, 0.0, tau_d * w_rel), 0.0)));
  }
};

}  // namespace acausal::rotational
