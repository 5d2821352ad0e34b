#pragma once

#include "connectors/signal.hpp"

namespace acausal::blocks {

/// The actuator chain of seed 002, shared by VelocityActuator and
/// SteeringActuator: the command u is delayed by dead_time, saturated, then
/// followed by y through a first-order lag (time_constant) whose rate is
/// limited: der(y) = clamp((u_saturated - y)/time_constant, -rate_limit, rate_limit).
/// The lag and the rate limit act on one state, as in the seed's discrete
/// actuator (filter, then limit the change of the filtered value).
struct PartialActuator : Component {
  RealInput u{*this, "u"};
  RealOutput y{*this, "y"};
  Parameter dead_time = parameter("dead_time", 0.1, {.unit = "s", .min = 0});
  Parameter time_constant = parameter("time_constant", 0.2, {.unit = "s", .min = 1e-15});
  Parameter y_start = parameter("y_start", 0.0);
  Variable u_delayed = variable("u_delayed");
  Variable u_saturated = variable("u_saturated");

 protected:
  using Component::Component;
  // Called by the derived constructor, once its limit parameters exist.
  void chain(const Expr& saturation, const Expr& rate_limit) {
    equation(u_delayed == delay(u, dead_time));
    equation(u_saturated == max(min(u_delayed, saturation), -saturation));
    equation(der(y) == max(min((u_saturated - y) / time_constant, rate_limit), -rate_limit));
    initial_equation(y == y_start);
  }
};

}  // namespace acausal::blocks
