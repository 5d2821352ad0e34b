// Ideal couplings between inertias: higher-index DAEs reduced automatically.
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>

#include <chrono>
#include <cmath>

#include "support.hpp"

namespace test_index_reduction {

using namespace acausal;
using test::run_for;

TEST_CASE("inertia - ideal gear - inertia under a constant torque", "[index]") {
  const double J1 = 0.5, J2 = 3.0, ratio = 4.0, tau = 2.0;
  Model m("gearbox");
  auto& k = m.add<blocks::Constant>("k", {{"k", tau}});
  auto& motor = m.add<rotational::Torque>("motor");
  auto& in = m.add<rotational::Inertia>("in", {{"J", J1}});
  auto& gear = m.add<rotational::IdealGear>("gear", {{"ratio", ratio}});
  auto& out = m.add<rotational::Inertia>("out", {{"J", J2}});
  m.connect(k.y, motor.tau);
  m.connect(motor.flange, in.flange_a);
  m.connect(in.flange_b, gear.flange_a);
  m.connect(gear.flange_b, out.flange_a);
  m.set_start("in.phi", 0.0);
  m.set_start("in.w", 0.0);
  Simulator sim = m.compile();
  INFO(sim.report().str());
  CHECK(sim.report().count("index_reduction", "differentiated_equations") > 0);
  Result r = sim.simulate(run_for(2.0, 0.01, 1e-10));
  const double a_out = tau * ratio / (J1 * ratio * ratio + J2);
  auto a2 = r["out.a"], a1 = r["in.a"], phi1 = r["in.phi"], phi2 = r["out.phi"], w1 = r["in.w"], w2 = r["out.w"];
  double worst_a = 0, worst_constraint = 0, worst_speed = 0;
  for (std::size_t i = 0; i < r.size(); ++i) {
    worst_a = std::max({worst_a, std::fabs(a2[i] - a_out) / a_out, std::fabs(a1[i] - ratio * a_out) / (ratio * a_out)});
    worst_constraint = std::max(worst_constraint, std::fabs(phi1[i] - ratio * phi2[i]));
    worst_speed = std::max(worst_speed, std::fabs(w1[i] - ratio * w2[i]));
  }
  CHECK(worst_a < 1e-8);
  CHECK(worst_constraint < 1e-10);  // the constraint itself is solved: no drift
  CHECK(worst_speed < 1e-10);
  CHECK(phi1.back() == Approx(0.5 * ratio * a_out * 4.0).epsilon(1e-8));
}

TEST_CASE("torque through an ideal rolling wheel accelerates a mass", "[index]") {
  const double J = 1.0, radius = 0.5, mass = 20.0, tau = 10.0;
  Model m("rolling");
  auto& k = m.add<blocks::Constant>("k", {{"k", tau}});
  auto& motor = m.add<rotational::Torque>("motor");
  auto& inertia = m.add<rotational::Inertia>("inertia", {{"J", J}});
  auto& wheel = m.add<rotational::IdealRollingWheel>("wheel", {{"radius", radius}});
  auto& body = m.add<translational::Mass>("body", {{"m", mass}});
  m.connect(k.y, motor.tau);
  m.connect(motor.flange, inertia.flange_a);
  m.connect(inertia.flange_b, wheel.flangeR);
  m.connect(wheel.flangeT, body.flange_a);
  m.set_start("body.s", 0.0);
  m.set_start("body.v", 0.0);
  Result r = m.compile().simulate(run_for(1.0, 0.01, 1e-10));
  const double a = tau * radius / (J + mass * radius * radius);  // body acceleration
  CHECK(r["body.a"].back() == Approx(a).epsilon(1e-8));
  CHECK(r["inertia.w"].back() * radius == Approx(r["body.v"].back()).epsilon(1e-10));
  CHECK(r["body.v"].back() == Approx(a * 1.0).epsilon(1e-8));
  CHECK(r["wheel.flangeT.f"].back() == Approx(-mass * a).epsilon(1e-8));  // force on the wheel from the body
}

namespace {
// Rigid differential: w_in = ratio·(w_left + w_right)/2, equal output torques.
struct RigidDifferential : Component {
  rotational::Flange flange_input{*this, "flange_input"}, flange_left{*this, "flange_left"},
      flange_right{*this, "flange_right"};
  Parameter ratio = parameter("ratio", 3.5, {.unit = "1"});
  explicit RigidDifferential(std::string name) : Component(std::move(name)) {
    equation(flange_input.phi == ratio * (flange_left.phi + flange_right.phi) / 2.0);
    equation(flange_left.tau == -ratio * flange_input.tau / 2.0);
    equation(flange_right.tau == flange_left.tau);
  }
};
}  // namespace

TEST_CASE("three inertias joined by a differential constraint", "[index]") {
  const double J_in = 0.2, J_L = 1.0, J_R = 2.0, ratio = 3.5, T = 50.0;
  Model m("differential");
  auto& k = m.add<blocks::Constant>("k", {{"k", T}});
  auto& motor = m.add<rotational::Torque>("motor");
  auto& shaft = m.add<rotational::Inertia>("shaft", {{"J", J_in}});
  auto& diff = m.add<RigidDifferential>("diff", {{"ratio", ratio}});
  auto& left = m.add<rotational::Inertia>("left", {{"J", J_L}});
  auto& right = m.add<rotational::Inertia>("right", {{"J", J_R}});
  m.connect(k.y, motor.tau);
  m.connect(motor.flange, shaft.flange_a);
  m.connect(shaft.flange_b, diff.flange_input);
  m.connect(diff.flange_left, left.flange_a);
  m.connect(diff.flange_right, right.flange_a);
  for (const char* v : {"left.phi", "left.w", "right.phi", "right.w"}) m.set_start(v, 0.0);
  Result r = m.compile().simulate(run_for(1.0, 0.01, 1e-10));
  // Each output gets torque t: J_L a_L = J_R a_R = t; J_in a_in = T - 2t/ratio; a_in = ratio (a_L + a_R)/2.
  const double t = T / (J_in * ratio / 2.0 * (1.0 / J_L + 1.0 / J_R) + 2.0 / ratio);
  CHECK(r["left.a"].back() == Approx(t / J_L).epsilon(1e-8));
  CHECK(r["right.a"].back() == Approx(t / J_R).epsilon(1e-8));
  CHECK(r["shaft.a"].back() == Approx(ratio * (t / J_L + t / J_R) / 2.0).epsilon(1e-8));
  CHECK(r["shaft.w"].back() == Approx(ratio * (r["left.w"].back() + r["right.w"].back()) / 2.0).epsilon(1e-10));
}

TEST_CASE("a chain of 1000 inertias joined by ideal gears compiles and simulates", "[index][scale]") {
  const int n = 1000;
  Model m("gear_chain");
  auto& k = m.add<blocks::Constant>("k", {{"k", 1.0}});
  auto& motor = m.add<rotational::Torque>("motor");
  auto& first = m.add<rotational::Inertia>("j0", {{"J", 1.0}});
  m.connect(k.y, motor.tau);
  m.connect(motor.flange, first.flange_a);
  Connector* previous = &first.flange_b;
  for (int i = 1; i < n; ++i) {
    auto& gear = m.add<rotational::IdealGear>("g" + std::to_string(i), {{"ratio", 1.001}});
    auto& j = m.add<rotational::Inertia>("j" + std::to_string(i), {{"J", 1.0}});
    m.connect(*previous, gear.flange_a);
    m.connect(gear.flange_b, j.flange_a);
    previous = &j.flange_b;
  }
  m.set_start("j0.phi", 0.0);
  m.set_start("j0.w", 0.0);
  auto t0 = std::chrono::steady_clock::now();
  Simulator sim = m.compile();
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  WARN("1000-gear chain compiled in " << seconds << " s\n" << sim.report().str());
  CHECK(sim.report().count("evaluation", "states") == 2);  // one rigid body: one angle, one speed
  SimulationOptions opt;
  opt.t_end = 1.0;
  opt.output_interval = 0.1;
  auto t1 = std::chrono::steady_clock::now();
  Result r = sim.simulate(opt);
  WARN("1000-gear chain simulated 1 s in "
       << std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count() * 1e3 << " ms, "
       << r.statistics().steps << " steps, " << r.statistics().unknowns << " IDA unknowns");
  // Reflected inertia seen from j0: j_i turns 1.001^-i times as fast, so J_eq = sum_i J / 1.001^(2i).
  double j_eq = 0, speed_ratio = 1.0;
  for (int i = 0; i < n; ++i) {
    j_eq += 1.0 / (speed_ratio * speed_ratio);
    speed_ratio *= 1.001;
  }
  CHECK(r["j0.a"].back() == Approx(1.0 / j_eq).epsilon(1e-6));
}

TEST_CASE("a second derivative written by the user becomes first order", "[index]") {
  Model m("second_order");
  Variable x = m.variable("x", {.unit = "m"});
  m.equation(der(der(x)) == -4.0 * x);  // x'' = -omega^2 x, omega = 2
  m.set_start("x", 1.0);
  m.initial_equation(der(x) == 0.0);
  SimulationOptions opt;
  opt.t_end = 2.0;
  opt.output_interval = 0.01;
  opt.rtol = 1e-10;
  opt.atol = 1e-12;
  Result r = m.compile().simulate(opt);
  auto xs = r["x"];
  double worst = 0;
  for (std::size_t k = 0; k < r.size(); ++k) worst = std::max(worst, std::fabs(xs[k] - std::cos(2.0 * r.time()[k])));
  CHECK(worst < 1e-7);
  CHECK(r.has("der(x)"));
}

TEST_CASE("an ideal gear with its support on a fixed housing passes the reaction torque", "[index]") {
  const double J1 = 0.5, J2 = 3.0, ratio = 4.0, tau = 2.0;
  Model m("supported");
  auto& k = m.add<blocks::Constant>("k", {{"k", tau}});
  auto& motor = m.add<rotational::Torque>("motor");
  auto& in = m.add<rotational::Inertia>("in", {{"J", J1}});
  auto& gear = m.add<rotational::IdealGearWithSupport>("gear", {{"ratio", ratio}});
  auto& housing = m.add<rotational::Fixed>("housing");
  auto& out = m.add<rotational::Inertia>("out", {{"J", J2}});
  m.connect(k.y, motor.tau);
  m.connect(motor.flange, in.flange_a);
  m.connect(in.flange_b, gear.flange_a);
  m.connect(gear.flange_b, out.flange_a);
  m.connect(gear.support, housing.flange);
  m.set_start("in.phi", 0.0);
  m.set_start("in.w", 0.0);
  SimulationOptions opt;
  opt.t_end = 1.0;
  opt.rtol = 1e-10;
  opt.atol = 1e-12;
  Result r = m.compile().simulate(opt);
  const double a_out = tau * ratio / (J1 * ratio * ratio + J2);
  CHECK(r["out.a"].back() == Approx(a_out).epsilon(1e-8));
  // Torque into the gear from each side: J1 side tau - J1 a1, output side -J2 a2; the housing takes the rest.
  const double tau_a = tau - J1 * ratio * a_out, tau_b = -J2 * a_out;
  CHECK(r["gear.support.tau"].back() == Approx(-(tau_a + tau_b)).epsilon(1e-8));
  CHECK(r["housing.flange.tau"].back() == Approx(tau_a + tau_b).epsilon(1e-8));
}

}  // namespace test_index_reduction
