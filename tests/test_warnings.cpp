// The compile report's warnings (issue 36, item 6): mistakes compile() accepts
// but a user would not mean, each named by kind, component and variable.
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>
#include <acausal/harness/rigs.hpp>

#include <algorithm>

namespace test_warnings {

using namespace acausal;
using Catch::Matchers::Contains;

namespace {

std::vector<const CompileWarning*> of_kind(const CompileReport& r, const std::string& kind) {
  std::vector<const CompileWarning*> out;
  for (const auto& w : r.warnings)
    if (w.kind == kind) out.push_back(&w);
  return out;
}

// A wheel on a carrier mass; `loaded` pushes the contact's normal axis down with 4000 N.
CompileReport quarter_car(bool loaded) {
  Model m("quarter");
  auto& wheel = m.add<vehicle::Wheel>("wheel");
  auto& breakout = m.add<vehicle::WheelContactBreakout>("breakout");
  auto& carrier = m.add<translational::Mass>("carrier", {{"m", 400.0}});
  m.connect(wheel.contact, breakout.contact);
  m.connect(breakout.flange_traction, carrier.flange_a);
  if (loaded) {
    auto& load = m.add<translational::ConstantForce>("load", {{"f_constant", -4000.0}});
    m.connect(breakout.flange_normal, load.flange);
  }
  m.set_start("carrier.v", 20.0);
  m.set_start("carrier.s", 0.0);
  m.set_start("wheel.omega", 20.0 / 0.3);
  m.set_start("wheel.phi", 0.0);
  return m.compile().report();
}

}  // namespace

TEST_CASE("a state whose start nobody set is a default_start warning naming it", "[warnings]") {
  Model m("spin");
  auto& inertia = m.add<rotational::Inertia>("inertia");
  auto& drive = m.add<rotational::ConstantTorque>("drive");
  m.connect(drive.flange, inertia.flange_a);
  m.set_start("inertia.phi", 0.0);
  Simulator sim = m.compile();
  auto ws = of_kind(sim.report(), "default_start");
  REQUIRE(ws.size() == 1);
  CHECK(ws[0]->variable == "inertia.w");
  CHECK(ws[0]->component == "inertia");
  CHECK_THAT(ws[0]->message, Contains("inertia.w") && Contains("set_start"));
  CHECK_THAT(sim.report().str(), Contains("[default_start]"));

  m.set_start("inertia.w", 0.0, false);  // 0 on purpose, still free for the initialization
  CHECK(of_kind(m.compile().report(), "default_start").empty());
}

TEST_CASE("a unit contradiction is a warning by default and an error on request", "[warnings]") {
  Model m("units");
  auto& inertia = m.add<rotational::Inertia>("inertia");
  auto& drive = m.add<rotational::Torque>("drive");
  auto& mass = m.add<translational::Mass>("mass");
  m.connect(drive.flange, inertia.flange_a);
  m.equation(drive.tau == mass.flange_a.f);  // a torque set from a force
  const Simulator sim = m.compile();
  auto ws = of_kind(sim.report(), "unit");
  REQUIRE(ws.size() == 1);
  CHECK_THAT(ws[0]->variable, Contains("drive.tau") && Contains("mass.flange_a.f"));
  CHECK(ws[0]->component == "units");
  CHECK_THAT(ws[0]->message, Contains("N.m") && Contains("N (kg.m/s2)"));

  CompileOptions strict;
  strict.units = UnitCheck::error;
  CHECK_THROWS_AS(m.compile(strict), ModelError);
  CHECK_THROWS_WITH(m.compile(strict), Contains("1 unit inconsistency") && Contains("drive.tau") &&
                                           Contains("UnitCheck::error"));
}

TEST_CASE("a wheel without vertical load is a no_load warning naming the wheel", "[warnings]") {
  const CompileReport unloaded_report = quarter_car(false), loaded_report = quarter_car(true);
  auto unloaded = of_kind(unloaded_report, "no_load");
  REQUIRE(unloaded.size() == 1);
  CHECK(unloaded[0]->component == "wheel");
  CHECK(unloaded[0]->variable == "wheel.N");
  CHECK(of_kind(loaded_report, "no_load").empty());
  CHECK(loaded_report.warnings.empty());
}

TEST_CASE("a mass or inertia of zero is refused at compile, not left to IDA", "[warnings]") {
  Model m("zero");
  m.add<translational::Mass>("body", {{"m", 0.0}});
  CHECK_THROWS_WITH(m.compile(), Contains("body") && Contains("mass m must be positive"));
  Model r("zero_inertia");
  r.add<rotational::Inertia>("flywheel", {{"J", 0.0}});
  CHECK_THROWS_WITH(r.compile(), Contains("flywheel") && Contains("inertia J must be positive"));
}

TEST_CASE("the flagship car compiles without warnings", "[warnings]") {
  Model m("launch_and_brake");
  auto& car = m.add<vehicle::RearDriveCar>("car");
  harness::drive_launch(m, car, 1.0, 12.0);
  const CompileReport report = m.compile().report();
  INFO(report.str());
  CHECK(report.warnings.empty());
}

}  // namespace test_warnings
