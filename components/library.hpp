// Every library component, once: the Python bindings and the generated
// component reference (docs/components.md) iterate over this list.
#pragma once

#include "acausal.hpp"

// X(namespace, ComponentName)
#define ACAUSAL_LIBRARY(X) \
  X(rotational, AngleSensor) \
  X(rotational, ConstantTorque) \
  X(rotational, Damper) \
  X(rotational, Fixed) \
  X(rotational, IdealGear) \
  X(rotational, IdealGearWithSupport) \
  X(rotational, IdealRollingWheel) \
  X(rotational, Inertia) \
  X(rotational, LinearSpeedDependentTorque) \
  X(rotational, PowerSensor) \
  X(rotational, QuadraticSpeedDependentTorque) \
  X(rotational, RelSpeedSensor) \
  X(rotational, Speed) \
  X(rotational, SpeedSensor) \
  X(rotational, Spring) \
  X(rotational, SpringDamper) \
  X(rotational, Torque) \
  X(rotational, TorqueSensor) \
  X(rotational, TorqueStep) \
  X(translational, AccSensor) \
  X(translational, ConstantForce) \
  X(translational, Damper) \
  X(translational, Fixed) \
  X(translational, Force) \
  X(translational, ForceSensor) \
  X(translational, ForceStep) \
  X(translational, Mass) \
  X(translational, Position) \
  X(translational, PositionSensor) \
  X(translational, PowerSensor) \
  X(translational, QuadraticSpeedDependentForce) \
  X(translational, Speed) \
  X(translational, SpeedSensor) \
  X(translational, Spring) \
  X(translational, SpringDamper) \
  X(blocks, Add) \
  X(blocks, Constant) \
  X(blocks, DeadTime) \
  X(blocks, DeadZone) \
  X(blocks, Feedback) \
  X(blocks, FirstOrder) \
  X(blocks, FixedDelay) \
  X(blocks, Gain) \
  X(blocks, Integrator) \
  X(blocks, KinematicPTP) \
  X(blocks, LimPID) \
  X(blocks, Limiter) \
  X(blocks, PI) \
  X(blocks, PID) \
  X(blocks, Product) \
  X(blocks, Ramp) \
  X(blocks, SecondOrder) \
  X(blocks, Sine) \
  X(blocks, SlewRateLimiter) \
  X(blocks, SteeringActuator) \
  X(blocks, Step) \
  X(blocks, TimeTable) \
  X(blocks, VelocityActuator) \
  X(vehicle, Brake) \
  X(vehicle, Clutch) \
  X(vehicle, Differential) \
  X(vehicle, DriverController) \
  X(vehicle, Engine) \
  X(vehicle, GearSelector) \
  X(vehicle, Gearbox) \
  X(vehicle, VehicleBody) \
  X(vehicle, Wheel) \
  X(vehicle, WheelContactBreakout) \
  X(vehicle, WheelContactForceSource)
