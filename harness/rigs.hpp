// Standard rigs: a component under test between sources and loads. Each
// function builds the rig into a model and returns its parts by reference, so
// checks can name their variables. The component itself is passed in, built
// by the caller, so the same rig tests a library component or your own.
#pragma once

#include <string>
#include <utility>

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

}  // namespace acausal::harness
