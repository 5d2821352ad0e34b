#pragma once

#include <array>
#include <string>

#include "components/vehicle/brake.hpp"
#include "components/vehicle/clutch.hpp"
#include "components/vehicle/differential.hpp"
#include "components/vehicle/engine.hpp"
#include "components/vehicle/gear_selector.hpp"
#include "components/vehicle/gearbox.hpp"
#include "components/vehicle/tire_size.hpp"
#include "components/vehicle/vehicle_body.hpp"
#include "components/vehicle/wheel.hpp"
#include "connectors/signal.hpp"

namespace acausal::vehicle {

/// A rear-drive car as one block: engine → clutch → five-speed gearbox
/// (shifted by a GearSelector on the body's speed) → differential → rear
/// brakes → rear wheels, brakes on the front wheels too, four wheels carrying a
/// VehicleBody with load transfer (1500 kg, L = 2.7 m, 205/55R16, μ 0.9). The
/// driver acts through `throttle`, `brake` (pedal, 0…1, to all four brakes)
/// and `clutch` (engagement, 0…1); `speed` is the body's. Clutch and brakes
/// lock (FrictionLaw::locking). The parts are children (`body`, `engine`,
/// `clutch`, `gearbox`, `selector`, `differential`, `brake_fl` … `wheel_rr`):
/// change their parameters there (`car.body.m`), before compile() for the
/// structural ones. Starts at rest with the engine idling at 100 rad/s.
struct RearDriveCar : Component {
  RealInput throttle{*this, "throttle"}, brake{*this, "brake"}, clutch_engagement{*this, "clutch"};
  RealOutput speed{*this, "speed", {.unit = "m/s"}};

  VehicleBody& body = add<VehicleBody>("body", {{"m", 1500}, {"L", 2.7}, {"a", 1.2}, {"b", 1.5}, {"h_cg", 0.55}});
  Engine& engine = add<Engine>("engine");
  Clutch& clutch = add<Clutch>("clutch", {{"tau_max", 400}});
  Gearbox& gearbox = add<Gearbox>("gearbox", {{"efficiency_1", 0.97},
                                              {"efficiency_2", 0.97},
                                              {"efficiency_3", 0.98},
                                              {"efficiency_4", 0.98},
                                              {"efficiency_5", 0.98}});
  GearSelector& selector = add<GearSelector>("selector");
  Differential& differential = add<Differential>("differential", {{"ratio", 3.9}, {"efficiency", 0.98}});
  std::array<Brake*, 4> brakes{&add<Brake>("brake_fl", {{"tau_max", 1600}}), &add<Brake>("brake_fr", {{"tau_max", 1600}}),
                               &add<Brake>("brake_rl", {{"tau_max", 800}}), &add<Brake>("brake_rr", {{"tau_max", 800}})};
  std::array<Wheel*, 4> wheels{&wheel("wheel_fl"), &wheel("wheel_fr"), &wheel("wheel_rl"), &wheel("wheel_rr")};

  explicit RearDriveCar(std::string name) : Component(std::move(name)) {
    connect(throttle, engine.throttle_input);
    connect(clutch_engagement, clutch.engagement_input);
    connect(body.speed, speed);
    connect(body.speed, selector.v);
    connect(selector.gear, gearbox.gear_input);
    connect(engine.flange, clutch.flange_a);
    connect(clutch.flange_b, gearbox.flange_in);
    connect(gearbox.flange_out, differential.flange_input);
    connect(differential.flange_left, brakes[2]->flange_a);
    connect(differential.flange_right, brakes[3]->flange_a);
    for (int k = 0; k < 4; ++k) {
      connect(brake, brakes[k]->brake_input);
      connect(brakes[k]->flange_b, wheels[k]->flange_rot);
      connect(wheels[k]->contact, k < 2 ? body.contact_front : body.contact_rear);
    }
    set_start("engine.w", 100.0);  // idling, about 950 rpm
    set_start("body.s", 0.0);
    set_start("body.v", 0.0);
  }

 private:
  Wheel& wheel(const std::string& name) {
    return add<Wheel>(name, {{"radius", radius_from_tire_size("205/55R16")}, {"J", 1.2}, {"mu", 0.9}, {"mu_patch", 0.1}});
  }
};

}  // namespace acausal::vehicle
