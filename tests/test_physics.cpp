#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>

#include <cmath>

#include "bench/chain_model.hpp"
#include "examples/spring_mass_damper_model.hpp"

namespace test_physics {

using namespace acausal;

TEST_CASE("Fixed-Spring-Damper-Mass under a constant force follows the closed form", "[physics]") {
  const double m = 2.0, c = 50.0, d = 3.0, F = 10.0;
  Model model("oscillator");
  examples::build_spring_mass_damper(model, {.m = m, .c = c, .d = d, .F = F});

  SimulationOptions opt;
  opt.t_end = 10.0;
  opt.output_interval = 0.01;
  opt.rtol = 1e-9;
  opt.atol = 1e-11;
  Result r = model.compile().simulate(opt);

  const double wn = std::sqrt(c / m), zeta = d / (2 * std::sqrt(c * m)), root = std::sqrt(1 - zeta * zeta);
  const double wd = wn * root;
  auto s = r["mass.s"];
  auto v = r["mass.v"];
  double max_s = 0, max_v = 0, err_s = 0, err_v = 0;
  for (std::size_t k = 0; k < r.size(); ++k) {
    double t = r.time()[k], e = std::exp(-zeta * wn * t);
    double s_exact = F / c * (1 - e * (std::cos(wd * t) + zeta / root * std::sin(wd * t)));
    double v_exact = F / c * e * wn / root * std::sin(wd * t);
    max_s = std::max(max_s, std::fabs(s_exact));
    max_v = std::max(max_v, std::fabs(v_exact));
    err_s = std::max(err_s, std::fabs(s[k] - s_exact));
    err_v = std::max(err_v, std::fabs(v[k] - v_exact));
  }
  CHECK(err_s / max_s < 1e-5);
  CHECK(err_v / max_v < 1e-5);
  CHECK(r.statistics().steps > 0);
}

TEST_CASE("two inertias, spring and damper under a sine torque conserve energy", "[physics]") {
  const double J1 = 1.0, J2 = 2.5, c = 40.0, d = 0.8;
  Model model("energy");
  auto& sine = model.add<blocks::Sine>("sine", {{"amplitude", 5.0}, {"f", 0.7}});
  auto& torque = model.add<rotational::Torque>("torque");
  auto& in1 = model.add<rotational::Inertia>("in1", {{"J", J1}});
  auto& spring = model.add<rotational::Spring>("spring", {{"c", c}});
  auto& damper = model.add<rotational::Damper>("damper", {{"d", d}});
  auto& in2 = model.add<rotational::Inertia>("in2", {{"J", J2}});
  model.connect(sine.y, torque.tau);
  model.connect(torque.flange, in1.flange_a);
  model.connect(in1.flange_b, spring.flange_a);
  model.connect(in1.flange_b, damper.flange_a);
  model.connect(spring.flange_b, in2.flange_a);
  model.connect(damper.flange_b, in2.flange_a);
  // Energy books kept by the model itself: work in and heat out, integrated by IDA.
  Variable work = model.variable("work", {.unit = "J"});
  Variable heat = model.variable("heat", {.unit = "J"});
  model.equation(der(work) == sine.y * in1.w);
  model.equation(der(heat) == damper.tau * damper.w_rel);
  for (const char* v : {"in1.phi", "in1.w", "in2.phi", "in2.w", "work", "heat"}) model.set_start(v, 0.0);

  SimulationOptions opt;
  opt.t_end = 10.0;
  opt.output_interval = 0.01;
  opt.rtol = 1e-9;
  opt.atol = 1e-11;
  Result r = model.compile().simulate(opt);
  double w1 = r["in1.w"].back(), w2 = r["in2.w"].back(), phi_rel = r["spring.phi_rel"].back();
  double stored = 0.5 * J1 * w1 * w1 + 0.5 * J2 * w2 * w2 + 0.5 * c * phi_rel * phi_rel;
  double work_in = r["work"].back(), dissipated = r["heat"].back();
  INFO("work " << work_in << " stored " << stored << " dissipated " << dissipated);
  CHECK(dissipated > 0.1 * work_in);  // the damper matters: the check below is not trivial
  CHECK(std::fabs(work_in - (stored + dissipated)) < 1e-4 * std::fabs(work_in));
}

TEST_CASE("a chain of 1000 cells runs with KLU", "[physics][scale]") {
  Model model("chain1000");
  bench::build_chain(model, 1000);
  Simulator sim = model.compile();
  SimulationOptions opt;
  opt.t_end = 1.0;
  opt.output_interval = 0.1;
  Result r = sim.simulate(opt);
  CHECK(r.statistics().linear_solver == "klu");
  CHECK(r.statistics().unknowns == 2000);
  // The force has not reached the wall yet: the first mass barely moves, the last moves.
  CHECK(std::fabs(r["mass1.s"].back()) < 1e-6);
  CHECK(r["mass1000.s"].back() > 1e-3);
}

TEST_CASE("dense and KLU give the same trajectory for a chain of 50", "[physics][scale]") {
  Model model("chain50");
  bench::build_chain(model, 50);
  Simulator sim = model.compile();
  SimulationOptions opt;
  opt.t_end = 2.0;
  opt.output_interval = 0.05;
  opt.linear_solver = LinearSolver::dense;
  Result dense = sim.simulate(opt);
  opt.linear_solver = LinearSolver::klu;
  Result klu = sim.simulate(opt);
  CHECK(dense.statistics().linear_solver == "dense");
  CHECK(klu.statistics().linear_solver == "klu");
  double worst = 0;
  for (const char* name : {"mass1.s", "mass25.v", "mass50.s", "spring50.f"}) {
    auto a = dense[name], b = klu[name];
    for (std::size_t k = 0; k < a.size(); ++k) worst = std::max(worst, std::fabs(a[k] - b[k]));
  }
  CHECK(worst < 1e-8);
}

TEST_CASE("parameters change without recompiling", "[physics]") {
  Model model("param");
  auto& mass = model.add<translational::Mass>("mass", {{"m", 1.0}});
  auto& push = model.add<blocks::Constant>("push", {{"k", 6.0}});
  auto& force = model.add<translational::Force>("force");
  model.connect(push.y, force.f);
  model.connect(force.flange, mass.flange_a);
  Simulator sim = model.compile();
  SimulationOptions opt;
  opt.t_end = 1.0;
  CHECK(sim.simulate(opt)["mass.a"].back() == Approx(6.0).epsilon(1e-10));
  sim.set_parameter("mass.m", 3.0);
  CHECK(sim.parameter("mass.m") == 3.0);
  Result r = sim.simulate(opt);
  CHECK(r["mass.a"].back() == Approx(2.0).epsilon(1e-10));
  CHECK(r["mass.v"].back() == Approx(2.0).epsilon(1e-6));
}

}  // namespace test_physics
