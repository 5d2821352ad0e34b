// The flagship car built flat, part by part, for the integration tests (the
// library's vehicle::RearDriveCar is the same car as one block, checked equal
// to it in test_vehicle.cpp; the examples use that): a rear-drive car, engine → clutch → gearbox → differential → rear brakes →
// rear wheels, brakes on the front wheels too, all four wheels carrying a body
// with load transfer; the gear follows a shift schedule on the body's speed.
// Two drivers: an open-loop launch-and-brake (the flagship experiment) and a
// closed-loop DriverController following a speed table (the drive cycle).
#pragma once

#include <acausal/acausal.hpp>
#include <acausal/harness/rigs.hpp>

#include <array>
#include <utility>
#include <vector>

namespace acausal::test {

/// The driver's inputs of the car, to be connected by a driver.
struct FlatCar {
  vehicle::Engine& engine;
  vehicle::Clutch& clutch;
  vehicle::VehicleBody& body;
  std::array<vehicle::Brake*, 4> brakes;  // fl, fr, rl, rr
  std::array<vehicle::Wheel*, 4> wheels;  // fl, fr, rl, rr
};

/// `friction`: the law of the clutch and the brakes (FrictionLaw; locking holds
/// a stopped car and an engaged clutch exactly).
inline FlatCar build_rear_drive_car_plant(Model& m, int friction = vehicle::FrictionLaw::locking) {
  using namespace vehicle;
  const double radius = radius_from_tire_size("205/55R16");
  auto& body = m.add<VehicleBody>("body", {{"m", 1500}, {"L", 2.7}, {"a", 1.2}, {"b", 1.5}, {"h_cg", 0.55}});
  auto& engine = m.add<Engine>("engine");
  auto& clutch = m.add<Clutch>("clutch", {{"tau_max", 400}, {"friction", double(friction)}});
  auto& gearbox = m.add<Gearbox>("gearbox", {{"efficiency_1", 0.97}, {"efficiency_2", 0.97}, {"efficiency_3", 0.98},
                                             {"efficiency_4", 0.98}, {"efficiency_5", 0.98}});
  auto& selector = m.add<GearSelector>("selector");
  auto& differential = m.add<Differential>("differential", {{"ratio", 3.9}, {"efficiency", 0.98}});
  auto wheel = [&](const std::string& name) -> Wheel& {
    return m.add<Wheel>(name, {{"radius", radius}, {"J", 1.2}, {"mu", 0.9}, {"mu_patch", 0.1}});
  };
  auto brake = [&](const std::string& name, double tau_max) -> Brake& {
    return m.add<Brake>(name, {{"tau_max", tau_max}, {"friction", double(friction)}});
  };
  FlatCar car{engine,
                   clutch,
                   body,
                   {&brake("brake_fl", 1600), &brake("brake_fr", 1600), &brake("brake_rl", 800), &brake("brake_rr", 800)},
                   {&wheel("wheel_fl"), &wheel("wheel_fr"), &wheel("wheel_rl"), &wheel("wheel_rr")}};

  m.connect(body.speed, selector.v);
  m.connect(selector.gear, gearbox.gear_input);
  m.connect(engine.flange, clutch.flange_a);
  m.connect(clutch.flange_b, gearbox.flange_in);
  m.connect(gearbox.flange_out, differential.flange_input);
  m.connect(differential.flange_left, car.brakes[2]->flange_a);
  m.connect(differential.flange_right, car.brakes[3]->flange_a);
  for (int k = 0; k < 4; ++k) {
    m.connect(car.brakes[k]->flange_b, car.wheels[k]->flange_rot);
    m.connect(car.wheels[k]->contact, k < 2 ? body.contact_front : body.contact_rear);
  }
  m.set_start("engine.w", 100.0);  // idling, about 950 rpm
  m.set_start("body.s", 0.0);
  m.set_start("body.v", 0.0);
  return car;
}

struct LaunchScenario {
  double clutch_time = 1.0;   // s, clutch engagement ramp from 0 to 1
  double brake_time = 12.0;   // s, throttle off, clutch open, brakes on
  double brake_level = 1.0;   // brake_input while braking
  int friction = vehicle::FrictionLaw::locking;  // of the clutch and the brakes
};

/// Open-loop driver: full throttle with the clutch engaging over clutch_time,
/// then at brake_time declutch, lift and brake with brake_level.
inline FlatCar build_rear_drive_car(Model& m, const LaunchScenario& s = {}) {
  FlatCar car = build_rear_drive_car_plant(m, s.friction);
  harness::LaunchDriver driver = harness::launch_driver(m, s.clutch_time, s.brake_time, s.brake_level);
  m.connect(driver.throttle, car.engine.throttle_input);
  m.connect(driver.clutch, car.clutch.engagement_input);
  for (vehicle::Brake* b : car.brakes) m.connect(driver.brake, b->brake_input);
  return car;
}

/// Closed-loop driver: a DriverController follows the (time [s], speed [m/s])
/// table with throttle and brake, never below an idle throttle of 0.1 (this
/// engine has no idle governor: closed, it stalls); the clutch engages over one
/// second from `launch` (when the table starts to move: engaged at standstill,
/// it would stall the engine) and stays closed (the engine stalls with the car
/// when it stops at the end).
inline FlatCar build_rear_drive_car_on_cycle(Model& m, const std::vector<std::pair<double, double>>& cycle,
                                            double launch = 0.0) {
  FlatCar car = build_rear_drive_car_plant(m);
  auto& reference = m.add<blocks::TimeTable>("cycle");
  reference.set_table(cycle);
  auto& driver = m.add<vehicle::DriverController>("driver");
  auto& engage = m.add<blocks::Ramp>("engage", {{"height", 1.0}, {"duration", 1.0}, {"startTime", launch}});
  m.connect(reference.y, driver.v_ref);
  m.connect(car.body.speed, driver.v);
  auto& idle = m.add<blocks::Limiter>("idle", {{"uMax", 1.0}, {"uMin", 0.1}});
  m.connect(driver.throttle, idle.u);
  m.connect(idle.y, car.engine.throttle_input);
  m.connect(engage.y, car.clutch.engagement_input);
  for (vehicle::Brake* b : car.brakes) m.connect(driver.brake, b->brake_input);
  return car;
}

}  // namespace acausal::test
