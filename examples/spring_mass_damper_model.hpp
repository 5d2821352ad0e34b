// The damped oscillator shared by the example and the tests: a wall, a spring
// and a damper in parallel, a mass, and a constant force F pushing the mass.
// m·s'' + d·s' + c·s = F from rest.
#pragma once

#include <acausal/acausal.hpp>

namespace acausal::examples {

struct OscillatorParameters {
  double m = 1.0, c = 100.0, d = 4.0, F = 10.0;
};

inline void build_spring_mass_damper(Model& model, const OscillatorParameters& p = {}) {
  auto& wall = model.add<translational::Fixed>("wall");
  auto& spring = model.add<translational::Spring>("spring", {{"c", p.c}});
  auto& damper = model.add<translational::Damper>("damper", {{"d", p.d}});
  auto& mass = model.add<translational::Mass>("mass", {{"m", p.m}});
  auto& push = model.add<blocks::Constant>("push", {{"k", p.F}});
  auto& force = model.add<translational::Force>("force");
  model.connect(wall.flange, spring.flange_a);
  model.connect(wall.flange, damper.flange_a);
  model.connect(spring.flange_b, mass.flange_a);
  model.connect(damper.flange_b, mass.flange_a);
  model.connect(push.y, force.f);
  model.connect(force.flange, mass.flange_b);
  model.set_start("mass.s", 0.0);
  model.set_start("mass.v", 0.0);
}

}  // namespace acausal::examples
