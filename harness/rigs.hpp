// Standard rigs: a component under test between sources and loads. Each
// function builds the rig into a model and returns its parts by reference, so
// checks can name their variables. The component itself is passed in, built
// by the caller, so the same rig tests a library component or your own.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "components/blocks/continuous/lim_pid.hpp"
#include "components/blocks/math/add.hpp"
#include "components/blocks/sources/constant.hpp"
#include "components/blocks/sources/ramp.hpp"
#include "components/blocks/sources/step.hpp"
#include "components/rotational/constant_torque.hpp"
#include "components/rotational/damper.hpp"
#include "components/rotational/fixed.hpp"
#include "components/rotational/inertia.hpp"
#include "components/rotational/speed.hpp"
#include "components/translational/constant_force.hpp"
#include "components/vehicle/driveline/differential.hpp"
#include "components/translational/fixed.hpp"
#include "components/translational/mass.hpp"
#include "components/translational/speed.hpp"
#include "components/vehicle/bodies/vehicle_body.hpp"
#include "components/vehicle/bodies/wheel_contact_breakout.hpp"
#include "components/vehicle/terrain/axle_load.hpp"
#include "components/vehicle/terrain/height_map.hpp"
#include "components/vehicle/terrain/implement_draft.hpp"
#include "components/vehicle/terrain/soft_soil_wheel.hpp"
#include "components/vehicle/tractor/tractor.hpp"
#include "solver/runtime/result.hpp"
#include "solver/modeling/model.hpp"

namespace acausal::harness {

/// Wheel rig (seed 001): a constant torque on the axle, the traction axis
/// carrying a mass (the share of the body the wheel drives), a constant normal
/// load N pressing the wheel onto the road.
struct WheelRig {
  rotational::ConstantTorque& torque;
  translational::Mass& body;
  translational::ConstantForce& load;
};

inline WheelRig wheel_rig(Model& m, rotational::Flange& axle, vehicle::WheelContact& contact, double torque,
                          double N, double mass, double v0 = 0.0) {
  WheelRig rig{m.add<rotational::ConstantTorque>("torque", {{"tau_constant", torque}}),
               m.add<translational::Mass>("body", {{"m", mass}}),
               // The normal flange's flow is the load on the wheel: -N pushes it down.
               m.add<translational::ConstantForce>("load", {{"f_constant", -N}})};
  auto& breakout = m.add<vehicle::WheelContactBreakout>("breakout");
  m.connect(rig.torque.flange, axle);
  m.connect(contact, breakout.contact);
  m.connect(breakout.flange_traction, rig.body.flange_a);
  m.connect(breakout.flange_normal, rig.load.flange);
  m.set_start(rig.body.name() + ".s", 0.0);
  m.set_start(rig.body.name() + ".v", v0);
  return rig;
}

/// Body rig: each axle's normal axis rests on a fixture, a constant traction
/// force pushes each axle. The fixtures are returned so checks can read the
/// axle loads where the ground takes them (ground_*.flange.f).
struct BodyRig {
  translational::ConstantForce& force_front;
  translational::ConstantForce& force_rear;
  translational::Fixed& ground_front;
  translational::Fixed& ground_rear;
};

inline BodyRig body_rig(Model& m, vehicle::WheelContact& front, vehicle::WheelContact& rear, double f_front,
                        double f_rear) {
  BodyRig rig{m.add<translational::ConstantForce>("force_front", {{"f_constant", f_front}}),
              m.add<translational::ConstantForce>("force_rear", {{"f_constant", f_rear}}),
              m.add<translational::Fixed>("ground_front"), m.add<translational::Fixed>("ground_rear")};
  for (auto [axle, contact, force, ground] : {std::tuple{"front", &front, &rig.force_front, &rig.ground_front},
                                              std::tuple{"rear", &rear, &rig.force_rear, &rig.ground_rear}}) {
    auto& breakout = m.add<vehicle::WheelContactBreakout>(std::string("breakout_") + axle);
    m.connect(*contact, breakout.contact);
    m.connect(breakout.flange_normal, ground->flange);
    m.connect(breakout.flange_traction, force->flange);
  }
  return rig;
}

/// Rotational rig for a two-flange element: a constant torque on an input
/// inertia driving `input`; `output` into an inertia with a damper to ground.
struct RotationalRig {
  rotational::ConstantTorque& source;
  rotational::Inertia& input;
  rotational::Inertia& output;
  rotational::Damper& load;
};

inline RotationalRig rotational_rig(Model& m, rotational::Flange& input, rotational::Flange& output, double torque,
                                    double J_in, double J_out, double d_load) {
  RotationalRig rig{m.add<rotational::ConstantTorque>("source", {{"tau_constant", torque}}),
                    m.add<rotational::Inertia>("input", {{"J", J_in}}),
                    m.add<rotational::Inertia>("output", {{"J", J_out}}),
                    m.add<rotational::Damper>("load", {{"d", d_load}})};
  auto& ground = m.add<rotational::Fixed>("ground");
  m.connect(rig.source.flange, rig.input.flange_a);
  m.connect(rig.input.flange_b, input);
  m.connect(output, rig.output.flange_a);
  m.connect(rig.output.flange_b, rig.load.flange_a);
  m.connect(rig.load.flange_b, ground.flange);
  return rig;
}

/// Differential rig: a constant torque into a small input inertia, each
/// output an axle inertia with a damper to ground (d_left, d_right).
struct DifferentialRig {
  rotational::ConstantTorque& source;
  rotational::Inertia& input;
  rotational::Damper& load_left;
  rotational::Damper& load_right;
};

inline DifferentialRig differential_rig(Model& m, vehicle::Differential& diff, double torque, double d_left,
                                        double d_right, double J_input = 0.01, double J_axle = 0.1) {
  DifferentialRig rig{m.add<rotational::ConstantTorque>("source", {{"tau_constant", torque}}),
                      m.add<rotational::Inertia>("input", {{"J", J_input}}),
                      m.add<rotational::Damper>("load_left", {{"d", d_left}}),
                      m.add<rotational::Damper>("load_right", {{"d", d_right}})};
  auto& ground = m.add<rotational::Fixed>("ground");
  m.connect(rig.source.flange, rig.input.flange_a);
  m.connect(rig.input.flange_b, diff.flange_input);
  for (auto [side, output, load] : {std::tuple{"left", &diff.flange_left, &rig.load_left},
                                    std::tuple{"right", &diff.flange_right, &rig.load_right}}) {
    auto& axle = m.add<rotational::Inertia>(std::string("axle_") + side, {{"J", J_axle}});
    m.connect(*output, axle.flange_a);
    m.connect(axle.flange_b, load->flange_a);
    m.connect(load->flange_b, ground.flange);
  }
  return rig;
}

/// The open-loop launch-and-brake driver of the flagship experiment: full
/// throttle with the clutch engaging over clutch_time, then at brake_time
/// declutch, lift and brake with brake_level. Its three signals go to a car's
/// throttle, clutch engagement and brake pedal.
struct LaunchDriver {
  RealOutput& throttle;
  RealOutput& clutch;
  RealOutput& brake;
};

inline LaunchDriver launch_driver(Model& m, double clutch_time = 1.0, double brake_time = 12.0,
                                  double brake_level = 1.0) {
  auto& throttle = m.add<blocks::Step>("throttle", {{"height", -1.0}, {"offset", 1.0}, {"startTime", brake_time}});
  auto& engage = m.add<blocks::Ramp>("engage", {{"height", 1.0}, {"duration", clutch_time}});
  auto& release = m.add<blocks::Step>("release", {{"height", -1.0}, {"startTime", brake_time}});
  auto& engagement = m.add<blocks::Add>("engagement");
  auto& pedal = m.add<blocks::Step>("pedal", {{"height", brake_level}, {"startTime", brake_time}});
  m.connect(engage.y, engagement.u1);
  m.connect(release.y, engagement.u2);
  return {throttle.y, engagement.y, pedal.y};
}

/// The launch driver wired to a car of the PassengerCar family: its throttle,
/// clutch and brake pedal follow the driver's three signals.
template <class Car>
LaunchDriver drive_launch(Model& m, Car& car, double clutch_time = 1.0, double brake_time = 12.0,
                          double brake_level = 1.0) {
  LaunchDriver driver = launch_driver(m, clutch_time, brake_time, brake_level);
  m.connect(driver.throttle, car.throttle);
  m.connect(driver.clutch, car.clutch_pedal);
  m.connect(driver.brake, car.brake_pedal);
  return driver;
}

/// A soil contact (a wheel's, a track's) on a single-wheel bench: the
/// contact under the constant load W (vehicle::AxleLoad "axle"), the hull
/// ("hull") moved at v, the axle ("hub") turned at a speed ramping from
/// w_start to w_end over `duration` from t = 0 ("hub_speed"; constant when
/// the two are equal). The slip is then 1 - v/(ω·r).
inline void soil_contact_bench(Model& m, rotational::Flange& axle, vehicle::WheelContact& contact, double W,
                               double v, double w_start, double w_end, double duration) {
  auto& load = m.add<vehicle::AxleLoad>("axle", {{"W", W}});
  auto& hull = m.add<translational::Speed>("hull");
  auto& hull_speed = m.add<blocks::Constant>("hull_speed", {{"k", v}});
  auto& hub = m.add<rotational::Speed>("hub");
  auto& hub_speed = m.add<blocks::Ramp>("hub_speed", {{"offset", w_start}, {"height", w_end - w_start},
                                                      {"duration", duration}, {"startTime", 0.0}});
  m.connect(contact, load.contact);
  m.connect(load.flange_traction, hull.flange);
  m.connect(hull_speed.y, hull.v_ref);
  m.connect(hub.flange, axle);
  m.connect(hub_speed.y, hub.w_ref);
}

/// A soil wheel pulling a mass: the constant torque `tau` on its axle
/// ("torque"), the contact under the load W ("axle"), the traction axis
/// carrying the mass ("body"), which starts at v0 from s = 0 with the wheel
/// turning at w0 (w0·r > v0: a slip).
inline void soil_wheel_pulling_mass(Model& m, vehicle::SoftSoilWheel& wheel, double W, double tau, double mass,
                                    double v0, double w0) {
  auto& torque = m.add<rotational::ConstantTorque>("torque", {{"tau_constant", tau}});
  auto& load = m.add<vehicle::AxleLoad>("axle", {{"W", W}});
  auto& body = m.add<translational::Mass>("body", {{"m", mass}});
  m.connect(torque.flange, wheel.flange_rot);
  m.connect(wheel.contact, load.contact);
  m.connect(load.flange_traction, body.flange_a);
  m.set_start("body.s", 0.0);
  m.set_start("body.v", v0);
  m.set_start(wheel.path() + ".phi", 0.0);
  m.set_start(wheel.path() + ".omega", w0);
}

/// Field work: seed 003's Tractor ("tractor") on its sandy loam plowing (an
/// ASABE D497 chisel plow with 2 shovels 6 cm deep in a medium soil,
/// "plow": 1.55 kN at 2 m/s) at v_ref, held there by a PI governor on the
/// throttle ("governor"), in gear 5, the clutch engaged, over `profile`.
struct FieldWorkRig {
  vehicle::Tractor& tractor;
  vehicle::ImplementDraft& plow;
};

inline FieldWorkRig field_work_rig(Model& m, const vehicle::HeightProfile& profile, double v_ref = 2.0) {
  auto& tractor = m.add<vehicle::Tractor>("tractor");
  tractor.body.set_height_profile(profile);
  tractor.set_initial_speed(v_ref, 0.1);
  auto& plow = m.add<vehicle::ImplementDraft>(
      "plow", vehicle::d497_parameters("chisel_plow_shovel", vehicle::SoilTexture::medium,
                                       {{"width", 2}, {"depth", 0.06}}));
  auto& speed_ref = m.add<blocks::Constant>("speed_ref", {{"k", v_ref}});
  auto& governor = m.add<blocks::LimPID>(
      "governor", {{"controllerType", static_cast<double>(blocks::SimpleController::PI)}, {"k", 2.0}, {"Ti", 2.0},
                   {"yMax", 1.0}, {"yMin", 0.0}, {"initType", 3.0}, {"y_start", 0.2}});
  auto& brake = m.add<blocks::Constant>("brake", {{"k", 0.0}});
  auto& clutch = m.add<blocks::Constant>("clutch", {{"k", 1.0}});
  auto& gear = m.add<blocks::Constant>("gear", {{"k", 5.0}});
  m.connect(tractor.hitch, plow.flange);
  m.connect(speed_ref.y, governor.u_s);
  m.connect(tractor.speed, governor.u_m);
  m.connect(governor.y, tractor.throttle);
  m.connect(brake.y, tractor.brake_pedal);
  m.connect(clutch.y, tractor.clutch_pedal);
  m.connect(gear.y, tractor.gear);
  return {tractor, plow};
}

/// ∫ Σ powers dt [J] from the start until the variable `position` reaches
/// s_end (trapezoids over the rows, the last one cut at s_end); a
/// ModelError if it never does.
inline double work_until(const Result& r, const std::vector<std::string>& powers, const std::string& position,
                         double s_end) {
  const auto& t = r.time();
  const auto s = r[position];
  std::vector<double> power(r.size(), 0.0);
  for (const auto& name : powers) {
    const auto column = r[name];  // once: r[name] computes the whole column
    for (std::size_t k = 0; k < r.size(); ++k) power[k] += column[k];
  }
  double work = 0;
  for (std::size_t k = 1; k < r.size(); ++k) {
    const double step = 0.5 * (power[k] + power[k - 1]) * (t[k] - t[k - 1]);
    if (s[k] >= s_end) return work + step * (s_end - s[k - 1]) / (s[k] - s[k - 1]);
    work += step;
  }
  throw ModelError(position + " did not reach " + std::to_string(s_end) + " m");
}

}  // namespace acausal::harness
