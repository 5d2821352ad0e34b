#pragma once

#include "components/thermal/conditional_heat_port.hpp"
#include "components/translational/partial_compliant.hpp"

namespace acausal::translational {

/// Spring and damper that act only in contact, s_rel < s_rel0 (MSL
/// Translational.Components.ElastoGap): the spring force f_c = -c·|s_rel -
/// s_rel0|^n (n = 1.5: Hertzian contact of spheres) and a damper force d·v_rel
/// bounded by |f_c|. The bound is what makes the element a contact: the force
/// can only push (f <= 0) and it starts from zero when contact begins,
/// whatever the impact speed. Touching and lifting off are events (the
/// Boolean contact); the force law itself is evaluated literally within a mode.
/// Stored: c/(n+1)·|s_rel - s_rel0|^(n+1) in contact; dissipated: lossPower =
/// f_d·v_rel >= 0. With use_heat_port = 1 it leaves as heat through heat_port.
struct ElastoGap : PartialCompliant {
  Parameter c = parameter("c", 1.0, {.unit = "N/m", .min = 0, .description = "spring constant"});
  Parameter d = parameter("d", 1.0, {.unit = "N.s/m", .min = 0, .description = "damping constant"});
  Parameter s_rel0 = parameter("s_rel0", 0.0, {.unit = "m", .description = "unstretched spring length"});
  Parameter n = parameter("n", 1.0, {.unit = "1", .min = 1, .description = "exponent of the spring force"});
  Variable v_rel = variable("v_rel", {.unit = "m/s"});
  Variable f_c = variable("f_c", {.unit = "N", .description = "spring force"});
  Variable f_d2 = variable("f_d2", {.unit = "N", .description = "linear damping force"});
  Variable f_d = variable("f_d", {.unit = "N", .description = "damping force bounded by |f_c|"});
  Discrete contact = discrete("contact", {.kind = DiscreteKind::boolean, .description = "s_rel < s_rel0"});
  thermal::ConditionalHeatPort heat{*this};

  explicit ElastoGap(std::string name) : PartialCompliant(std::move(name)) {
    const Expr penetration = no_event(abs(s_rel - s_rel0));
    equation(v_rel == der(flange_b.s - flange_a.s));
    equation(contact == (s_rel < s_rel0));
    equation(f_c == ifelse(contact, -c * pow(penetration, n), 0.0));
    equation(f_d2 == ifelse(contact, d * v_rel, 0.0));
    equation(f_d == no_event(ifelse(contact, ifelse(f_d2 < f_c, f_c, ifelse(f_d2 > -f_c, -f_c, f_d2)), 0.0)));
    equation(f == f_c + f_d);
    stored_energy(ifelse(contact, c / (n + 1.0) * pow(penetration, n + 1.0), 0.0));
    heat.equations(*this, f_d * v_rel);
  }
};

}  // namespace acausal::translational
