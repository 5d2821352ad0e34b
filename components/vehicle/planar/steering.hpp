#pragma once

#include "connectors/signal.hpp"

namespace acausal::vehicle {

/// Steering from the steering-wheel angle to the two front road-wheel angles:
/// a rack of overall ratio `ratio` (steering-wheel angle over the mean road-wheel
/// angle delta), and the linkage's geometry between parallel steer
/// (ackermann = 0, both wheels at delta) and full Ackermann (ackermann = 1,
/// both wheels' axes meeting on the rear axle's line: the inner wheel turns
/// more, cot(delta_outer) − cot(delta_inner) = track/L), in between in
/// proportion. With delta the angle of the bicycle wheel at the axle's centre:
///   delta_left  = atan2(L·sin(delta), L·cos(delta) − track/2·sin(delta))
///   delta_right = atan2(L·sin(delta), L·cos(delta) + track/2·sin(delta))
/// at full Ackermann (continuous for any angle below 90°). Positive angles
/// turn left (ISO 8855).
struct Steering : Component {
  RealInput steering_wheel{*this, "steering_wheel", {.unit = "rad"}};
  RealOutput delta_left{*this, "delta_left", {.unit = "rad"}}, delta_right{*this, "delta_right", {.unit = "rad"}};
  RealOutput delta{*this, "delta", {.unit = "rad", .description = "mean road-wheel angle"}};
  Parameter ratio = parameter("ratio", 16.0, {.min = 0, .description = "steering-wheel angle per road-wheel angle"});
  Parameter ackermann = parameter("ackermann", 1.0, {.min = 0, .max = 1, .description = "0 parallel, 1 full Ackermann"});
  Parameter L = parameter("L", 2.7, {.unit = "m", .min = 0, .description = "wheelbase"});
  Parameter track = parameter("track", 1.55, {.unit = "m", .min = 0, .description = "front track width"});

  explicit Steering(std::string name) : Component(std::move(name)) {
    require(ratio > 0, "the steering ratio must be positive");
    require(L > 0, "the wheelbase L must be positive");
    equation(delta == steering_wheel / ratio);
    const Expr along = L * cos(delta), across = 0.5 * track * sin(delta), lever = L * sin(delta);
    equation(delta_left == delta + ackermann * (atan2(lever, along - across) - delta));
    equation(delta_right == delta + ackermann * (atan2(lever, along + across) - delta));
  }
};

}  // namespace acausal::vehicle
