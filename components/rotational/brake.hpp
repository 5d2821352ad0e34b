#pragma once

#include <utility>
#include <vector>

#include "components/blocks/tables/interpolation.hpp"
#include "components/common/friction_modes.hpp"
#include "components/thermal/conditional_heat_port.hpp"
#include "connectors/rotational.hpp"
#include "connectors/signal.hpp"

namespace acausal::rotational {

/// Brake (MSL Rotational.Components.Brake, housing fixed): dry friction of the
/// flanges' shaft against the ground, pressed by fn = fn_max·f_normalized
/// (free when fn <= 0). Sliding, tau = cgeo·fn·mu(w) with mu from mu_pos;
/// stuck, w stays exactly zero, up to a holding torque of peak·mu(0)·cgeo·fn.
/// With use_heat_port = 1 the loss lossPower leaves as heat through heat_port
/// (thermal::ConditionalHeatPort, MSL useHeatPort).
struct Brake : Component {
  Flange flange_a{*this, "flange_a"}, flange_b{*this, "flange_b"};
  RealInput f_normalized{*this, "f_normalized"};
  Parameter peak = parameter("peak", 1.0, {.min = 1, .description = "break-away / sliding torque at w = 0"});
  Parameter cgeo = parameter("cgeo", 1.0, {.min = 0, .description = "geometry constant"});
  Parameter fn_max = parameter("fn_max", 1.0, {.unit = "N", .min = 0});
  Parameter w_small = parameter("w_small", 1e10, {.unit = "rad/s", .min = 0});
  Variable phi = variable("phi", {.unit = "rad"});
  Variable w = variable("w", {.unit = "rad/s"});
  Variable a = variable("a", {.unit = "rad/s2"});
  Variable tau = variable("tau", {.unit = "N.m", .description = "friction torque, positive against positive w"});
  Variable fn = variable("fn", {.unit = "N"});
  Variable mu0 = variable("mu0");
  Variable tau0 = variable("tau0", {.unit = "N.m"});
  Variable tau0_max = variable("tau0_max", {.unit = "N.m"});
  FrictionModes friction{*this, "N.m", "rad/s2"};
  thermal::ConditionalHeatPort heat{*this};

  explicit Brake(std::string name) : Component(std::move(name)) {
    equation(phi == flange_a.phi);
    equation(flange_b.phi == flange_a.phi);
    equation(w == der(phi));
    equation(a == der(w));
    equation(flange_a.tau + flange_b.tau == tau);
    equation(fn == fn_max * f_normalized);
    equation(tau0 == mu0 * cgeo * fn);
    equation(tau0_max == peak * tau0);
    friction.equations(*this, w, a, tau0, tau0_max, free(), w_small);
    set_mu_pos({{0.0, 0.5}});
    heat.equations(*this, tau * w);
  }

  /// The friction coefficient mu(w) as (w, mu) points, w >= 0.
  void set_mu_pos(const std::vector<std::pair<double, double>>& points) {
    auto mu = [&](const Expr& v) { return blocks::interpolate(v, points, "Brake '" + name() + "' mu_pos", "speeds"); };
    set_equations(*this, table_equations_,
                  {mu0 == mu(0.0), tau == friction.force(free(), cgeo * fn * mu(w), -cgeo * fn * mu(-w))});
  }

 private:
  Expr free() const { return fn <= 0.0; }
  std::vector<std::size_t> table_equations_;
};

}  // namespace acausal::rotational
