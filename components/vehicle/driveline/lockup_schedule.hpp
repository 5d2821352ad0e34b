#pragma once

#include <string>

#include "connectors/signal.hpp"

namespace acausal::vehicle {

/// When a torque converter's lock-up clutch closes: fully (lockup = 1) in
/// gear_min and the gears above it, open (0) below, where the converter's
/// slip and torque multiplication are wanted (launch, kick-down). The gear
/// is a ShiftMap's or GearSelector's, which changes only at events, so the
/// clutch opens and closes with the shifts and adds no events of its own.
struct LockupSchedule : Component {
  RealInput gear{*this, "gear"};
  RealOutput lockup{*this, "lockup", {.unit = "1"}};
  Parameter gear_min = parameter("gear_min", 3.0, {.min = 1, .description = "the lowest gear the clutch closes in"});

  explicit LockupSchedule(std::string name) : Component(std::move(name)) {
    equation(lockup == ifelse(gear > gear_min - 0.5, 1.0, 0.0));
  }
};

}  // namespace acausal::vehicle
