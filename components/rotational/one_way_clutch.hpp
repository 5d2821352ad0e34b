#pragma once

#include <utility>
#include <vector>

#include "components/blocks/tables/interpolation.hpp"
#include "components/common/friction_modes.hpp"
#include "components/rotational/partial_clutch.hpp"
#include "components/thermal/conditional_heat_port.hpp"

namespace acausal::rotational {

/// One-way clutch (MSL Rotational.Components.OneWayClutch): a freewheel in
/// parallel with a clutch. The freewheel locks when w_rel reaches zero from
/// above (any negative torque is then held) and releases when the torque
/// exceeds the clutch's break-away torque peak·mu(0)·cgeo·fn (a tiny torque
/// when disengaged); sliding forward, the clutch transmits cgeo·fn·mu(w_rel).
/// With use_heat_port = 1 the loss lossPower leaves as heat through heat_port
/// (thermal::ConditionalHeatPort, MSL useHeatPort).
struct OneWayClutch : PartialClutch {
  // sa is a number: a torque when locked, an acceleration when sliding (MSL's unit constants).
  Parameter unit_torque = parameter("unit_torque", 1.0, {.unit = "N.m", .description = "unit constant", .structural = true});
  Parameter unit_acceleration =
      parameter("unit_acceleration", 1.0, {.unit = "rad/s2", .description = "unit constant", .structural = true});
  Variable sa = variable("sa", {.unit = "1", .description = "path parameter: the torque when locked (in unit_torque)"});
  Discrete startForward = discrete("startForward", {.kind = DiscreteKind::boolean});
  Discrete locked = discrete("locked", {.kind = DiscreteKind::boolean});
  Discrete stuck = discrete("stuck", {.kind = DiscreteKind::boolean});
  thermal::ConditionalHeatPort heat{*this};

  explicit OneWayClutch(std::string name) : PartialClutch(std::move(name)) {
    const Expr free = f_normalized <= 0.0;
    // Disengaged, the freewheel still releases at a tiny torque rather than none.
    const Expr released_at = 1e-4 * mu0 * cgeo * fn_max;
    equation(fn == ifelse(free, 0.0, fn_max * f_normalized));
    equation(tau0_max == ifelse(free, released_at, max(peak, 1.0 + 1e-4) * tau0));
    const Expr release = tau0_max / unit_torque, sliding = tau0 / unit_torque;
    equation(startForward == ((pre(stuck) && (sa > release || (pre(startForward) && sa > sliding) || w_rel > w_small)) ||
                              (initial() && w_rel > 0.0)));
    equation(locked == (pre(stuck) && !startForward));
    equation(a_rel / unit_acceleration == ifelse(locked, 0.0, sa - sliding));
    equation(stuck == (locked || w_rel <= 0.0));
    set_mu_pos({{0.0, 0.5}});
    heat.equations(*this, ifelse(stuck, 0.0, tau * w_rel));
  }

  /// The friction coefficient mu(w_rel) as (w_rel, mu) points, w_rel >= 0.
  void set_mu_pos(const std::vector<std::pair<double, double>>& points) {
    auto mu = [&](const Expr& w) {
      return blocks::interpolate(w, points, "OneWayClutch '" + name() + "' mu_pos", "speeds");
    };
    set_equations(*this, table_equations_,
                  {mu0 == mu(0.0), tau == ifelse(locked, sa * unit_torque, ifelse(f_normalized <= 0.0, 0.0, cgeo * fn * mu(w_rel)))});
  }

 private:
  std::vector<std::size_t> table_equations_;
};

}  // namespace acausal::rotational
