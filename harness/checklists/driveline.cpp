// Driveline components: Differential, Brake, Clutch, Engine, Gearbox, each on
// a rotational rig, against hand calculations and their energy books.
#include "components/blocks/math/add.hpp"
#include "components/blocks/sources/constant.hpp"
#include "components/blocks/sources/step.hpp"
#include "harness/checklists.hpp"
#include "harness/rigs.hpp"

namespace acausal::harness {

Checklist differential_checklist(const Builder<vehicle::Differential>& make) {
  Checklist list("differential", "Differential (seed 003)");
  for (auto [name, d_left, d_right, efficiency] :
       {std::tuple{"symmetric", 0.5, 0.5, 1.0}, std::tuple{"unequal_loads", 0.5, 0.3, 1.0},
        std::tuple{"lossy", 0.5, 0.5, 0.9}}) {
    Rig& rig = list.rig(name,
                        "200 N·m into a 0.01 kg·m² input, each side 0.1 kg·m² with a damper of " +
                            format_number(d_left) + " / " + format_number(d_right) + " N·m·s/rad, efficiency " +
                            format_number(efficiency),
                        run_options(30.0, 0.05));
    auto& diff = make(rig.model(), "diff", {{"ratio", 3.5}, {"efficiency", efficiency}});
    differential_rig(rig.model(), diff, 200.0, d_left, d_right);
    rig.expect_connectors(diff, {{"flange_input", "rotational.Flange"}, {"flange_left", "rotational.Flange"},
                                 {"flange_right", "rotational.Flange"}});
    // Speeds come from IDA's y and y': exact to the solver's tolerance, not to rounding.
    // Against the specified ratio and the rig's loads, not the differential's own
    // parameter and torque variables (tau_left = tau_right is its equation).
    rig.check(relation(diff.w_input, 3.5 * (diff.w_left + diff.w_right) / 2, 1e-4)
                  .when(diff.w_input > 1.0)
                  .titled("input speed = ratio × mean of the output speeds"));
    const double J_axle = 0.1;  // differential_rig's default
    rig.check(relation(J_axle * der(diff.w_left) + d_left * diff.w_left,
                       J_axle * der(diff.w_right) + d_right * diff.w_right, 1e-4, 1.0)
                  .titled("an open differential splits torque equally (as the axles and dampers take it)"));
    rig.check(power_balance({diff.flange_input.tau * diff.w_input, diff.flange_left.tau * diff.w_left,
                             diff.flange_right.tau * diff.w_right, -diff.P_loss},
                            1e-6)
                  .titled("power in = power out + P_loss"));
    // Steady state: each damper takes half of ratio·η·τ.
    const double tau_side = 3.5 * efficiency * 200.0 / 2;
    rig.check(steady_state(diff.w_left, Expr(tau_side / d_left), 1e-3, 2.0).titled("left steady speed τ_side/d_left"));
    rig.check(steady_state(diff.w_right, Expr(tau_side / d_right), 1e-3, 2.0)
                  .titled("right steady speed τ_side/d_right"));
    rig.check(sign(diff.P_loss, 1, 0.5).titled("the gears never create power (P_loss >= 0, 0.5 W of ~1e5 W)"));
    rig.energy_balance(1e-4);
  }
  return list;
}

Checklist brake_checklist(const Builder<vehicle::Brake>& make) {
  Checklist list("brake", "Brake");
  Rig& rig = list.rig("stop_disc", "a 2 kg·m² disc spinning at 50 rad/s, full pedal (1000 N·m) from t = 0.5 s",
                      run_options(1.0, 1e-3));
  Model& m = rig.model();
  auto& disc = m.add<rotational::Inertia>("disc", {{"J", 2.0}});
  auto& brake = make(m, "brake", {{"tau_max", 1000.0}});
  auto& pedal = m.add<blocks::Step>("pedal", {{"height", 1.0}, {"startTime", 0.5}});
  m.connect(disc.flange_b, brake.flange_a);
  m.connect(pedal.y, brake.brake_input);
  m.set_start("disc.w", 50.0);
  m.set_start("disc.phi", 0.0);
  rig.expect_connectors(brake, {{"flange_a", "rotational.Flange"}, {"flange_b", "rotational.Flange"}});
  rig.check(over_interval(disc.w, 0.0, 0.49, 50.0, 1e-9).titled("released, the disc spins freely"));
  rig.check(over_interval(disc.a, 0.51, 0.54, -brake.tau_max / disc.J, 1e-2)
                .titled("full pedal decelerates at τ_max/J within 1 %"));
  rig.check(over_interval(disc.w, 0.7, 1.0, 0.0, 1e-3, 50.0).titled("the disc stops and stays stopped"));
  rig.check(sign(brake.P_dissipated, 1, 1e-6).titled("the brake only dissipates (P >= 0)"));
  rig.energy_balance(1e-4);
  return list;
}

Checklist clutch_checklist(const Builder<vehicle::Clutch>& make) {
  Checklist list("clutch", "Clutch");
  Rig& rig = list.rig("engage", "0.5 kg·m² at 100 rad/s meets 1.5 kg·m² at rest; full engagement (200 N·m) at 0.5 s",
                      run_options(3.0, 0.005));
  Model& m = rig.model();
  auto& clutch = make(m, "clutch", {{"tau_max", 200.0}});
  auto& a = m.add<rotational::Inertia>("a", {{"J", 0.5}});
  auto& b = m.add<rotational::Inertia>("b", {{"J", 1.5}});
  auto& engage = m.add<blocks::Step>("engage", {{"height", 1.0}, {"startTime", 0.5}});
  m.connect(a.flange_b, clutch.flange_a);
  m.connect(clutch.flange_b, b.flange_a);
  m.connect(engage.y, clutch.engagement_input);
  m.set_start("a.w", 100.0);
  m.set_start("a.phi", 0.0);
  m.set_start("b.w", 0.0);
  m.set_start("b.phi", 0.0);
  rig.expect_connectors(clutch, {{"flange_a", "rotational.Flange"}, {"flange_b", "rotational.Flange"}});
  rig.check(over_interval(b.w, 0.0, 0.49, 0.0, 1e-9, 1.0).titled("open, nothing is transmitted"));
  rig.check(over_interval(abs(clutch.tau), 0.55, 0.6, clutch.tau_max, 1e-2)
                .titled("slipping, it transmits engagement × τ_max within 1 %"));
  rig.check(over_interval(a.J * a.w + b.J * b.w, 0.0, 3.0, 50.0, 1e-6).titled("angular momentum is conserved"));
  rig.check(steady_state(b.w, a.w, 1e-3, 0.5).titled("engaged, both sides turn together"));
  rig.check(sign(clutch.P_dissipated, 1, 1e-6).titled("slip only dissipates (P >= 0)"));
  rig.energy_balance(1e-4);
  return list;
}

Checklist engine_checklist(const Builder<vehicle::Engine>& make) {
  Checklist list("engine", "Engine (seed 003)");
  Rig& rig = list.rig("run_up", "full throttle into a 0.5 kg·m² flywheel with a 0.4 N·m·s/rad damper",
                      run_options(20.0, 0.01));
  Model& m = rig.model();
  auto& engine = make(m, "engine", {});
  auto& throttle = m.add<blocks::Constant>("throttle", {{"k", 1.0}});
  auto& flywheel = m.add<rotational::Inertia>("flywheel", {{"J", 0.5}});
  auto& load = m.add<rotational::Damper>("load", {{"d", 0.4}});
  auto& ground = m.add<rotational::Fixed>("ground");
  m.connect(throttle.y, engine.throttle_input);
  m.connect(engine.flange, flywheel.flange_a);
  m.connect(flywheel.flange_b, load.flange_a);
  m.connect(load.flange_b, ground.flange);
  m.set_start("engine.w", 100.0);
  m.set_start("engine.phi", 0.0);
  rig.expect_connectors(engine, {{"flange", "rotational.Flange"}});
  rig.check(monotonic(engine.w, 1, 0.0, 20.0, 1e-9).titled("full throttle runs the engine up"));
  // The damper's torque acts on its flange_b (ground): -tau is what it takes from the flywheel.
  rig.check(steady_state(engine.tau_drive - engine.tau_loss, -load.tau, 1e-3, 2.0)
                .titled("steady state: net engine torque = load torque within 0.1 %"));
  rig.check(bound(engine.rpm, 0.0, engine.engineMaxRPM + 3 * engine.rpm_blend, 0.0)
                .titled("the speed stays below the rev limit"));
  rig.check(sign(engine.P_out, 1, 1e-6).titled("the engine delivers power"));
  rig.energy_balance(1e-4);
  return list;
}

Checklist gearbox_checklist(const Builder<vehicle::Gearbox>& make) {
  Checklist list("gearbox", "Gearbox (seed 003)");
  {
    Rig& rig = list.rig("second_gear", "100 N·m in 2nd gear (ratio 2.1, efficiency 0.95) into an inertia with a "
                        "damper", run_options(20.0, 0.01));
    Model& m = rig.model();
    auto& gearbox = make(m, "gearbox", {{"efficiency_2", 0.95}});
    RotationalRig parts = rotational_rig(m, gearbox.flange_in, gearbox.flange_out, 100.0, 0.1, 1.0, 1.0);
    auto& gear = m.add<blocks::Constant>("gear", {{"k", 2.0}});
    m.connect(gear.y, gearbox.gear_input);
    rig.expect_connectors(gearbox, {{"flange_in", "rotational.Flange"}, {"flange_out", "rotational.Flange"}});
    // Speeds of the rig's inertias and torques they and the damper take, against
    // the specified ratio 2.1 and efficiency 0.95 (not the gearbox's variables).
    rig.check(steady_state(parts.input.w, 2.1 * parts.output.w, 1e-3, 2.0)
                  .titled("the input inertia turns 2.1 × the output inertia's speed"));
    // The torque reaching the output, J_out·dω/dt + d·ω, is 2.1·0.95 times what
    // the source puts past the input inertias (the rig's 0.1 and the specified
    // gearbox's own 0.02 kg·m²), through the run once power flows.
    const Expr into_gears = parts.source.tau - (0.1 + 0.02) * der(parts.input.w);
    rig.check(relation(1.0 * der(parts.output.w) + 1.0 * parts.output.w, 2.1 * 0.95 * into_gears, 1e-3)
                  .when(parts.input.w > 10.0)
                  .titled("the output inertia and damper take 2.1 · 0.95 × the torque into the gears within 0.1 %"));
    rig.check(steady_state(parts.output.w, Expr(2.1 * 0.95 * 100.0), 1e-3, 2.0)
                  .titled("the load settles at ratio·η·τ/d"));
    rig.check(sign(gearbox.P_loss, 1, 1e-6).titled("the gears only lose power (P_loss >= 0)"));
    rig.energy_balance(1e-4);
  }
  {
    Rig& rig = list.rig("shifts", "gear 1 → 2 → 3 at 2 s and 4 s under 50 N·m", run_options(6.0, 0.01));
    Model& m = rig.model();
    auto& gearbox = make(m, "gearbox", {});
    RotationalRig parts = rotational_rig(m, gearbox.flange_in, gearbox.flange_out, 50.0, 0.1, 5.0, 2.0);
    auto& first = m.add<blocks::Step>("first", {{"height", 1.0}, {"offset", 1.0}, {"startTime", 2.0}});
    auto& gear = m.add<blocks::Step>("gear", {{"height", 1.0}, {"offset", 0.0}, {"startTime", 4.0}});
    auto& sum = m.add<blocks::Add>("sum");
    m.connect(first.y, sum.u1);
    m.connect(gear.y, sum.u2);
    m.connect(sum.y, gearbox.gear_input);
    for (auto [t, ratio] : {std::pair{1.9, 3.6}, std::pair{3.9, 2.1}, std::pair{5.9, 1.4}})
      rig.check(value_at(gearbox.ratio, t, ratio, 0.0).titled("ratio " + format_number(ratio) + " engaged"));
    rig.check(steady_state(parts.input.w, 1.4 * parts.output.w, 1e-2, 0.5)
                  .titled("after the last shift the synchronizer matches the shaft speeds within 1 %"));
    rig.check(sign(gearbox.P_loss, 1, 1e-6).titled("shifting only loses power (P_loss >= 0)"));
    rig.energy_balance(1e-4);
  }
  return list;
}

}  // namespace acausal::harness
