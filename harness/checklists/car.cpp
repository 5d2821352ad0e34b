// The integrated rear-drive car (the flagship experiment): full-throttle
// launch with load transfer, then hard braking; energy books of the whole car.
#include "harness/checklists.hpp"
#include "harness/rigs.hpp"

namespace acausal::harness {

Checklist car_checklist() {
  Checklist list("car", "Rear-drive car: launch and braking (flagship)");
  SimulationOptions options = run_options(20.0, 0.01);
  options.rtol = 1e-7;
  options.atol = 1e-9;
  Rig& rig = list.rig("launch_and_brake",
                      "1500 kg, 205/55R16, μ 0.9: full throttle with the clutch engaging over 1 s, up-shifts on "
                      "speed, at 12 s declutch and full brakes",
                      options);
  Model& m = rig.model();
  auto& car = m.add<vehicle::RearDriveCar>("car");
  drive_launch(m, car);
  auto& body = car.body;
  const Expr t = time_symbol();
  // Load transfer as the rear wheels see it (their tire loads N), against a
  // moment balance from the car's specified numbers (1500 kg, a 1.2 m, L 2.7 m,
  // h_cg 0.55 m, body Crr 0.015): the ground's horizontal force on the car, the
  // wheels' traction less rolling resistance, acts h_cg below the CG. Rolling
  // resistance is at full strength (tanh(v/v_eps) = 1) once the car moves.
  const double mass = 1500, g = 9.81, L = 2.7, h_cg = 0.55;
  const Expr rear_load = car.wheels[2]->N + car.wheels[3]->N;
  const Expr static_rear = Expr(mass * g * 1.2 / L);
  Expr traction = car.wheels[0]->F_traction;
  for (int k = 1; k < 4; ++k) traction = traction + car.wheels[k]->F_traction;
  rig.check(relation(rear_load - static_rear, (traction - 0.015 * mass * g) * h_cg / L, 1e-6, 1.0)
                .when(body.v > 1.0)
                .titled("load transfer: the rear wheels' N - static = (Σ traction − rolling)·h_cg/L")
                .plotting({car.wheels[0]->N + car.wheels[1]->N, rear_load}));
  rig.check(sign(rear_load - static_rear, 1, 1e-9)
                .when(t > 1.5 && t < 3.0)
                .titled("launching loads the rear axle above its static share"));
  for (int k = 2; k < 4; ++k) {
    vehicle::Wheel& w = *car.wheels[k];
    rig.check(bound(abs(w.F_traction), 0.0, w.F_max, 1e-9).titled(w.name() + ": traction within μ·N"));
    rig.check(bound(w.s_a, 0.0, 1.0, 1e-9).when(t < 12.0).titled(w.name() + ": driving slip ratio within [0, 1]"));
    rig.check(bound(w.s_b, -1.0, 0.0, 1e-9).when(t > 12.05).titled(w.name() + ": braking slip ratio within [-1, 0]"));
  }
  rig.check(bound(body.v, 100 / 3.6, INFINITY, 0.0)
                .when(t >= 11.9 && t <= 12.0)
                .titled("0-100 km/h within 12 s"));
  rig.check(over_interval(body.v, 19.0, 20.0, 0.0, 0.01, 1.0).titled("the brakes stop the car"));
  for (vehicle::Brake* b : car.brakes)
    rig.check(sign(b->P_dissipated, 1, 1e-6).titled(b->name() + " only dissipates"));
  rig.energy_balance(1e-4);

  // The tread's damper acts inside the friction limit: the total force, not
  // only the tread spring's, stays within the law's peak through the launch
  // and its up-shifts (a damper outside the limit reached 3.6·μN here).
  Rig& relaxed = list.rig("launch_relaxation",
                          "the same launch and braking with tread relaxation on all four tires (sigma 0.3 m, "
                          "d_tread 1e4 N·s/m)",
                          options);
  Model& mr = relaxed.model();
  auto& relaxed_car = mr.add<vehicle::RearDriveCar>("car");
  for (vehicle::Wheel* w : relaxed_car.wheels) w->set_parameter("relaxation", 1.0);
  drive_launch(mr, relaxed_car);
  for (vehicle::Wheel* w : relaxed_car.wheels)
    relaxed.check(bound(abs(w->F_traction), 0.0, w->F_peak, 1e-9)
                      .titled(w->name() + ": total tire force, tread damping included, within μ·N"));
  // The books close with the tread's energy (E_tread) in each wheel. They
  // could not be kept here while they read der(contact.s_normal): that
  // differentiated the load transfer and the relaxing law with it, and the
  // car did not initialize (WheelContact now leaves that pair unbooked).
  relaxed.energy_balance(1e-4);
  return list;
}

}  // namespace acausal::harness
