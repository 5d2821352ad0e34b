#pragma once

#include "components/blocks/actuators/partial_actuator.hpp"

namespace acausal::blocks {

/// Position-controlled steering actuator (seed 002's SteeringActuator): dead
/// time, angle saturation at ±max_position (0: unlimited), first-order lag,
/// angular velocity limit ±max_velocity. u is the commanded angle, y the achieved one.
struct SteeringActuator : PartialActuator {
  Parameter max_position = parameter("max_position", 0.6, {.unit = "rad", .min = 0});
  Parameter max_velocity = parameter("max_velocity", 1.0, {.unit = "rad/s", .min = 0});

  explicit SteeringActuator(std::string name)
      : PartialActuator(std::move(name)) {
    chain(ifelse(max_position > 0, max_position, 1e300), max_velocity);
  }
};

}  // namespace acausal::blocks
