// The car of the CAR benchmark: a constant torque through an open
// differential into two driven rear wheels, two free front wheels, and a body
// with quasi-static load transfer, launched from rest. Library defaults
// everywhere else, so that bench/baseline_car.cpp can restate the same
// equations by hand.
#pragma once

#include <acausal/acausal.hpp>

#include <string>

namespace acausal::bench {

struct CarParameters {
  // 300 N·m · ratio 3.5 gives each rear wheel 525 N·m, 1750 N at r = 0.3 m:
  // about 60 % of μ·N on the loaded rear axle, so the tires slip a little
  // (S_a ≈ 0.5 %) and the tanh law works in its curved part without spinning.
  double torque = 300.0;
};

inline constexpr const char* kCarWheels[4] = {"wheel_fl", "wheel_fr", "wheel_rl", "wheel_rr"};

inline void build_launch_car(Model& m, int tire_law = 0, const CarParameters& p = {}) {
  using namespace vehicle;
  auto& source = m.add<rotational::ConstantTorque>("engine_torque", {{"tau_constant", p.torque}});
  auto& differential = m.add<Differential>("differential");
  auto& body = m.add<VehicleBody>("body");
  auto wheel = [&](const char* name) -> Wheel& {
    return m.add<Wheel>(name, {{"tire_law", static_cast<double>(tire_law)}});
  };
  Wheel& fl = wheel(kCarWheels[0]);
  Wheel& fr = wheel(kCarWheels[1]);
  Wheel& rl = wheel(kCarWheels[2]);
  Wheel& rr = wheel(kCarWheels[3]);
  m.connect(source.flange, differential.flange_input);
  m.connect(differential.flange_left, rl.flange_rot);
  m.connect(differential.flange_right, rr.flange_rot);
  m.connect(fl.contact, body.contact_front);
  m.connect(fr.contact, body.contact_front);
  m.connect(rl.contact, body.contact_rear);
  m.connect(rr.contact, body.contact_rear);
  m.set_start("body.s", 0.0);
  m.set_start("body.v", 0.0);
  for (const char* w : kCarWheels) m.set_start(std::string(w) + ".omega", 0.0);
}

}  // namespace acausal::bench
