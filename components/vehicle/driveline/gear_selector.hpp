#pragma once

#include "connectors/signal.hpp"

namespace acausal::vehicle {

/// Automatic up-shift schedule: gear = 1 + number of shift speeds v_12, v_23,
/// v_34, v_45 that the vehicle speed v exceeds. The shift speeds increase, so
/// gear k is engaged between the (k-1)-th and the k-th; a shift speed of 0 is
/// unused, as are the ones after it. Each crossing is a state event, the gearbox's shift.
struct GearSelector : Component {
  RealInput v{*this, "v", {.unit = "m/s"}};
  RealOutput gear{*this, "gear"};
  Parameter v_12 = parameter("v_12", 12.0, {.unit = "m/s", .min = 0});
  Parameter v_23 = parameter("v_23", 20.0, {.unit = "m/s", .min = 0});
  Parameter v_34 = parameter("v_34", 28.0, {.unit = "m/s", .min = 0});
  Parameter v_45 = parameter("v_45", 0.0, {.unit = "m/s", .min = 0});

  explicit GearSelector(std::string name) : Component(std::move(name)) {
    require(v_23 <= 0.0 || (v_12 > 0.0 && v_23 > v_12), "v_23 must be 0 (unused) or exceed v_12 > 0");
    require(v_34 <= 0.0 || (v_23 > 0.0 && v_34 > v_23), "v_34 must be 0 (unused) or exceed v_23 > 0");
    require(v_45 <= 0.0 || (v_34 > 0.0 && v_45 > v_34), "v_45 must be 0 (unused) or exceed v_34 > 0");
    Expr up = 1.0;
    // An unused shift (0) compares against a speed never reached, so it raises no events.
    for (const Expr& shift : {Expr(v_12), Expr(v_23), Expr(v_34), Expr(v_45)})
      up = up + ifelse(v > ifelse(shift > 0.0, shift, 1e30), 1.0, 0.0);
    equation(gear == up);
  }
};

}  // namespace acausal::vehicle
