#pragma once

#include "components/vehicle/control/anti_windup.hpp"
#include "connectors/signal.hpp"

namespace acausal::vehicle {

/// Driver: PI speed tracking, u = k·(e + xi/Ti) with e = v_ref - v, split into
/// throttle = max(u_sat, 0) and brake = max(-u_sat, 0), u_sat = clamp(u, ±1).
/// Anti-windup by back-calculation: der(xi) = e + (u_sat - u)·Ti/(k·Tt).
/// Put blocks::FirstOrder or an actuator block after the outputs for pedal lag.
struct DriverController : Component {
  RealInput v_ref{*this, "v_ref", {.unit = "m/s"}};
  RealInput v{*this, "v", {.unit = "m/s"}};
  RealOutput throttle{*this, "throttle"};
  RealOutput brake{*this, "brake"};
  Parameter k = parameter("k", 0.5, {.unit = "s/m", .min = 0});
  Parameter Ti = parameter("Ti", 2.0, {.unit = "s", .min = 1e-9});
  Parameter Tt = parameter("Tt", 1.0, {.unit = "s", .min = 1e-9});
  Variable e = variable("e", {.unit = "m/s"});
  Variable xi = variable("xi", {.unit = "m"});
  Variable u = variable("u");
  Variable u_sat = variable("u_sat");

  explicit DriverController(std::string name) : Component(std::move(name)) {
    equation(e == v_ref - v);
    equation(u == k * (e + xi / Ti));
    equation(u_sat == max(min(u, 1.0), -1.0));
    equation(der(xi) == anti_windup_rate(e, u, u_sat, k, Ti, Tt));
    equation(throttle == max(u_sat, 0.0));
    equation(brake == max(-u_sat, 0.0));
    initial_equation(xi == 0.0);
  }
};

}  // namespace acausal::vehicle
