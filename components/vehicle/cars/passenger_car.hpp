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

/// The partial base of the library's cars (EngineType: an Engine or a
/// MappedEngine; SelectorType: the gear's source on the body's speed, a
/// GearSelector or a ShiftMap): engine → clutch → five-speed
/// gearbox (shifted by a GearSelector on the body's speed) → differential →
/// the driven axle's brakes → its wheels, brakes on the other axle's wheels
/// too, four wheels carrying a VehicleBody with load transfer (1500 kg,
/// L = 2.7 m, h = 0.55 m, 205/55R16, μ 0.9). The driver acts through
/// `throttle`, `brake` (pedal, 0…1, to all four brakes, or to their ABS) and
/// `clutch` (engagement, 0…1); `speed` is the body's. Clutch and brakes lock
/// (FrictionLaw::locking). The parts are children (`body`, `engine`, `clutch`,
/// `gearbox`, `selector`, `differential`, `brake_fl` … `brake_rr`, `wheel_fl`
/// … `wheel_rr`, with ABS `abs_fl` … `abs_rr`): change their parameters there
/// (`car.body.m`, `car.wheel_fl.tire_law`), before compile() for the
/// structural ones. Starts at rest with the engine idling at 100 rad/s.
template <class EngineType, class SelectorType>
struct PassengerCarOf : Component {
  RealInput throttle{*this, "throttle"}, brake{*this, "brake"}, clutch_engagement{*this, "clutch"};
  RealOutput speed{*this, "speed", {.unit = "m/s"}};

  VehicleBody& body;
  EngineType& engine = add<EngineType>("engine");
  Clutch& clutch = add<Clutch>("clutch", {{"tau_max", 400}});
  Gearbox& gearbox = add<Gearbox>("gearbox", {{"efficiency_1", 0.97},
                                              {"efficiency_2", 0.97},
                                              {"efficiency_3", 0.98},
                                              {"efficiency_4", 0.98},
                                              {"efficiency_5", 0.98}});
  SelectorType& selector = add<SelectorType>("selector");
  Differential& differential = add<Differential>("differential", {{"ratio", 3.9}, {"efficiency", 0.98}});
  std::array<Brake*, 4> brakes{
      &add<Brake>("brake_fl", {{"tau_max", 1600}}), &add<Brake>("brake_fr", {{"tau_max", 1600}}),
      &add<Brake>("brake_rl", {{"tau_max", 800}}), &add<Brake>("brake_rr", {{"tau_max", 800}})};
  std::array<Wheel*, 4> wheels{&wheel("wheel_fl"), &wheel("wheel_fr"), &wheel("wheel_rl"), &wheel("wheel_rr")};
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
    connect(clutch_engagement, clutch.engagement_input);
    connect(body.speed, speed);
    connect(body.speed, selector.v);
    connect(selector.gear, gearbox.gear_input);
    if constexpr (requires { selector.load; }) connect(throttle, selector.load);
    connect(engine.flange, clutch.flange_a);
    connect(clutch.flange_b, gearbox.flange_in);
    connect(gearbox.flange_out, differential.flange_input);
    connect(differential.flange_left, brakes[left]->flange_a);
    connect(differential.flange_right, brakes[left + 1]->flange_a);
    static const std::array<std::string, 4> corners{"fl", "fr", "rl", "rr"};
    for (int k = 0; k < 4; ++k) {
      connect(brakes[k]->flange_b, wheels[k]->flange_rot);
      connect(wheels[k]->contact, k < 2 ? body.contact_front : body.contact_rear);
      if (!options.abs) {
        connect(brake, brakes[k]->brake_input);
        continue;
      }
      abs[k] = &add<ABSController>("abs_" + corners[k], {{"radius", radius_from_tire_size("205/55R16")}});
      auto& sensor = add<rotational::SpeedSensor>("wheel_speed_" + corners[k]);
      connect(sensor.flange, wheels[k]->flange_rot);
      connect(sensor.w, abs[k]->w_wheel);
      connect(body.speed, abs[k]->v_vehicle);
      connect(brake, abs[k]->brake_demand);
      connect(abs[k]->brake, brakes[k]->brake_input);
    }
    set_start("engine.w", 100.0);  // idling, about 950 rpm
    set_start("body.s", 0.0);
    set_start("body.v", 0.0);
  }

 private:
  Wheel& wheel(const std::string& name) {
    return add<Wheel>(name,
                      {{"radius", radius_from_tire_size("205/55R16")}, {"J", 1.2}, {"mu", 0.9}, {"mu_patch", 0.1}});
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
