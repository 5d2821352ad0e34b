#pragma once

#include "components/rotational/partial_compliant.hpp"
#include "components/thermal/conditional_heat_port.hpp"

namespace acausal::rotational {

/// Base of ElastoBacklash and ElastoBacklash2 (MSL v4.0.0): a spring c and a
/// damper d in series with a total backlash b, centred on phi_rel0. The two
/// share the spring law and differ only in how the flange torque tau follows
/// from tau_c and tau_d at contact, which each derived element writes (with
/// its lossPower) before calling finish().
///
/// Like MSL, the characteristic used while initializing is a monotone one
/// (linear (c/3)·phi_diff inside ±1.5·b/2): the real one is flat in the gap,
/// so an initial condition on the torque could not be inverted there.
/// A backlash b <= bEps = 1e-10 rad is treated as none (a plain spring and
/// damper), as in MSL, so that b = 0 cannot cause an endless train of events.
struct PartialElastoBacklash : PartialCompliant {
  static constexpr double bEps = 1e-10;  // rad

  // MSL's min = Modelica.Constants.small: the initialization characteristic must be invertible.
  Parameter c = parameter("c", 1.0e5, {.unit = "N.m/rad", .min = 1e-60, .description = "spring constant (> 0)"});
  Parameter d = parameter("d", 0.0, {.unit = "N.m.s/rad", .min = 0, .description = "damping constant"});
  Parameter b = parameter("b", 0.0, {.unit = "rad", .min = 0, .description = "total backlash"});
  Parameter phi_rel0 = parameter("phi_rel0", 0.0, {.unit = "rad", .description = "unstretched spring angle"});
  Variable w_rel = variable("w_rel", {.unit = "rad/s"});
  Variable tau_c = variable("tau_c", {.unit = "N.m", .description = "spring torque"});
  Variable tau_d = variable("tau_d", {.unit = "N.m", .description = "damper torque d·w_rel"});
  thermal::ConditionalHeatPort heat{*this};

  explicit PartialElastoBacklash(std::string name) : PartialCompliant(std::move(name)) {
    equation(w_rel == der(flange_b.phi - flange_a.phi));
    // The initial branch is continuous, so it needs no events (and after
    // initialization none of its relations should cause one).
    const Expr at_start = no_event(ifelse(phi_diff() > 1.5 * bMax(), c * (phi_diff() - bMax()),
                                          ifelse(phi_diff() < 1.5 * bMin(), c * (phi_diff() - bMin()),
                                                 (c / 3.0) * phi_diff())));
    equation(tau_c == ifelse(initial(), at_start,
                             ifelse(no_backlash(), c * phi_diff(),
                                    ifelse(phi_diff() > bMax(), c * (phi_diff() - bMax()),
                                           ifelse(phi_diff() < bMin(), c * (phi_diff() - bMin()), 0.0)))));
    equation(tau_d == d * w_rel);
    // C1 in phi_diff, so evaluated literally: the books add no events.
    const Expr above = no_event(max(phi_diff() - bMax(), 0.0)), below = no_event(min(phi_diff() - bMin(), 0.0));
    stored_energy(ifelse(no_backlash(), 0.5 * c * phi_diff() * phi_diff(), 0.5 * c * (above * above + below * below)));
  }

 protected:
  Expr phi_diff() const { return phi_rel - phi_rel0; }
  Expr bMax() const { return b / 2.0; }
  Expr bMin() const { return -(b / 2.0); }
  Expr no_backlash() const { return b <= bEps; }

  /// The torque law `tau_contact` (used outside initialization with a
  /// backlash) and MSL's lossPower `loss`. MSL books no loss when a damper
  /// that would pull lets the contact go (tau = 0 while the spring is still
  /// deflected): the spring energy released then vanishes. The books count it
  /// as dissipated here, (tau - tau_c)·w_rel beyond lossPower, so that they
  /// close while lossPower (and the heat through heat_port) stays MSL's.
  void finish(const Expr& tau_contact, const Expr& loss) {
    equation(tau == ifelse(initial() || no_backlash(), tau_c + tau_d, tau_contact));
    dissipated_power((tau - tau_c) * w_rel - heat.lossPower);
    heat.equations(*this, ifelse(initial() || no_backlash(), tau_d * w_rel, loss));
  }
};

}  // namespace acausal::rotational
