// The Modelica Standard Library's friction examples (MSL 4.0.0) rebuilt with
// our components and compared with their reference results
// (tests/data/msl/README_friction.md: MAP-LIB, Dymola, DASSL at 1e-6).
// Every compared signal must stay within 1e-3 of its range; discrete signals
// (mode, startForward, startBackward) are compared away from events, where the
// two integrations place the same event a little apart.
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "harness/energy.hpp"
#include "msl_reference.hpp"
#include "support.hpp"

namespace test_msl_friction {

using namespace acausal;
using namespace acausal::test;

namespace {



SimulationOptions msl_run(double t_end) {
  SimulationOptions o = test::run_for(t_end, 5e-4, 1e-8);
  return o;
}

// Every component's energy books close, and each friction element only
// dissipates: its dissipated energy never decreases, to the integration
// tolerance (IDA integrates it, and a free element's torque is zero only to
// the Newton tolerance of the loop that carries it; rows are exact).
void check_books(const harness::EnergyBooks& books, const Result& r, const std::vector<std::string>& friction) {
  const auto closes = books.components_close(1e-5).evaluate(r);
  INFO(closes.message);
  CHECK(closes.passed);
  for (const auto& element : friction) {
    const auto W = r[element + ".energy.W_dissipated"];
    const double scale = std::max(1.0, *std::max_element(W.begin(), W.end()));
    double worst_decrease = 0, worst_at = 0;
    for (std::size_t k = 1; k < W.size(); ++k)
      if (W[k - 1] - W[k] > worst_decrease) worst_decrease = W[k - 1] - W[k], worst_at = r.time()[k];
    INFO(element << " dissipated " << W.back() << " J; worst decrease " << worst_decrease << " at t = " << worst_at);
    CHECK(worst_decrease <= msl_run(1.0).rtol * scale);
    CHECK(W.back() > 0.0);
  }
}

std::vector<std::string> modes_of(const std::vector<std::string>& components) {
  std::vector<std::string> out;
  for (const auto& c : components)
    for (const char* s : {".mode", ".startForward", ".startBackward"}) out.push_back(c + s);
  return out;
}

}  // namespace

TEST_CASE("MSL Translational.Examples.Brake: two masses braked to rest", "[msl][hybrid][friction]") {
  Model m("Brake");
  auto& step = m.add<blocks::Step>("step", {{"startTime", 0.1}, {"height", 2.0}});
  for (const char* suffix : {"", "1"}) {
    const std::string n = suffix;
    auto& mass = m.add<translational::Mass>(n.empty() ? "mass1" : "mass2", {{"m", 1.0}});
    auto& brake = m.add<translational::Brake>("brake" + n, {{"fn_max", 1.0}});
    m.connect(mass.flange_b, brake.flange_a);
    m.connect(step.y, brake.f_normalized);
    m.set_start(mass.name() + ".s", 0.0);
    m.set_start(mass.name() + ".v", 1.0);
  }
  harness::EnergyBooks books(m);
  Simulator sim = m.compile();
  INFO(sim.report().str());
  Result r = sim.simulate(msl_run(2.0));
  compare_with_reference(r, "Translational_Brake.csv", modes_of({"brake", "brake1"}));
  check_books(books, r, {"brake", "brake1"});
  // The closed form: v = 1 - (t - 0.1) until it stops at t = 1.1, s = 0.6, then held exactly.
  auto v = r["mass1.v"], s = r["mass1.s"];
  for (std::size_t k = 0; k < r.size(); ++k) {
    const double t = r.time()[k];
    if (t < 1.1 - 1e-6) continue;
    CHECK(std::fabs(v[k]) < 1e-9);
    CHECK(s[k] == Approx(0.6).margin(1e-6));
  }
}

TEST_CASE("MSL Rotational.Examples.CoupledClutches: three clutches engage and release", "[msl][hybrid][friction]") {
  Model m("CoupledClutches");
  auto& J1 = m.add<rotational::Inertia>("J1", {{"J", 1.0}});
  auto& torque = m.add<rotational::Torque>("torque");
  auto& sin1 = m.add<blocks::Sine>("sin1", {{"amplitude", 10.0}, {"f", 5.0}});
  auto& sin2 = m.add<blocks::Sine>("sin2", {{"amplitude", 1.0}, {"f", 0.2}, {"phase", 1.570796326794897}});
  auto& step1 = m.add<blocks::Step>("step1", {{"startTime", 0.4}});
  auto& step2 = m.add<blocks::Step>("step2", {{"startTime", 0.9}});
  std::vector<rotational::Clutch*> clutches;
  std::vector<rotational::Inertia*> inertias{&J1};
  for (int i = 1; i <= 3; ++i) {
    clutches.push_back(&m.add<rotational::Clutch>("clutch" + std::to_string(i), {{"peak", 1.1}, {"fn_max", 20.0}}));
    inertias.push_back(&m.add<rotational::Inertia>("J" + std::to_string(i + 1), {{"J", 1.0}}));
    m.connect(inertias[i - 1]->flange_b, clutches.back()->flange_a);
    m.connect(clutches.back()->flange_b, inertias[i]->flange_a);
  }
  m.connect(torque.flange, J1.flange_a);
  m.connect(sin1.y, torque.tau);
  m.connect(sin2.y, clutches[0]->f_normalized);
  m.connect(step1.y, clutches[1]->f_normalized);
  m.connect(step2.y, clutches[2]->f_normalized);
  for (int i = 0; i < 4; ++i) {
    m.set_start(inertias[i]->name() + ".phi", 0.0);
    m.set_start(inertias[i]->name() + ".w", i == 0 ? 10.0 : 0.0);
  }
  harness::EnergyBooks books(m);
  Simulator sim = m.compile();
  Result r = sim.simulate(msl_run(1.5));
  compare_with_reference(r, "Rotational_CoupledClutches.csv", modes_of({"clutch1", "clutch2", "clutch3"}));
  check_books(books, r, {"clutch1", "clutch2", "clutch3"});
}

TEST_CASE("MSL Rotational.Examples.Friction: a clutch, a spring and a brake that stops the drive",
          "[msl][hybrid][friction]") {
  Model m("Friction");
  auto& torque = m.add<rotational::Torque>("torque");
  auto& inertia3 = m.add<rotational::Inertia>("inertia3", {{"J", 1.0}});
  auto& clutch = m.add<rotational::Clutch>("clutch", {{"fn_max", 160.0}});
  auto& inertia2 = m.add<rotational::Inertia>("inertia2", {{"J", 0.05}});
  auto& spring = m.add<rotational::SpringDamper>("spring", {{"c", 160.0}, {"d", 1.0}});
  auto& brake = m.add<rotational::Brake>("brake", {{"fn_max", 1600.0}});
  auto& inertia1 = m.add<rotational::Inertia>("inertia1", {{"J", 1.0}});
  auto& one = m.add<blocks::Constant>("const", {{"k", 1.0}});
  auto& step = m.add<blocks::Step>("step", {{"startTime", 0.5}});
  auto& step2 = m.add<blocks::Step>("step2", {{"height", -1.0}, {"offset", 1.0}, {"startTime", 0.5}});
  auto& sine = m.add<blocks::Sine>("sine", {{"amplitude", 200.0}, {"f", 50.0 / std::numbers::pi}});
  auto& product = m.add<blocks::Product>("product");
  m.connect(torque.flange, inertia3.flange_a);
  m.connect(inertia3.flange_b, clutch.flange_a);
  m.connect(clutch.flange_b, inertia2.flange_a);
  m.connect(inertia2.flange_b, spring.flange_a);
  m.connect(spring.flange_b, brake.flange_a);
  m.connect(brake.flange_b, inertia1.flange_a);
  m.connect(sine.y, product.u1);
  m.connect(step2.y, product.u2);
  m.connect(product.y, torque.tau);
  m.connect(one.y, clutch.f_normalized);
  m.connect(step.y, brake.f_normalized);
  for (auto [name, w] : {std::pair{"inertia3", 100.0}, std::pair{"inertia2", 90.0}, std::pair{"inertia1", 90.0}}) {
    m.set_start(std::string(name) + ".phi", 0.0);
    m.set_start(std::string(name) + ".w", w);
  }
  harness::EnergyBooks books(m);
  Simulator sim = m.compile();
  Result r = sim.simulate(msl_run(3.0));
  compare_with_reference(r, "Rotational_Friction.csv", modes_of({"brake", "clutch"}));
  check_books(books, r, {"clutch", "brake"});
}

namespace {
// MSL Blocks.Sources.Pulse(amplitude = 1, width = 50 %, period = 1.3, startTime = 0.3) up to t = 2.25.
struct EngagementPulse : Component {
  RealOutput y{*this, "y"};
  explicit EngagementPulse(std::string name) : Component(std::move(name)) {
    const Expr t = time_symbol();
    equation(y == ifelse((t >= 0.3 && t < 0.95) || (t >= 1.6 && t < 2.25), 1.0, 0.0));
  }
};
}  // namespace

TEST_CASE("MSL Rotational.Examples.OneWayClutch: a freewheel that locks, engaged and disengaged",
          "[msl][hybrid][friction]") {
  Model m("OneWayClutch");
  auto& inertiaIn = m.add<rotational::Inertia>("inertiaIn", {{"J", 1.0}});
  auto& inertiaOut = m.add<rotational::Inertia>("inertiaOut", {{"J", 1.0}});
  auto& clutch = m.add<rotational::OneWayClutch>("oneWayClutch", {{"peak", 25.0}, {"fn_max", 3.0}});
  auto& torque = m.add<rotational::Torque>("torque");
  auto& signal = m.add<blocks::Sine>("signalTorque", {{"amplitude", 10.0}, {"f", 3.0}});
  auto& engagement = m.add<EngagementPulse>("signalEngagement");
  m.connect(torque.flange, inertiaIn.flange_a);
  m.connect(signal.y, torque.tau);
  m.connect(inertiaIn.flange_b, clutch.flange_a);
  m.connect(clutch.flange_b, inertiaOut.flange_a);
  m.connect(engagement.y, clutch.f_normalized);
  m.set_start("inertiaIn.phi", 0.0);
  m.set_start("inertiaIn.w", -0.5);
  m.set_start("inertiaOut.phi", 0.0);
  m.set_start("inertiaOut.w", 0.0);
  harness::EnergyBooks books(m);
  Simulator sim = m.compile();
  Result r = sim.simulate(msl_run(2.0));
  compare_with_reference(r, "Rotational_OneWayClutch.csv", {});
  check_books(books, r, {"oneWayClutch"});
}

TEST_CASE("MSL Translational.Examples.Friction: Stribeck friction, a friction table and hard stops",
          "[msl][hybrid][friction]") {
  Model m("Friction");
  auto& sineForce = m.add<blocks::Sine>("sineForce", {{"amplitude", 25.0}, {"f", 0.25}});
  auto& force = m.add<translational::Force>("force");
  auto& stop1 = m.add<translational::MassWithStopAndFriction>(
      "stop1", {{"L", 1.0}, {"smax", 25.0}, {"smin", -25.0}, {"m", 1.0}, {"F_prop", 1.0}, {"F_Coulomb", 5.0},
                {"F_Stribeck", 10.0}, {"fexp", 2.0}});
  auto& stop2 = m.add<translational::MassWithStopAndFriction>(
      "stop2", {{"L", 1.0}, {"smax", 0.9}, {"smin", -0.9}, {"m", 1.0}, {"F_prop", 1.0}, {"F_Coulomb", 3.0},
                {"F_Stribeck", 5.0}, {"fexp", 2.0}});
  auto& spring = m.add<translational::Spring>("spring", {{"s_rel0", 1.0}, {"c", 500.0}});
  auto& fixed2 = m.add<translational::Fixed>("fixed2", {{"s0", -1.75}});
  auto& force2 = m.add<translational::Force>("force2");
  auto& mass = m.add<translational::Mass>("mass", {{"m", 1.0}});
  auto& support = m.add<translational::SupportFriction>("supportFriction");
  // MSL's GenerateStribeckFrictionTable(F_prop = 1, F_Coulomb = 5, F_Stribeck = 10, fexp = 2, v_max = 12, nTable = 50).
  std::vector<std::pair<double, double>> table;
  for (int i = 0; i < 50; ++i) {
    const double v = 12.0 * i / 49;
    table.emplace_back(v, 5.0 + v + 10.0 * std::exp(-2.0 * v));
  }
  support.set_f_pos(table);
  m.connect(spring.flange_b, stop2.flange_a);
  m.connect(sineForce.y, force.f);
  m.connect(spring.flange_a, fixed2.flange);
  m.connect(force.flange, stop1.flange_a);
  m.connect(force2.flange, mass.flange_a);
  m.connect(mass.flange_b, support.flange_a);
  m.connect(sineForce.y, force2.f);
  for (auto [name, v] : {std::pair{"stop1", 0.0}, std::pair{"stop2", -5.0}, std::pair{"mass", 0.0}}) {
    m.set_start(std::string(name) + ".s", 0.0);
    m.set_start(std::string(name) + ".v", v);
  }
  harness::EnergyBooks books(m);
  Simulator sim = m.compile();
  Result r = sim.simulate(msl_run(5.0));
  compare_with_reference(r, "Translational_Friction.csv", modes_of({"stop1", "stop2", "supportFriction"}));
  check_books(books, r, {"stop1", "stop2", "supportFriction"});
  CHECK(r["stop2.W_impacts"].back() == Approx(0.5 * 1.0 * 6.1057 * 6.1057).epsilon(1e-3));  // one impact, at 6.1 m/s
}

}  // namespace test_msl_friction
