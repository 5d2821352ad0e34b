#pragma once

#include <array>
#include <string>

#include "components/planar/prescribed_revolute.hpp"
#include "components/vehicle/bodies/planar_vehicle_body.hpp"
#include "components/vehicle/cars/car_driveline.hpp"
#include "components/vehicle/control/stability_control.hpp"
#include "components/vehicle/driveline/gear_selector.hpp"
#include "components/vehicle/engines/engine.hpp"
#include "components/vehicle/planar/steering.hpp"
#include "components/vehicle/tires/planar_wheel.hpp"

namespace acausal::vehicle {

/// The library's car in the road plane, for handling: the flagship's
/// driveline (CarDrivelineOf: seed-003 engine, clutch, five-speed gearbox with
/// an up-shift GearSelector, differential driving the rear wheels, brakes,
/// ABS optional) on four PlanarWheels (205/55R16, μ 0.9, combined slip)
/// carrying a PlanarVehicleBody (1500 kg, Iz 2500 kg·m², CG 1.2 m behind
/// the front axle, h 0.55 m, tracks 1.55 m, 55 % of the roll stiffness in
/// front) whose quasi-static load transfer sets each wheel's load. The front
/// wheels turn on planar::PrescribedRevolute mounts by the Steering's angles
/// (ratio 16, full Ackermann) from the input `steering`, the steering-wheel
/// angle [rad, positive left]. With CarOptions{.esc = true} a
/// StabilityControl sits between the pedal and the brakes (or their ABS):
/// it brakes single wheels when the yaw rate leaves the single-track
/// model's reference. Outputs at the CG: x, y, psi, r, beta, v_x, v_y, a_y
/// and speed (v_x). Parts as children: `body`, `steering_gear`, `wheel_fl`
/// … `wheel_rr`, `mount_fl`, `mount_fr`, the driveline's, `esc`. Starts at
/// rest, engine idling; set_initial_speed() starts it rolling straight ahead
/// (clutch open: give clutch_pedal = 0 to coast, as FMVSS 126 does).
struct PlanarCar : CarDrivelineOf<Engine, GearSelector> {
  RealInput steering{*this, "steering", {.unit = "rad"}};
  RealOutput x{*this, "x", {.unit = "m"}}, y{*this, "y", {.unit = "m"}}, psi{*this, "psi", {.unit = "rad"}},
      r{*this, "r", {.unit = "rad/s"}}, beta{*this, "beta", {.unit = "rad"}}, v_x{*this, "v_x", {.unit = "m/s"}},
      v_y{*this, "v_y", {.unit = "m/s"}}, a_y{*this, "a_y", {.unit = "m/s2"}};

  PlanarVehicleBody& body = add<PlanarVehicleBody>("body");
  Steering& steering_gear = add<Steering>("steering_gear", {{"L", 2.7}, {"track", 1.55}});
  std::array<PlanarWheel*, 4> wheels{&wheel("wheel_fl"), &wheel("wheel_fr"), &wheel("wheel_rl"), &wheel("wheel_rr")};
  planar::PrescribedRevolute& mount_fl = add<planar::PrescribedRevolute>("mount_fl");
  planar::PrescribedRevolute& mount_fr = add<planar::PrescribedRevolute>("mount_fr");
  StabilityControl* esc = nullptr;  // with CarOptions{.esc = true}

  explicit PlanarCar(std::string name, CarOptions options = {}) : CarDrivelineOf(std::move(name)) {
    connect(steering, steering_gear.steering_wheel);
    connect(steering_gear.delta_left, mount_fl.phi);
    connect(steering_gear.delta_right, mount_fr.phi);
    connect(body.frame_fl, mount_fl.frame_a);
    connect(mount_fl.frame_b, wheels[0]->frame);
    connect(body.frame_fr, mount_fr.frame_a);
    connect(mount_fr.frame_b, wheels[1]->frame);
    connect(body.frame_rl, wheels[2]->frame);
    connect(body.frame_rr, wheels[3]->frame);
    const std::array<RealOutput*, 4> loads{&body.N_fl, &body.N_fr, &body.N_rl, &body.N_rr};
    for (int k = 0; k < 4; ++k) connect(*loads[k], wheels[k]->N);
    for (auto [from, to] : {std::pair{&body.x, &x}, {&body.y, &y}, {&body.psi, &psi}, {&body.r, &r},
                            {&body.beta, &beta}, {&body.v_x, &v_x}, {&body.v_y, &v_y}, {&body.a_y, &a_y}})
      connect(*from, *to);
    std::array<Connector*, 4> demands{&brake_pedal, &brake_pedal, &brake_pedal, &brake_pedal};
    if (options.esc) {
      esc = &add<StabilityControl>("esc", {{"L", 2.7}, {"K_us", understeer_gradient()}, {"mu", 0.9}});
      connect(steering_gear.delta, esc->delta);
      connect(body.v_x, esc->v);
      connect(body.r, esc->r);
      connect(brake_pedal, esc->brake);
      demands = {&esc->brake_fl, &esc->brake_fr, &esc->brake_rl, &esc->brake_rr};
    }
    wire_driveline(DrivenAxle::rear,
                   {&wheels[0]->flange_rot, &wheels[1]->flange_rot, &wheels[2]->flange_rot, &wheels[3]->flange_rot},
                   body.v_x, demands, options);
  }

  /// Starts the car rolling straight ahead at v0 [m/s]: the body's speed and
  /// the wheels' spin (free rolling) fixed, the gearbox's input shaft in mesh
  /// with the gear the selector picks at v0 and the engine turning with it
  /// (an engaged clutch carries on; an open one lets it run down). Call
  /// before compiling.
  void set_initial_speed(double v0) {
    set_start("body.v_x", v0);
    // Parts at rest by design (angles, speeds 0 as declared): no default_start warnings for them.
    intend_default_starts();
    for (const std::string& corner : corners) set_start("wheel_" + corner + ".omega", v0 / tire_radius());
    set_start("gearbox.w_in", 0.0, false);
    set_start("engine.w", 100.0, false);
    initial_equation(gearbox.w_in == gearbox.ratio * gearbox.w_out);
    initial_equation(engine.w == gearbox.w_in);
  }

 private:
  // Cornering stiffness per N of load: the front tires' is lower (a
  // passenger car's tires and compliance make it understeer).
  static constexpr double cornering_front = 11.0, cornering_rear = 16.0;
  static double tire_radius() { return radius_from_tire_size("205/55R16"); }
  PlanarWheel& wheel(const std::string& name) {
    const bool front = name[6] == 'f';
    return add<PlanarWheel>(name, {{"radius", tire_radius()},
                                   {"J", 1.2},
                                   {"mu", 0.9},
                                   {"cornering_stiffness", front ? cornering_front : cornering_rear}});
  }
  // K_us = (m/L)·(b/C_f − a/C_r) of the default car, the axle stiffnesses
  // C = 2·cornering·(static wheel load): the ESC's reference.
  static double understeer_gradient() {
    const double m = 1500, g = 9.81, a = 1.2, b = 1.5, L = a + b;
    const double C_f = 2 * cornering_front * m * g * b / L / 2, C_r = 2 * cornering_rear * m * g * a / L / 2;
    return m / L * (b / C_f - a / C_r);
  }
};

}  // namespace acausal::vehicle
