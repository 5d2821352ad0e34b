// The DESIGN section 6 model, shared by the example, the timing benchmark and
// the tests: a torque step at 0.1 s drives an inertia that rolls a mass
// through an ideal wheel against quadratic drag; v(t) = 5·tanh(t - 0.1).
#pragma once

#include <acausal/acausal.hpp>

namespace acausal::examples {

inline void build_rolling_wheel(Model& m) {
  auto& torque = m.add<rotational::TorqueStep>("torqueStep",
                                               {{"stepTorque", 10.0}, {"offsetTorque", 0.0}, {"startTime", 0.1}});
  auto& inertia = m.add<rotational::Inertia>("inertia", {{"J", 1.0}});
  auto& wheel = m.add<rotational::IdealRollingWheel>("wheel", {{"radius", 1.0}});
  auto& mass = m.add<translational::Mass>("mass", {{"m", 1.0}});
  auto& drag = m.add<translational::QuadraticSpeedDependentForce>(
      "drag", {{"f_nominal", -10.0}, {"v_nominal", 5.0}, {"ForceDirection", 1.0}});
  m.connect(torque.flange, inertia.flange_a);
  m.connect(inertia.flange_b, wheel.flangeR);
  m.connect(wheel.flangeT, mass.flange_a);
  m.connect(mass.flange_b, drag.flange);
  m.set_start("inertia.phi", 0.0);
  m.set_start("inertia.w", 0.0);
}

}  // namespace acausal::examples
