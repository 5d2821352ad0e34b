#pragma once

#include <array>
#include <string>

#include "components/rotational/speed_sensor.hpp"
#include "components/vehicle/control/abs_controller.hpp"
#include "components/vehicle/driveline/brake.hpp"
#include "components/vehicle/driveline/clutch.hpp"
#include "components/vehicle/driveline/differential.hpp"
#include "components/vehicle/engines/engine.hpp"
#include "components/vehicle/driveline/gear_selector.hpp"
#include "components/vehicle/driveline/gearbox.hpp"
#include "components/vehicle/tires/tire_size.hpp"
#include "components/vehicle/bodies/vehicle_body.hpp"
#include "components/vehicle/cars/car_driveline.hpp"
#include "components/vehicle/tires/wheel.hpp"
#include "connectors/signal.hpp"

namespace acausal::vehicle {

/// The four brakes of the library's cars, fl, fr, rl, rr (added in that
/// order): 1600 N.m at each front wheel, 800 N.m at each rear one.
inline std::array<Brake*, 4> add_car_brakes(Component& car) {
  return {&car.add<Brake>("brake_fl", {{"tau_max", 1600}}), &car.add<Brake>("brake_fr", {{"tau_max", 1600}}),
          &car.add<Brake>("brake_rl", {{"tau_max", 800}}), &car.add<Brake>("brake_rr", {{"tau_max", 800}})};
}

/// The four road wheels of the library's cars, fl, fr, rl, rr (added in that
/// order): 205/55R16, J 1.2 kg.m2, μ 0.9, μ 0.1 on a patch.
inline std::array<Wheel*, 4> add_car_wheels(Component& car) {
  const auto wheel = [&car](const std::string& name) {
    return &car.add<Wheel>(name,
                           {{"radius", radius_from_tire_size("205/55R16")}, {"J", 1.2}, {"mu", 0.9}, {"mu_patch", 0.1}});
  };
  return {wheel("wheel_fl"), wheel("wheel_fr"), wheel("wheel_rl"), wheel("wheel_rr")};
}

/// The corners of a longitudinal car: each brake's flange_b to its wheel, the
/// wheels to the body's axles (fl, fr front), and the brake demand (a pedal
/// or a controller's output, 0…1) to the four brakes, or with_abs through
/// an ABSController per wheel (abs_fl …, reading the wheel's speed through an
/// ideal sensor wheel_speed_fl … and the body's speed), added corner by
/// corner. Returns the ABS controllers, null without ABS.
inline std::array<ABSController*, 4> wire_car_corners(Component& car, VehicleBody& body,
                                                      const std::array<Brake*, 4>& brakes,
                                                      const std::array<Wheel*, 4>& wheels, Connector& demand,
                                                      bool with_abs) {
  static const std::array<std::string, 4> corners{"fl", "fr", "rl", "rr"};
  std::array<ABSController*, 4> controllers{};
  for (int k = 0; k < 4; ++k) {
    car.connect(brakes[k]->flange_b, wheels[k]->flange_rot);
    car.connect(wheels[k]->contact, k < 2 ? body.contact_front : body.contact_rear);
    if (!with_abs) {
      car.connect(demand, brakes[k]->brake_input);
      continue;
    }
    controllers[k] = &car.add<ABSController>("abs_" + corners[k], {{"radius", radius_from_tire_size("205/55R16")}});
    auto& sensor = car.add<rotational::SpeedSensor>("wheel_speed_" + corners[k]);
    car.connect(sensor.flange, wheels[k]->flange_rot);
    car.connect(sensor.w, controllers[k]->w_wheel);
    car.connect(body.speed, controllers[k]->v_vehicle);
    car.connect(demand, controllers[k]->brake_demand);
    car.connect(controllers[k]->brake, brakes[k]->brake_input);
  }
  return controllers;
}

/// The body's Crr and the wheels' are the same loss in two places (both
/// are >= 0): one of them must be zero, or the car rolls twice as hard.
inline void require_rolling_resistance_once(Component& car, VehicleBody& body, const std::array<Wheel*, 4>& wheels) {
  car.require(body.Crr * (wheels[0]->Crr + wheels[1]->Crr + wheels[2]->Crr + wheels[3]->Crr) <= 0.0,
              "rolling resistance is counted once: set body.Crr or the wheels' Crr, not both");
}

/// The partial base of the library's cars (EngineType: an Engine or a
/// MappedEngine; SelectorType: the gear's source on the body's speed, a
/// GearSelector or a ShiftMap): engine → clutch → five-speed
/// gearbox (shifted by a GearSelector on the body's speed) → differential →
/// the driven axle's brakes → its wheels, brakes on the other axle's wheels
/// too, four wheels carrying a VehicleBody with load transfer (1500 kg,
/// L = 2.7 m, h = 0.55 m, 205/55R16, μ 0.9). The driver acts through
/// `throttle`, `brake_pedal` (0…1, to all four brakes, or to their ABS) and
/// `clutch_pedal` (engagement, 0…1; named apart from the part `clutch`); `speed` is the body's. Clutch and brakes lock
/// (FrictionLaw::locking). The parts are children (`body`, `engine`, `clutch`,
/// `gearbox`, `selector`, `differential`, `brake_fl` … `brake_rr`, `wheel_fl`
/// … `wheel_rr`, with ABS `abs_fl` … `abs_rr`): change their parameters there
/// (`car.body.m`, `car.wheel_fl.tire_law`), before compile() for the
/// structural ones. Starts at rest with the engine idling at 100 rad/s.
template <class EngineType, class SelectorType>
struct PassengerCarOf : Component {
  RealInput throttle{*this, "throttle"}, brake_pedal{*this, "brake_pedal"}, clutch_pedal{*this, "clutch_pedal"};
  RealOutput speed{*this, "speed", {.unit = "m/s"}};

  VehicleBody& body;
  EngineType& engine = add<EngineType>("engine");
  Clutch& clutch = add<Clutch>("clutch", {{"tau_max", 400}});
  Gearbox& gearbox = add_car_gearbox(*this);
  SelectorType& selector = add<SelectorType>("selector");
  Differential& differential = add<Differential>("differential", {{"ratio", 3.9}, {"efficiency", 0.98}});
  std::array<Brake*, 4> brakes = add_car_brakes(*this);
  std::array<Wheel*, 4> wheels = add_car_wheels(*this);
  std::array<ABSController*, 4> abs{};  // fl, fr, rl, rr; null without ABS

 protected:
  /// a, b: the CG's distances to the front and rear axles.
  PassengerCarOf(std::string name, DrivenAxle driven, double a, double b, CarOptions options)
      : Component(std::move(name)),
        body(add<VehicleBody>("body", {{"m", 1500}, {"L", a + b}, {"a", a}, {"b", b}, {"h_cg", 0.55}})) {
    if (options.esc)
      throw ModelError("car '" + this->name() + "': a stability control (esc) needs yaw: use the planar car, vehicle.PlanarCar");
    const int left = driven == DrivenAxle::front ? 0 : 2;
    connect(throttle, engine.throttle_input);
    connect(clutch_pedal, clutch.engagement_input);
    connect(body.speed, speed);
    connect(body.speed, selector.v);
    connect(selector.gear, gearbox.gear_input);
    if constexpr (requires { selector.load; }) connect(throttle, selector.load);
    connect(engine.flange, clutch.flange_a);
    connect(clutch.flange_b, gearbox.flange_in);
    connect(gearbox.flange_out, differential.flange_input);
    wire_half_shafts(*this, differential, *brakes[left], *brakes[left + 1], options);
    abs = wire_car_corners(*this, body, brakes, wheels, brake_pedal, options.abs);
    require_rolling_resistance_once(*this, body, wheels);
    set_start("engine.w", 100.0);  // idling, about 950 rpm
    set_start("body.s", 0.0);
    set_start("body.v", 0.0);
    // Parts at rest by design (angles, speeds 0 as declared): no default_start warnings for them.
    intend_default_starts();
  }
};

/// The cars of the flagship experiment: a seed-003 Engine, an up-shift GearSelector.
using PassengerCar = PassengerCarOf<Engine, GearSelector>;

/// The flagship car: PassengerCar driving the rear wheels, the CG 1.2 m
/// behind the front axle (55 % of the static load on the front wheels).
struct RearDriveCar : PassengerCar {
  explicit RearDriveCar(std::string name, CarOptions options = {})
      : PassengerCar(std::move(name), DrivenAxle::rear, 1.2, 1.5, options) {}
};

/// PassengerCar driving the front wheels, with the engine's weight forward: the
/// CG 1.0 m behind the front axle (63 % of the static load on the front
/// wheels).
struct FrontDriveCar : PassengerCar {
  explicit FrontDriveCar(std::string name, CarOptions options = {})
      : PassengerCar(std::move(name), DrivenAxle::front, 1.0, 1.7, options) {}
};

}  // namespace acausal::vehicle
