// Wheel (seed 001): kinematics, force-torque relation, traction limit, spin,
// steady states and energy, each with the specification's tolerance.
#include "harness/checklists.hpp"
#include "harness/rigs.hpp"

namespace acausal::harness {

Checklist wheel_checklist(const Builder<vehicle::Wheel>& make) {
  Checklist list("wheel", "Wheel (seed 001)");
  const double r = 0.3, N = 5000.0, m = 500.0;

  for (double torque : {60.0, -60.0}) {
    const bool forward = torque > 0;
    Rig& rig = list.rig(forward ? "rolling_forward" : "rolling_backward",
                        format_number(torque) + " N·m on the axle of a 0.3 m wheel (J 0.05 kg·m²), N = 5 kN, "
                        "carrying 500 kg; below the traction limit",
                        run_options(10.0, 0.01));
    auto& wheel = make(rig.model(), "wheel", {{"radius", r}, {"mu", 0.8}, {"J", 0.05}});
    WheelRig parts = wheel_rig(rig.model(), wheel.flange_rot, wheel.contact, torque, N, m);
    rig.expect_connectors(wheel, {{"flange_rot", "rotational.Flange"}, {"contact", "vehicle.WheelContact"}});
    const Expr moving = abs(wheel.v) > 1.0;
    rig.check(relation(wheel.v, wheel.omega * wheel.radius, 1e-3).when(moving).titled("v = ω·r within 0.1 %"));
    // The next two compare quantities of different components (the torque
    // source, the carried mass, the wheel's spin) through the specification's
    // r and J, not the wheel's own parameters or equations: a wheel that rolls
    // on another radius than it declares, or pushes with a force it does not
    // report, fails them.
    const double J = 0.05;
    rig.check(relation(parts.body.m * parts.body.a, (torque - J * der(wheel.omega)) / r, 1e-3)
                  .when(moving)
                  .titled("the force on the carried mass is (τ − J·dω/dt)/r from the driveline side within 0.1 %"));
    rig.check(relation(r * parts.body.m * parts.body.v + J * wheel.omega, torque * time_symbol(), 1e-3,
                       std::abs(torque) * 0.1)
                  .titled("impulse balance: ∫τ dt = r·m·Δv + J·Δω over the run within 0.1 %"));
    rig.check(relation(wheel.P_trans, wheel.P_rot - wheel.J * wheel.omega * der(wheel.omega), 1e-2)
                  .when(moving)
                  .titled("power conservation P_rot = P_trans within 1 %"));
    // Rolling without slip, the wheel's inertia adds J/r² to the mass it drives.
    const double a = torque / r / (m + 0.05 / (r * r));
    rig.check(value_at(parts.body.v, 10.0, 10.0 * a, 1e-2)
                  .titled("speed after 10 s matches τ/r/(m + J/r²)·t within 1 %"));
    rig.check(sign(parts.body.v, forward ? 1 : -1, 1e-9).titled("the wheel drives the mass the way the torque turns"));
    rig.check(bound(abs(wheel.F_traction), 0.0, wheel.F_max, 1e-9).titled("|F| <= μ·N"));
    rig.energy_balance(1e-4);
  }

  {
    Rig& rig = list.rig("spin", "2500 N·m on the axle (J 0.5 kg·m²), N = 5 kN, μ = 0.8: τ/r exceeds μ·N",
                        run_options(2.0, 0.002));
    auto& wheel = make(rig.model(), "wheel", {{"radius", r}, {"mu", 0.8}, {"J", 0.5}});
    WheelRig parts = wheel_rig(rig.model(), wheel.flange_rot, wheel.contact, 2500.0, N, m);
    rig.check(bound(abs(wheel.F_traction), 0.0, wheel.F_max, 1e-9).titled("|F| <= μ·N while spinning"));
    rig.check(steady_state(parts.body.a, wheel.mu * N / parts.body.m, 1e-2, 0.5)
                  .titled("acceleration limited to μ·N/m, not τ/(r·m), within 1 %"));
    rig.check(monotonic(wheel.v_slip, 1, 0.2, 2.0, 1e-9).titled("the slip speed keeps growing: the wheel spins up"));
    rig.check(sign(wheel.P_slip, 1, 1e-6).titled("the spinning tire dissipates (P_slip >= 0)"));
    rig.energy_balance(1e-4);
  }

  {
    Rig& rig = list.rig("coasting", "no torque, rolling at 5 m/s, no rolling resistance", run_options(5.0, 0.01));
    auto& wheel = make(rig.model(), "wheel", {{"radius", r}, {"mu", 0.8}, {"J", 0.05}});
    WheelRig parts = wheel_rig(rig.model(), wheel.flange_rot, wheel.contact, 0.0, N, m, 5.0);
    rig.model().set_start("wheel.omega", 5.0 / r);
    rig.check(over_interval(parts.body.v, 0.0, 5.0, 5.0, 1e-6).titled("zero torque: constant velocity, no drift"));
    rig.check(steady_state(wheel.omega, parts.body.v / wheel.radius, 1e-6, 1.0).titled("final ω matches v/r"));
    rig.energy_balance(1e-4);
  }
  return list;
}

}  // namespace acausal::harness
