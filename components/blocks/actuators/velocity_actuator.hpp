#pragma once

#include "components/blocks/actuators/partial_actuator.hpp"

namespace acausal::blocks {

/// Velocity-controlled drive actuator (seed 002's DriveActuator): dead time,
/// velocity saturation at ±max_velocity, first-order lag, acceleration limit
/// ±max_acceleration. u is the commanded velocity, y the achieved one.
struct VelocityActuator : PartialActuator {
  Parameter max_velocity = parameter("max_velocity", 10.0, {.unit = "m/s", .min = 0});
  Parameter max_acceleration = parameter("max_acceleration", 5.0, {.unit = "m/s2", .min = 0});

  explicit VelocityActuator(std::string name)
      : PartialActuator(std::move(name)) {
    chain(max_velocity, max_acceleration);
  }
};

}  // namespace acausal::blocks
