#pragma once

#include <array>
#include <cmath>
#include <tuple>
#include <string>

#include "components/rotational/speed_sensor.hpp"
#include "components/rotational/spring_damper.hpp"
#include "components/vehicle/control/abs_controller.hpp"
#include "components/vehicle/driveline/brake.hpp"
#include "components/vehicle/driveline/clutch.hpp"
#include "components/vehicle/driveline/differential.hpp"
#include "components/vehicle/driveline/gearbox.hpp"
#include "components/vehicle/tires/tire_size.hpp"
#include "connectors/rotational.hpp"
#include "connectors/signal.hpp"

namespace acausal::vehicle {

enum class DrivenAxle { front, rear };

/// Equipment chosen when a car is built (it decides which parts exist).
struct CarOptions {
  /// An ABSController between the brake demand and each brake, reading the
  /// wheel's speed (an ideal sensor) and the body's speed over ground.
  bool abs = false;
  /// A StabilityControl (ESC) between the pedal and the brakes (planar cars):
  /// it brakes single wheels against over- and understeer.
  bool esc = false;
  /// Compliant half-shafts: with a stiffness > 0 [N.m/rad, per shaft] each
  /// driven half-shaft between the differential and its wheel's brake is a
  /// rotational::SpringDamper (half_shaft_left, half_shaft_right, c =
  /// stiffness, d = damping [N.m.s/rad]), so the driveline's shuffle mode
  /// exists. 0, the default: rigid shafts, the car as without the option.
  /// Typical: 5000–10000 N.m/rad and 5–20 N.m.s/rad per shaft.
  double half_shaft_stiffness = 0.0;
  double half_shaft_damping = 0.0;
};

/// The driven axle's half-shafts: the differential's side flanges to the
/// driven brakes' flange_a, rigidly, or (options.half_shaft_stiffness > 0)
/// through a SpringDamper each, half_shaft_left and half_shaft_right.
inline void wire_half_shafts(Component& car, Differential& differential, Brake& left, Brake& right,
                             const CarOptions& options) {
  const double c = options.half_shaft_stiffness, d = options.half_shaft_damping;
  if (!std::isfinite(c) || !std::isfinite(d) || c < 0.0 || d < 0.0)
    throw ModelError("car '" + car.name() + "': half_shaft_stiffness and half_shaft_damping must be finite and >= 0");
  if (c == 0.0) {
    if (d != 0.0)
      throw ModelError("car '" + car.name() + "': half_shaft_damping needs a half_shaft_stiffness > 0 (0: rigid shafts)");
    car.connect(differential.flange_left, left.flange_a);
    car.connect(differential.flange_right, right.flange_a);
    return;
  }
  for (auto [side, flange, brake] : {std::tuple{"left", &differential.flange_left, &left},
                                     std::tuple{"right", &differential.flange_right, &right}}) {
    auto& shaft = car.add<rotational::SpringDamper>(std::string("half_shaft_") + side, {{"c", c}, {"d", d}});
    car.connect(*flange, shaft.flange_a);
    car.connect(shaft.flange_b, brake->flange_a);
  }
}

/// The five-speed gearbox of the library's cars (3.6/2.1/1.4/1.0/0.8, the
/// Gearbox's defaults), 97 % efficient in the two lowest gears, 98 % above.
inline Gearbox& add_car_gearbox(Component& car) {
  return car.add<Gearbox>("gearbox", {{"efficiency_1", 0.97},
                                      {"efficiency_2", 0.97},
                                      {"efficiency_3", 0.98},
                                      {"efficiency_4", 0.98},
                                      {"efficiency_5", 0.98}});
}

/// The partial base of the planar car (the longitudinal PassengerCarOf wires the same parts itself, in an order its
/// drive-cycle results depend on), everything but the body and the
/// wheels (EngineType: an Engine or a MappedEngine; SelectorType: the gear's
/// source on the car's speed, a GearSelector or a ShiftMap): engine → clutch
/// → five-speed gearbox → differential → the driven axle's brakes, a brake
/// per wheel, ABS optional. The driver acts through `throttle`, `brake_pedal`
/// (0…1) and `clutch_pedal` (engagement, 0…1); `speed` is the body's. Clutch
/// and brakes lock (FrictionLaw::locking). The extension adds body and wheels
/// and calls wire_driveline with them. Brakes: 1600 N·m front, 800 N·m rear.
template <class EngineType, class SelectorType>
struct CarDrivelineOf : Component {
  RealInput throttle{*this, "throttle"}, brake_pedal{*this, "brake_pedal"}, clutch_pedal{*this, "clutch_pedal"};
  RealOutput speed{*this, "speed", {.unit = "m/s"}};

  EngineType& engine = add<EngineType>("engine");
  Clutch& clutch = add<Clutch>("clutch", {{"tau_max", 400}});
  Gearbox& gearbox = add_car_gearbox(*this);
  SelectorType& selector = add<SelectorType>("selector");
  Differential& differential = add<Differential>("differential", {{"ratio", 3.9}, {"efficiency", 0.98}});
  std::array<Brake*, 4> brakes{
      &add<Brake>("brake_fl", {{"tau_max", 1600}}), &add<Brake>("brake_fr", {{"tau_max", 1600}}),
      &add<Brake>("brake_rl", {{"tau_max", 800}}), &add<Brake>("brake_rr", {{"tau_max", 800}})};
  std::array<ABSController*, 4> abs{};  // fl, fr, rl, rr; null without ABS

  static inline const std::array<std::string, 4> corners{"fl", "fr", "rl", "rr"};

 protected:
  explicit CarDrivelineOf(std::string name) : Component(std::move(name)) {}

  /// Joins the driveline to the wheels' flanges (fl, fr, rl, rr), the body's
  /// speed (the selector's, the ABS's and the `speed` output) and per wheel
  /// the brake demand: the pedal, or a stability control's per-wheel demand.
  void wire_driveline(DrivenAxle driven, const std::array<rotational::Flange*, 4>& wheel_flanges,
                      RealOutput& body_speed, const std::array<Connector*, 4>& demands, CarOptions options) {
    const int left = driven == DrivenAxle::front ? 0 : 2;
    connect(throttle, engine.throttle_input);
    connect(clutch_pedal, clutch.engagement_input);
    connect(body_speed, speed);
    connect(body_speed, selector.v);
    connect(selector.gear, gearbox.gear_input);
    if constexpr (requires { selector.load; }) connect(throttle, selector.load);
    connect(engine.flange, clutch.flange_a);
    connect(clutch.flange_b, gearbox.flange_in);
    connect(gearbox.flange_out, differential.flange_input);
    wire_half_shafts(*this, differential, *brakes[left], *brakes[left + 1], options);
    for (int k = 0; k < 4; ++k) {
      connect(brakes[k]->flange_b, *wheel_flanges[k]);
      if (!options.abs) {
        connect(*demands[k], brakes[k]->brake_input);
        continue;
      }
      abs[k] = &add<ABSController>("abs_" + corners[k], {{"radius", radius_from_tire_size("205/55R16")}});
      auto& sensor = add<rotational::SpeedSensor>("wheel_speed_" + corners[k]);
      connect(sensor.flange, *wheel_flanges[k]);
      connect(sensor.w, abs[k]->w_wheel);
      connect(body_speed, abs[k]->v_vehicle);
      connect(*demands[k], abs[k]->brake_demand);
      connect(abs[k]->brake, brakes[k]->brake_input);
    }
    set_start("engine.w", 100.0);  // idling, about 950 rpm
    // Parts at rest by design (angles, speeds 0 as declared): no default_start warnings for them.
    intend_default_starts();
  }
};

}  // namespace acausal::vehicle
