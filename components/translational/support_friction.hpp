#pragma once

#include <utility>
#include <vector>

#include "components/blocks/tables/interpolation.hpp"
#include "components/common/friction_modes.hpp"
#include "components/thermal/conditional_heat_port.hpp"
#include "connectors/translational.hpp"

namespace acausal::translational {

/// Support friction (MSL Translational.Components.SupportFriction, housing
/// fixed): a friction force f_pos(v) against the ground (default [(0, 1)] N);
/// stuck up to peak·f_pos(0).
/// With use_heat_port = 1 the loss lossPower leaves as heat through heat_port
/// (thermal::ConditionalHeatPort, MSL useHeatPort).
struct SupportFriction : Component {
  Flange flange_a{*this, "flange_a"}, flange_b{*this, "flange_b"};
  Parameter peak = parameter("peak", 1.0, {.min = 1, .description = "break-away / sliding force at v = 0"});
  Parameter v_small = parameter("v_small", 1e-3, {.unit = "m/s", .min = 0});
  Variable s = variable("s", {.unit = "m"});
  Variable v = variable("v", {.unit = "m/s"});
  Variable a = variable("a", {.unit = "m/s2"});
  Variable f = variable("f", {.unit = "N", .description = "friction force, positive against positive v"});
  Variable f0 = variable("f0", {.unit = "N"});
  Variable f0_max = variable("f0_max", {.unit = "N"});
  FrictionModes friction{*this, "N", "m/s2"};
  thermal::ConditionalHeatPort heat{*this};

  explicit SupportFriction(std::string name) : Component(std::move(name)) {
    equation(s == flange_a.s);
    equation(flange_b.s == flange_a.s);
    equation(v == der(s));
    equation(a == der(v));
    equation(flange_a.f + flange_b.f == f);
    equation(f0_max == peak * f0);
    friction.equations(*this, v, a, f0, f0_max, Expr(0.0), v_small);
    set_f_pos({{0.0, 1.0}});
    heat.equations(*this, f * v);
  }

  /// The friction force as (v, f) points, v >= 0.
  void set_f_pos(const std::vector<std::pair<double, double>>& points) {
    auto law = [&](const Expr& x) {
      return blocks::interpolate(x, points, "SupportFriction '" + name() + "' f_pos", "speeds");
    };
    set_equations(*this, table_equations_, {f0 == law(0.0), f == friction.force(Expr(0.0), law(v), -law(-v))});
  }

 private:
  std::vector<std::size_t> table_equations_;
};

}  // namespace acausal::translational
