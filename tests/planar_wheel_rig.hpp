// A PlanarWheel on a planar body, the rig the planar tire tests share.
#pragma once

#include <acausal/acausal.hpp>

#include <utility>

namespace acausal::test {

/// A PlanarWheel (radius 0.3 m, `wheel_parameters` on top of its defaults)
/// under the load `load` on a body of mass `mass` (yaw inertia 1e9) that
/// starts at (v, vy0): the contact's slip angle is atan(vy0/v). A speed
/// source spins the wheel at w.k = v/r (rolling free; set w.k to (1 + κ)·v/r
/// for a longitudinal slip κ).
struct PlanarWheelRig : Model {
  vehicle::PlanarWheel& wheel;
  PlanarWheelRig(const ParameterValues& wheel_parameters, double mass, double v, double vy0, double load)
      : Model("planar_wheel_rig"), wheel(add<vehicle::PlanarWheel>("wheel", wheel_parameters)) {
    auto& body = add<planar::Body>("body", {{"m", mass}, {"I", 1e9}});
    auto& spin = add<rotational::Speed>("spin");
    auto& w = add<blocks::Constant>("w", {{"k", v / 0.3}});
    auto& N = add<blocks::Constant>("load", {{"k", load}});
    connect(body.frame_a, wheel.frame);
    connect(w.y, spin.w_ref);
    connect(spin.flange, wheel.flange_rot);
    connect(N.y, wheel.N);
    for (auto [name, value] : {std::pair{"body.x", 0.0}, {"body.y", 0.0}, {"body.phi", 0.0}, {"body.vx", v},
                               {"body.vy", vy0}, {"body.w", 0.0}})
      set_start(name, value);
  }
};

}  // namespace acausal::test
