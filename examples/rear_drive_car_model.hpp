// The flagship model, shared by `make run` (examples/launch_and_brake.cpp) and
// the integration tests: a rear-drive car, engine → clutch → gearbox →
// differential → rear brakes → rear wheels, brakes on the front wheels too,
// all four wheels carrying a body with load transfer. The driver launches at
// full throttle (clutch engaging over clutch_time, up-shifts by speed), then
// at brake_time declutches, lifts and brakes with brake_level.
#pragma once

#include <acausal/acausal.hpp>

namespace acausal::examples {

struct LaunchScenario {
  double clutch_time = 1.0;   // s, clutch engagement ramp from 0 to 1
  double brake_time = 12.0;   // s, throttle off, clutch open, brakes on
  double brake_level = 1.0;   // brake_input while braking
};

inline void build_rear_drive_car(Model& m, const LaunchScenario& s = {}) {
  using namespace vehicle;
  const double radius = radius_from_tire_size("205/55R16");
  auto& body = m.add<VehicleBody>("body", {{"m", 1500}, {"L", 2.7}, {"a", 1.2}, {"b", 1.5}, {"h_cg", 0.55}});
  auto& engine = m.add<Engine>("engine");
  auto& clutch = m.add<Clutch>("clutch", {{"tau_max", 400}});
  auto& gearbox = m.add<Gearbox>("gearbox", {{"efficiency_1", 0.97}, {"efficiency_2", 0.97}, {"efficiency_3", 0.98},
                                             {"efficiency_4", 0.98}, {"efficiency_5", 0.98}});
  auto& selector = m.add<GearSelector>("selector");
  auto& differential = m.add<Differential>("differential", {{"ratio", 3.9}, {"efficiency", 0.98}});
  auto wheel = [&](const std::string& name) -> Wheel& {
    return m.add<Wheel>(name, {{"radius", radius}, {"J", 1.2}, {"mu", 0.9}, {"mu_patch", 0.1}});
  };
  auto& wheel_fl = wheel("wheel_fl");
  auto& wheel_fr = wheel("wheel_fr");
  auto& wheel_rl = wheel("wheel_rl");
  auto& wheel_rr = wheel("wheel_rr");
  auto& brake_fl = m.add<Brake>("brake_fl", {{"tau_max", 1600}});
  auto& brake_fr = m.add<Brake>("brake_fr", {{"tau_max", 1600}});
  auto& brake_rl = m.add<Brake>("brake_rl", {{"tau_max", 800}});
  auto& brake_rr = m.add<Brake>("brake_rr", {{"tau_max", 800}});

  // Driver: full throttle until brake_time, then lift; clutch engages, then opens to brake.
  auto& throttle = m.add<blocks::Step>("throttle", {{"height", -1.0}, {"offset", 1.0}, {"startTime", s.brake_time}});
  auto& engage = m.add<blocks::Ramp>("engage", {{"height", 1.0}, {"duration", s.clutch_time}});
  auto& release = m.add<blocks::Step>("release", {{"height", -1.0}, {"startTime", s.brake_time}});
  auto& engagement = m.add<blocks::Add>("engagement");
  auto& pedal = m.add<blocks::Step>("pedal", {{"height", s.brake_level}, {"startTime", s.brake_time}});

  m.connect(throttle.y, engine.throttle_input);
  m.connect(engage.y, engagement.u1);
  m.connect(release.y, engagement.u2);
  m.connect(engagement.y, clutch.engagement_input);
  m.connect(body.speed, selector.v);
  m.connect(selector.gear, gearbox.gear_input);
  for (Brake* b : {&brake_fl, &brake_fr, &brake_rl, &brake_rr}) m.connect(pedal.y, b->brake_input);

  m.connect(engine.flange, clutch.flange_a);
  m.connect(clutch.flange_b, gearbox.flange_in);
  m.connect(gearbox.flange_out, differential.flange_input);
  m.connect(differential.flange_left, brake_rl.flange_a);
  m.connect(differential.flange_right, brake_rr.flange_a);
  m.connect(brake_rl.flange_b, wheel_rl.flange_rot);
  m.connect(brake_rr.flange_b, wheel_rr.flange_rot);
  m.connect(brake_fl.flange_b, wheel_fl.flange_rot);
  m.connect(brake_fr.flange_b, wheel_fr.flange_rot);
  for (Wheel* w : {&wheel_fl, &wheel_fr}) m.connect(w->contact, body.contact_front);
  for (Wheel* w : {&wheel_rl, &wheel_rr}) m.connect(w->contact, body.contact_rear);

  m.set_start("engine.w", 100.0);  // idling, about 950 rpm
  m.set_start("body.s", 0.0);
  m.set_start("body.v", 0.0);
}

}  // namespace acausal::examples
