// The scaling model shared by the benchmark and the tests: a wall, then N
// cells of (spring ∥ damper) → mass, a constant force on the last mass.
#pragma once

#include <acausal/acausal.hpp>

#include <string>

namespace acausal::bench {

struct ChainParameters {
  double m = 1.0, c = 1000.0, d = 10.0, F = 100.0;
};

inline void build_chain(Model& model, int cells, const ChainParameters& p = {}) {
  auto& wall = model.add<translational::Fixed>("wall");
  Connector* previous = &wall.flange;
  for (int i = 1; i <= cells; ++i) {
    std::string k = std::to_string(i);
    auto& spring = model.add<translational::Spring>("spring" + k, {{"c", p.c}});
    auto& damper = model.add<translational::Damper>("damper" + k, {{"d", p.d}});
    auto& mass = model.add<translational::Mass>("mass" + k, {{"m", p.m}});
    model.connect(*previous, spring.flange_a);
    model.connect(*previous, damper.flange_a);
    model.connect(spring.flange_b, mass.flange_a);
    model.connect(damper.flange_b, mass.flange_a);
    model.set_start("mass" + k + ".s", 0.0);
    model.set_start("mass" + k + ".v", 0.0);
    previous = &mass.flange_b;
  }
  auto& push = model.add<blocks::Constant>("push", {{"k", p.F}});
  auto& force = model.add<translational::Force>("force");
  model.connect(push.y, force.f);
  model.connect(force.flange, *previous);
}

}  // namespace acausal::bench
