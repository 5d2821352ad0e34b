#pragma once

#include <utility>
#include <vector>

#include "components/blocks/tables/interpolation.hpp"
#include "components/common/friction_modes.hpp"
#include "components/rotational/partial_clutch.hpp"
#include "components/thermal/conditional_heat_port.hpp"

namespace acausal::rotational {

/// Clutch (MSL Rotational.Components.Clutch): two flanges pressed together by
/// the normal force fn = fn_max·f_normalized (free when fn <= 0). Sliding, the
/// torque is cgeo·fn·mu(w_rel) with mu from the table mu_pos (w_rel >= 0,
/// linear between points, MSL default [(0, 0.5)]); stuck, w_rel stays exactly
/// zero and the torque is whatever keeps it there, up to peak·mu(0)·cgeo·fn.
/// The modes: FrictionModes.
/// With use_heat_port = 1 the loss lossPower leaves as heat through heat_port
/// (thermal::ConditionalHeatPort, MSL useHeatPort).
struct Clutch : PartialClutch {
  FrictionModes friction{*this, "N.m", "rad/s2"};
  thermal::ConditionalHeatPort heat{*this};

  explicit Clutch(std::string name) : PartialClutch(std::move(name)) {
    equation(fn == fn_max * f_normalized);
    equation(tau0_max == peak * tau0);
    friction.equations(*this, w_rel, a_rel, tau0, tau0_max, free(), w_small);
    set_mu_pos({{0.0, 0.5}});
    heat.equations(*this, tau * w_rel);
  }

  /// The friction coefficient mu(w_rel) as (w_rel, mu) points, w_rel >= 0.
  void set_mu_pos(const std::vector<std::pair<double, double>>& points) {
    auto mu = [&](const Expr& w) { return blocks::interpolate(w, points, "Clutch '" + name() + "' mu_pos", "speeds"); };
    set_equations(*this, table_equations_,
                  {mu0 == mu(0.0), tau == friction.force(free(), cgeo * fn * mu(w_rel), -cgeo * fn * mu(-w_rel))});
  }

 private:
  Expr free() const { return fn <= 0.0; }
  std::vector<std::size_t> table_equations_;
};

}  // namespace acausal::rotational
