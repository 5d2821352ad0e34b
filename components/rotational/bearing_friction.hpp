#pragma once

#include <utility>
#include <vector>

#include "components/blocks/tables/interpolation.hpp"
#include "components/common/friction_modes.hpp"
#include "components/thermal/conditional_heat_port.hpp"
#include "connectors/rotational.hpp"

namespace acausal::rotational {

/// Bearing friction (MSL Rotational.Components.BearingFriction, housing
/// fixed): a friction torque tau_pos(w) against the ground with no normal
/// force (default [(0, 1)] N.m); stuck up to peak·tau_pos(0).
/// With use_heat_port = 1 the loss lossPower leaves as heat through heat_port
/// (thermal::ConditionalHeatPort, MSL useHeatPort).
struct BearingFriction : Component {
  Flange flange_a{*this, "flange_a"}, flange_b{*this, "flange_b"};
  Parameter peak = parameter("peak", 1.0, {.min = 1, .description = "break-away / sliding torque at w = 0"});
  Parameter w_small = parameter("w_small", 1e10, {.unit = "rad/s", .min = 0});
  Variable phi = variable("phi", {.unit = "rad"});
  Variable w = variable("w", {.unit = "rad/s"});
  Variable a = variable("a", {.unit = "rad/s2"});
  Variable tau = variable("tau", {.unit = "N.m", .description = "friction torque, positive against positive w"});
  Variable tau0 = variable("tau0", {.unit = "N.m"});
  Variable tau0_max = variable("tau0_max", {.unit = "N.m"});
  FrictionModes friction{*this, "N.m", "rad/s2"};
  thermal::ConditionalHeatPort heat{*this};

  explicit BearingFriction(std::string name) : Component(std::move(name)) {
    equation(phi == flange_a.phi);
    equation(flange_b.phi == flange_a.phi);
    equation(w == der(phi));
    equation(a == der(w));
    equation(flange_a.tau + flange_b.tau == tau);
    equation(tau0_max == peak * tau0);
    friction.equations(*this, w, a, tau0, tau0_max, Expr(0.0), w_small);
    set_tau_pos({{0.0, 1.0}});
    heat.equations(*this, tau * w);
  }

  /// The friction torque as (w, tau) points, w >= 0.
  void set_tau_pos(const std::vector<std::pair<double, double>>& points) {
    auto law = [&](const Expr& v) {
      return blocks::interpolate(v, points, "BearingFriction '" + name() + "' tau_pos", "speeds");
    };
    set_equations(*this, table_equations_, {tau0 == law(0.0), tau == friction.force(Expr(0.0), law(w), -law(-w))});
  }

 private:
  std::vector<std::size_t> table_equations_;
};

}  // namespace acausal::rotational
