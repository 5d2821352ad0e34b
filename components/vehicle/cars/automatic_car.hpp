#pragma once

#include <numbers>
#include <string>

#include "components/vehicle/cars/passenger_car.hpp"
#include "components/vehicle/driveline/lockup_schedule.hpp"
#include "components/vehicle/driveline/shift_map.hpp"
#include "components/vehicle/driveline/torque_converter.hpp"
#include "components/vehicle/engines/mapped_engine.hpp"

namespace acausal::vehicle {

/// The MappedCar with an automatic transmission: engine → TorqueConverter
/// (`converter`, its lock-up clutch closed by a LockupSchedule, `lockup`,
/// from third gear up) → five-speed gearbox shifted by a ShiftMap on speed
/// and throttle (kick-down) → differential → the front wheels. There is no
/// clutch pedal: the converter slips at a standstill, so the car creeps
/// when the brake is released (the engine's idle governor keeps it at
/// 800 rpm) and stalls the converter, not the engine, against held brakes.
/// 1250 kg, CG 1.0 m behind the front axle, 205/55R16, brakes, wheels and
/// options as the other cars (`abs`, compliant half-shafts). The driver
/// acts through `throttle` and `brake_pedal` (0…1); `speed` is the body's.
/// Starts at rest, in first gear, the engine idling.
struct AutomaticCar : Component {
  RealInput throttle{*this, "throttle"}, brake_pedal{*this, "brake_pedal"};
  RealOutput speed{*this, "speed", {.unit = "m/s"}};

  VehicleBody& body = add<VehicleBody>("body", {{"m", 1250}, {"L", 2.7}, {"a", 1.0}, {"b", 1.7}, {"h_cg", 0.55}});
  MappedEngine& engine = add<MappedEngine>("engine");
  TorqueConverter& converter = add<TorqueConverter>("converter");
  Gearbox& gearbox = add_car_gearbox(*this);
  ShiftMap& selector = add<ShiftMap>("selector");
  LockupSchedule& lockup = add<LockupSchedule>("lockup");
  Differential& differential = add<Differential>("differential", {{"ratio", 3.9}, {"efficiency", 0.98}});
  std::array<Brake*, 4> brakes = add_car_brakes(*this);
  std::array<Wheel*, 4> wheels = add_car_wheels(*this);
  std::array<ABSController*, 4> abs{};  // fl, fr, rl, rr; null without ABS

  explicit AutomaticCar(std::string name, CarOptions options = {}) : Component(std::move(name)) {
    if (options.esc)
      throw ModelError("car '" + this->name() + "': a stability control (esc) needs yaw: use the planar car, vehicle.PlanarCar");
    connect(throttle, engine.throttle_input);
    connect(throttle, selector.load);
    connect(body.speed, speed);
    connect(body.speed, selector.v);
    connect(selector.gear, gearbox.gear_input);
    connect(selector.gear, lockup.gear);
    connect(lockup.lockup, converter.lockup_input);
    connect(engine.flange, converter.flange_a);
    connect(converter.flange_b, gearbox.flange_in);
    connect(gearbox.flange_out, differential.flange_input);
    wire_half_shafts(*this, differential, *brakes[0], *brakes[1], options);
    abs = wire_car_corners(*this, body, brakes, wheels, brake_pedal, options.abs);
    require_rolling_resistance_once(*this, body, wheels);
    set_start("engine.w", 800.0 * std::numbers::pi / 30.0);  // at the idle governor's speed
    set_start("body.s", 0.0);
    set_start("body.v", 0.0);
    intend_default_starts();
  }
};

}  // namespace acausal::vehicle
