#pragma once

#include "connectors/signal.hpp"

namespace acausal::vehicle {

/// A shift map on vehicle speed with hysteresis: from gear k it shifts up
/// above the k-th up-shift speed v_12, v_23, v_34, v_45 and down below the
/// (k−1)-th minus `hysteresis`, so a speed hovering at a shift point does not
/// make the gearbox hunt. Under load the shift speeds grow, by the share
/// `kickdown` at full throttle: a driver asking for power gets a lower gear
/// (a kick-down) and shifts up later. A shift speed of 0 is unused, as are the ones after
/// it. The gear is a discrete variable (each shift an event); it starts in
/// the gear the initial speed calls for.
struct ShiftMap : Component {
  RealInput v{*this, "v", {.unit = "m/s"}};
  RealInput load{*this, "load", {.description = "throttle, 0..1: a driver asking for more shifts later"}};
  RealOutput gear{*this, "gear"};
  Parameter v_12 = parameter("v_12", 5.0, {.unit = "m/s", .min = 0});
  Parameter v_23 = parameter("v_23", 8.5, {.unit = "m/s", .min = 0});
  Parameter v_34 = parameter("v_34", 12.5, {.unit = "m/s", .min = 0});
  Parameter v_45 = parameter("v_45", 17.0, {.unit = "m/s", .min = 0});
  Parameter hysteresis = parameter("hysteresis", 1.0, {.unit = "m/s", .min = 0});
  Parameter kickdown = parameter("kickdown", 0.6, {.min = 0, .description = "shift speeds grow by this share at full load"});
  Discrete engaged = discrete("engaged", {.start = 1.0, .kind = DiscreteKind::integer, .description = "the gear"});

  explicit ShiftMap(std::string name) : Component(std::move(name)) {
    require(v_23 <= 0.0 || (v_12 > 0.0 && v_23 > v_12), "v_23 must be 0 (unused) or exceed v_12 > 0");
    require(v_34 <= 0.0 || (v_23 > 0.0 && v_34 > v_23), "v_34 must be 0 (unused) or exceed v_23 > 0");
    require(v_45 <= 0.0 || (v_34 > 0.0 && v_45 > v_34), "v_45 must be 0 (unused) or exceed v_34 > 0");
    // The shift speeds out of gear k = pre(engaged): up at the k-th, down
    // below the (k-1)-th minus the hysteresis; unused ones are never reached.
    const Expr k = pre(engaged), never = 1e30, scale = 1.0 + kickdown * max(min(load, 1.0), 0.0);
    auto shift_speed = [&](const Expr& n) {
      Expr speed = never;
      for (auto [index, value] : {std::pair{4, Expr(v_45)}, {3, Expr(v_34)}, {2, Expr(v_23)}, {1, Expr(v_12)}})
        speed = ifelse(equal(n, index), ifelse(value > 0.0, value * scale, never), speed);
      return speed;
    };
    const Expr up = shift_speed(k), down = ifelse(k > 1.5, shift_speed(k - 1.0) - hysteresis, -never);
    // At the start, the gear for the speed: the up-shift speeds passed.
    Expr initial_gear = 1.0;
    for (const Expr& s : {Expr(v_12), Expr(v_23), Expr(v_34), Expr(v_45)})
      initial_gear = initial_gear + no_event(ifelse(s > 0.0 && v > s, 1.0, 0.0));
    // The action reads the condition's own mode: re-evaluated literally at
    // its root, where v equals the shift speed to the root's tolerance,
    // `v > up` could read false and shift down.
    when({initial(), v > up, v < down}, {engaged == ifelse(initial(), initial_gear, ifelse(v > up, k + 1.0, k - 1.0))});
    equation(gear == engaged);
  }
};

}  // namespace acausal::vehicle
