// Initial conditions on any variable or expression, solved with the DAE at t0.
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>

#include <cmath>
#include <functional>
#include <utility>

namespace test_initialization {

using namespace acausal;
using Catch::Matchers::Contains;

namespace {
SimulationOptions short_run() {
  SimulationOptions opt;
  opt.t_end = 0.5;
  opt.output_interval = 0.05;
  opt.rtol = 1e-10;
  opt.atol = 1e-12;
  return opt;
}

struct GearModel {
  Model m{"gear_init"};
  rotational::Inertia& in = m.add<rotational::Inertia>("in", {{"J", 0.5}});
  rotational::IdealGear& gear = m.add<rotational::IdealGear>("gear", {{"ratio", 4.0}});
  rotational::Inertia& out = m.add<rotational::Inertia>("out", {{"J", 3.0}});
  GearModel() {
    m.connect(in.flange_b, gear.flange_a);
    m.connect(gear.flange_b, out.flange_a);
  }
};
}  // namespace

TEST_CASE("an initial equation on a spring's relative angle holds at t0", "[init]") {
  Model m("twist");
  auto& a = m.add<rotational::Inertia>("a", {{"J", 1.0}});
  auto& spring = m.add<rotational::Spring>("spring", {{"c", 50.0}});
  auto& b = m.add<rotational::Inertia>("b", {{"J", 2.0}});
  m.connect(a.flange_b, spring.flange_a);
  m.connect(spring.flange_b, b.flange_a);
  m.set_start("a.phi", 0.3);
  m.set_start("a.w", 0.0);
  m.set_start("b.w", 0.0);
  m.initial_equation(spring.phi_rel == 0.2);
  Result r = m.compile().simulate(short_run());
  CHECK(std::fabs(r["spring.phi_rel"][0] - 0.2) < 1e-10);
  CHECK(std::fabs(r["b.phi"][0] - 0.5) < 1e-10);
  CHECK(std::fabs(r["spring.tau"][0] - 50.0 * 0.2) < 1e-9);
  // Released from rest, the twist oscillates around zero: momentum stays zero.
  auto wa = r["a.w"], wb = r["b.w"];
  for (std::size_t k = 0; k < r.size(); ++k) CHECK(std::fabs(1.0 * wa[k] + 2.0 * wb[k]) < 1e-8);
}

TEST_CASE("a steady-state start der(w) = 0 gives the equilibrium speed", "[init]") {
  const double T = 6.0, d = 1.5;
  Model m("steady");
  auto& ground = m.add<rotational::Fixed>("ground");
  auto& damper = m.add<rotational::Damper>("damper", {{"d", d}});
  auto& shaft = m.add<rotational::Inertia>("shaft", {{"J", 2.0}});
  auto& k = m.add<blocks::Constant>("k", {{"k", T}});
  auto& motor = m.add<rotational::Torque>("motor");
  m.connect(ground.flange, damper.flange_a);
  m.connect(damper.flange_b, shaft.flange_a);
  m.connect(k.y, motor.tau);
  m.connect(motor.flange, shaft.flange_b);
  m.set_start("shaft.phi", 0.0);
  m.initial_equation(der(shaft.w) == 0.0);
  Result r = m.compile().simulate(short_run());
  CHECK(std::fabs(r["shaft.a"][0]) < 1e-10);
  CHECK(std::fabs(r["shaft.w"][0] - T / d) < 1e-10);
  CHECK(std::fabs(r["shaft.w"].back() - T / d) < 1e-8);  // and it stays there
}

TEST_CASE("a fixed start on a variable that is not a state is solved for", "[init]") {
  GearModel g;
  g.m.set_start("in.phi", 0.0);
  g.m.set_start("out.w", 2.0);  // in.w is the state; out.w = in.w / ratio
  Result r = g.m.compile().simulate(short_run());
  CHECK(std::fabs(r["in.w"][0] - 8.0) < 1e-10);
  CHECK(std::fabs(r["out.w"].back() - 2.0) < 1e-8);  // no torque: constant speed
}

TEST_CASE("over-determined but consistent initial conditions are accepted", "[init]") {
  GearModel g;
  g.m.set_start("in.phi", 4.0);
  g.m.set_start("in.w", 0.0);
  g.m.set_start("out.phi", 1.0);  // = in.phi / ratio: consistent
  Simulator sim = g.m.compile();
  CHECK_THAT(sim.report().str(), Contains("redundant"));
  Result r = sim.simulate(short_run());
  CHECK(std::fabs(r["out.phi"][0] - 1.0) < 1e-10);
}

TEST_CASE("inconsistent initial conditions name both conditions and the residual", "[init]") {
  GearModel g;
  g.m.set_start("in.phi", 1.0);
  g.m.set_start("in.w", 0.0);
  g.m.set_start("out.phi", 1.0);  // would need in.phi = 4
  Simulator sim = g.m.compile();
  CHECK_THROWS_WITH(sim.simulate(short_run()),
                    Contains("inconsistent initial conditions") && Contains("in.phi = 1") && Contains("out.phi = 1"));
}

namespace {
// A constant 2 into a FirstOrder lag (k = 1.5, T = 0.2) with the given initType.
Result lag_from(double init_type, const std::function<void(Model&)>& tweak = {}) {
  Model m("lag");
  auto& source = m.add<blocks::Constant>("source", {{"k", 2.0}});
  auto& lag = m.add<blocks::FirstOrder>("firstOrder",
                                        {{"k", 1.5}, {"T", 0.2}, {"y_start", 0.5}, {"initType", init_type}});
  m.connect(source.y, lag.u);
  if (tweak) tweak(m);
  return m.compile().simulate(short_run());
}
double lag_exact(double y0, double t) { return 3.0 + (y0 - 3.0) * std::exp(-t / 0.2); }
}  // namespace

TEST_CASE("a block's initType chooses its initial equations as in MSL", "[init][blocks]") {
  for (auto [init_type, y0] : {std::pair{blocks::InitialState, 0.5}, std::pair{blocks::InitialOutput, 0.5},
                               std::pair{blocks::SteadyState, 3.0}, std::pair{blocks::NoInit, 0.0}}) {
    INFO("initType " << init_type);
    Result r = lag_from(init_type);
    auto y = r["firstOrder.y"];
    for (std::size_t k = 0; k < r.size(); ++k) CHECK(y[k] == Approx(lag_exact(y0, r.time()[k])).margin(1e-8));
  }
}

TEST_CASE("a start value the user fixes replaces the block's own initial value", "[init][blocks]") {
  Result r = lag_from(blocks::InitialState, [](Model& m) { m.set_start("firstOrder.y", 0.75); });
  auto y = r["firstOrder.y"];
  CHECK(y.front() == Approx(0.75).margin(1e-12));
  CHECK(y.back() == Approx(lag_exact(0.75, r.time().back())).margin(1e-8));
}

TEST_CASE("a structural parameter is fixed at compile() and its choices are checked", "[init][blocks]") {
  Model m("lag");
  auto& source = m.add<blocks::Constant>("source", {{"k", 2.0}});
  auto& lag = m.add<blocks::FirstOrder>("firstOrder");
  m.connect(source.y, lag.u);
  CHECK_THROWS_WITH(lag.set_parameter("initType", 4.0),
                    Contains("firstOrder.initType = 4 is not one of its choices") && Contains("1 SteadyState"));
  CHECK_THROWS_WITH(lag.set_parameter("initType", 1.5), Contains("is not one of its choices"));
  Simulator sim = m.compile();
  CHECK_THROWS_WITH(sim.set_parameter("firstOrder.initType", blocks::SteadyState),
                    Contains("firstOrder.initType is structural") && Contains("before compile()"));
  sim.set_parameter("firstOrder.y_start", 1.0);  // an ordinary parameter still changes without recompiling
  CHECK(sim.simulate(short_run())["firstOrder.y"].front() == Approx(1.0).margin(1e-12));
}

}  // namespace test_initialization
