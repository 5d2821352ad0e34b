#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>

#include "solver/passes/alias_elimination.hpp"
#include "solver/passes/flatten.hpp"
#include "solver/passes/structural_parameters.hpp"

namespace test_flatten {

using namespace acausal;

namespace {
int count_origin(const DaeSystem& dae, const std::string& prefix) {
  int n = 0;
  for (const auto& eq : dae.equations) n += dae.origins[eq.origin].rfind(prefix, 0) == 0;
  return n;
}
}  // namespace

TEST_CASE("a connection set of k flanges gives k-1 potential equations and one flow sum", "[flatten]") {
  Model m("star");
  auto& a = m.add<rotational::Inertia>("a");
  auto& b = m.add<rotational::Inertia>("b");
  auto& c = m.add<rotational::Inertia>("c");
  m.connect(a.flange_b, b.flange_a);
  m.connect(b.flange_a, c.flange_a);  // one set of three flanges
  DaeSystem dae = flatten(m);
  CHECK(count_origin(dae, "connect(") == 3);  // 2 potential equalities + 1 flow sum
  // Unconnected: a.flange_a, b.flange_b, c.flange_b -> one zero-flow equation each.
  CHECK(count_origin(dae, "unconnected") == 3);
  CHECK(dae.variables.size() == 3 * 7);
  CHECK(dae.equations.size() == 3 * 5 + 3 + 3);
}

TEST_CASE("an unconnected flange carries zero torque", "[flatten]") {
  Model m("free");
  m.add<rotational::Inertia>("j", {{"J", 2.0}});
  m.set_start("j.w", 3.0);
  Simulator sim = m.compile();
  SimulationOptions opt;
  opt.t_end = 1.0;
  Result r = sim.simulate(opt);
  for (double tau : r["j.flange_a.tau"]) CHECK(tau == 0.0);
  CHECK(r["j.w"].back() == Approx(3.0).epsilon(1e-12));
  CHECK(r["j.phi"].back() == Approx(3.0).epsilon(1e-6));
}

TEST_CASE("alias elimination keeps every name resolvable and shrinks connection equations", "[flatten]") {
  Model m("pair");
  auto& a = m.add<translational::Mass>("a");
  auto& s = m.add<translational::Spring>("s", {{"c", 10.0}});
  auto& f = m.add<translational::Fixed>("f", {{"s0", 0.5}});
  m.connect(f.flange, s.flange_a);
  m.connect(s.flange_b, a.flange_a);
  m.set_start("a.s", 1.0);
  m.set_start("a.v", 0.0);
  DaeSystem dae = flatten(m);
  fold_structural_parameters(dae);  // as the pipeline does first: the point mass's L = 0 folds
  eliminate_aliases(dae);
  long before = dae.report.count("alias_elimination", "equations_before");
  long after = dae.report.count("alias_elimination", "equations_after");
  CHECK(after < before / 2);
  Simulator sim = m.compile();
  SimulationOptions opt;
  opt.t_end = 0.5;
  Result r = sim.simulate(opt);
  auto s_a = r["a.s"];
  auto flange = r["s.flange_b.s"];
  auto wall = r["f.flange.s"];
  auto spring_force = r["s.f"];
  auto mass_force = r["a.flange_a.f"];
  for (std::size_t k = 0; k < r.size(); ++k) {
    CHECK(flange[k] == s_a[k]);
    CHECK(wall[k] == 0.5);
    CHECK(spring_force[k] == Approx(10.0 * (s_a[k] - 0.5)).margin(1e-12));
    CHECK(mass_force[k] == Approx(-spring_force[k]).margin(1e-12));
  }
}

TEST_CASE("signal fan-out: one output drives several inputs", "[flatten]") {
  Model m("fanout");
  auto& k = m.add<blocks::Constant>("k", {{"k", 4.0}});
  auto& f1 = m.add<translational::Force>("f1");
  auto& f2 = m.add<translational::Force>("f2");
  auto& m1 = m.add<translational::Mass>("m1", {{"m", 2.0}});
  auto& m2 = m.add<translational::Mass>("m2", {{"m", 4.0}});
  m.connect(k.y, f1.f);
  m.connect(k.y, f2.f);
  m.connect(f1.flange, m1.flange_a);
  m.connect(f2.flange, m2.flange_a);
  Simulator sim = m.compile();
  SimulationOptions opt;
  opt.t_end = 1.0;
  Result r = sim.simulate(opt);
  CHECK(r["m1.a"].back() == Approx(2.0).epsilon(1e-10));
  CHECK(r["m2.a"].back() == Approx(1.0).epsilon(1e-10));
  CHECK(r["f2.f"].back() == 4.0);
}

namespace {
// A hierarchical component: two inertias rigidly joined behind outside flanges.
struct TwinInertia : Component {
  rotational::Flange flange_a{*this, "flange_a"}, flange_b{*this, "flange_b"};
  rotational::Inertia& first = add<rotational::Inertia>("first", {{"J", 1.0}});
  rotational::Inertia& second = add<rotational::Inertia>("second", {{"J", 3.0}});
  explicit TwinInertia(std::string name) : Component(std::move(name)) {
    connect(flange_a, first.flange_a);
    connect(first.flange_b, second.flange_a);
    connect(second.flange_b, flange_b);
  }
};
}  // namespace

TEST_CASE("hierarchical components flatten like any other", "[flatten]") {
  Model m("hier");
  auto& twin = m.add<TwinInertia>("twin");
  auto& torque = m.add<rotational::Torque>("torque");
  auto& k = m.add<blocks::Constant>("k", {{"k", 8.0}});
  m.connect(k.y, torque.tau);
  m.connect(torque.flange, twin.flange_a);
  m.set_start("twin.first.phi", 0.0);
  m.set_start("twin.first.w", 0.0);
  Simulator sim = m.compile();
  SimulationOptions opt;
  opt.t_end = 1.0;
  Result r = sim.simulate(opt);
  CHECK(r["twin.second.a"].back() == Approx(8.0 / 4.0).epsilon(1e-10));
  CHECK(r["twin.flange_a.tau"].back() == Approx(8.0).epsilon(1e-10));  // the torque enters the twin
  CHECK(r["twin.flange_b.tau"].back() == Approx(0.0).margin(1e-12));  // the free end carries none
  CHECK(r["twin.second.w"].back() == Approx(2.0).epsilon(1e-6));
}

TEST_CASE("alias elimination gives the kept variable the largest nominal its set declares, in its own scale",
          "[flatten]") {
  // y = -2·x and z = y: one alias set; the integrator's absolute tolerance of the kept variable is
  // atol times its nominal, so it must carry the magnitude the set declares (x's 1e3, or 2e3 in y's scale).
  Model m("nominals");
  Variable x = m.variable("x", {.start = 1.0, .fixed = true, .nominal = 1e3});
  Variable y = m.variable("y");
  Variable z = m.variable("z", {.nominal = 0.5});
  m.equation(der(x) == -x);
  m.equation(y == -2 * x);
  m.equation(z == y);
  DaeSystem dae = flatten(m);
  eliminate_aliases(dae);
  int kept = 0;
  for (const auto& v : dae.variables) {
    if (v.definition) continue;
    ++kept;
    INFO("kept " << v.name);
    const bool is_x = v.name.size() >= 1 && v.name.back() == 'x';
    CHECK(v.nominal == (is_x ? 1e3 : 2e3));
  }
  CHECK(kept == 1);
}

}  // namespace test_flatten
