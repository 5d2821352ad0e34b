#pragma once

#include <utility>
#include <vector>

#include "components/blocks/tables/interpolation.hpp"
#include "components/common/friction_modes.hpp"
#include "components/thermal/conditional_heat_port.hpp"
#include "connectors/signal.hpp"
#include "connectors/translational.hpp"

namespace acausal::translational {

/// Brake (MSL Translational.Components.Brake, housing fixed): dry friction of
/// the flanges against the ground, pressed by fn = fn_max·f_normalized (free
/// when fn <= 0). Sliding, f = cgeo·fn·mu(v) with mu from mu_pos; stuck, v
/// stays exactly zero, up to a holding force of peak·mu(0)·cgeo·fn.
/// With use_heat_port = 1 the loss lossPower leaves as heat through heat_port
/// (thermal::ConditionalHeatPort, MSL useHeatPort).
struct Brake : Component {
  Flange flange_a{*this, "flange_a"}, flange_b{*this, "flange_b"};
  RealInput f_normalized{*this, "f_normalized"};
  Parameter peak = parameter("peak", 1.0, {.min = 1, .description = "break-away / sliding force at v = 0"});
  Parameter cgeo = parameter("cgeo", 1.0, {.min = 0, .description = "geometry constant"});
  Parameter fn_max = parameter("fn_max", 1.0, {.unit = "N", .min = 0});
  Parameter v_small = parameter("v_small", 1e-3, {.unit = "m/s", .min = 0});
  Variable s = variable("s", {.unit = "m"});
  Variable v = variable("v", {.unit = "m/s"});
  Variable a = variable("a", {.unit = "m/s2"});
  Variable f = variable("f", {.unit = "N", .description = "friction force, positive against positive v"});
  Variable fn = variable("fn", {.unit = "N"});
  Variable mu0 = variable("mu0");
  Variable f0 = variable("f0", {.unit = "N"});
  Variable f0_max = variable("f0_max", {.unit = "N"});
  FrictionModes friction{*this, "N", "m/s2"};
  thermal::ConditionalHeatPort heat{*this};

  explicit Brake(std::string name) : Component(std::move(name)) {
    equation(s == flange_a.s);
    equation(flange_b.s == flange_a.s);
    equation(v == der(s));
    equation(a == der(v));
    equation(flange_a.f + flange_b.f == f);
    equation(fn == fn_max * f_normalized);
    equation(f0 == mu0 * cgeo * fn);
    equation(f0_max == peak * f0);
    friction.equations(*this, v, a, f0, f0_max, free(), v_small);
    set_mu_pos({{0.0, 0.5}});
    heat.equations(*this, f * v);
  }

  /// The friction coefficient mu(v) as (v, mu) points, v >= 0.
  void set_mu_pos(const std::vector<std::pair<double, double>>& points) {
    auto mu = [&](const Expr& x) { return blocks::interpolate(x, points, "Brake '" + name() + "' mu_pos", "speeds"); };
    set_equations(*this, table_equations_,
                  {mu0 == mu(0.0), f == friction.force(free(), cgeo * fn * mu(v), -cgeo * fn * mu(-v))});
  }

 private:
  Expr free() const { return fn <= 0.0; }
  std::vector<std::size_t> table_equations_;
};

}  // namespace acausal::translational
