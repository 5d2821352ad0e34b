// Two Modelica Standard Library (MSL 4.0.0) examples that a run once ended as
// "chattering" (issue 30), rebuilt with our components and compared with their
// reference results (tests/data/msl/README_chattering.md: MAP-LIB, Dymola,
// DASSL at 1e-6), every signal within 1e-3 of its range as in the other MSL
// tests. Both have relations that read a derivative: they must read the exact
// one (from the equations), never IDA's interpolated y', and a switch whose two
// sides agree (a clamp) is no chattering.
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>

#include <string>
#include <vector>

#include "msl_reference.hpp"
#include "support.hpp"

namespace test_msl_chattering {

using namespace acausal;
using namespace acausal::test;

namespace {

// MSL Blocks.Continuous.Der: y = der(u).
struct Der : Component {
  RealInput u{*this, "u"};
  RealOutput y{*this, "y"};
  explicit Der(std::string name) : Component(std::move(name)) { equation(y == der(u)); }
};

// MSL Rotational.Components.IdealPlanetary: ratio = ring teeth / sun teeth;
// (1 + ratio)·phi_carrier = phi_sun + ratio·phi_ring, no losses.
struct IdealPlanetary : Component {
  rotational::Flange sun{*this, "sun"}, carrier{*this, "carrier"}, ring{*this, "ring"};
  Parameter ratio = parameter("ratio", 100.0 / 50.0);
  explicit IdealPlanetary(std::string name) : Component(std::move(name)) {
    equation((1 + ratio) * carrier.phi == sun.phi + ratio * ring.phi);
    equation(ring.tau == ratio * sun.tau);
    equation(carrier.tau == -(1 + ratio) * sun.tau);
  }
};

}  // namespace

// A step of the position is smoothed by a velocity limit, whose output is
// differentiated (Der) and fed to an acceleration limit: limit_a's clamp reads
// der(limit_v.y). It ended at 0.6 s, where limit_v leaves its limit, with
// "... switched 101 times without time advancing".
TEST_CASE("MSL Blocks.Examples.SlewRateLimiter: a velocity limit feeding an acceleration limit",
          "[msl][hybrid][events]") {
  Model m("SlewRateLimiter");
  auto& positionStep = m.add<blocks::Step>("positionStep", {{"startTime", 0.1}});
  auto& limit_v = m.add<blocks::SlewRateLimiter>("limit_v", {{"Rising", 2.0}, {"Falling", -2.0}, {"Td", 1e-4}});
  auto& v = m.add<Der>("v");
  auto& limit_a = m.add<blocks::SlewRateLimiter>("limit_a", {{"Rising", 20.0}, {"Falling", -20.0}, {"Td", 1e-4}});
  auto& positionSmoothed = m.add<blocks::Integrator>("positionSmoothed");
  auto& a = m.add<Der>("a");
  m.connect(positionStep.y, limit_v.u);
  m.connect(limit_v.y, v.u);
  m.connect(v.y, limit_a.u);
  m.connect(limit_a.y, positionSmoothed.u);
  m.connect(limit_a.y, a.u);
  Simulator sim = m.compile();
  INFO(sim.report().str());
  Result r = sim.simulate(run_for(1.0, 5e-4, 1e-8));
  compare_with_reference(r, "Blocks_SlewRateLimiter.csv");
  // The clamps are continuous: each switch is one event, never a cluster.
  CHECK(r.event_times().size() < 20);
}

// A planetary gear whose ring a Brake holds, a disengaged Clutch across sun
// and ring, a quadratic load on the carrier; at 2 s the brake releases and
// the clutch engages. The stuck brake's speed is a sum of states that cancel
// to rounding; it ended at 0.51 s with "... switched 200 times within 2.9e-08 s".
TEST_CASE("MSL Rotational.Examples.SimpleGearShift: a brake holds a planetary ring, then a clutch locks it",
          "[msl][hybrid][friction]") {
  Model m("SimpleGearShift");
  auto& torqueStep =
      m.add<rotational::TorqueStep>("torqueStep", {{"offsetTorque", 0.0}, {"startTime", 0.5}, {"stepTorque", 20.0}});
  auto& engine = m.add<rotational::Inertia>("engine", {{"J", 1.0}});
  auto& planetary = m.add<IdealPlanetary>("idealPlanetary", {{"ratio", 75.0 / 50.0}});
  auto& load = m.add<rotational::Inertia>("load", {{"J", 10.0}});
  auto& quadratic = m.add<rotational::QuadraticSpeedDependentTorque>(
      "quadraticSpeedDependentTorque", {{"w_nominal", 10.471975511966}, {"tau_nominal", -20.0}});
  auto& clutch = m.add<rotational::Clutch>("clutch", {{"cgeo", 2.0}, {"fn_max", 100.0}});
  auto& brake = m.add<rotational::Brake>("brake", {{"cgeo", 2.0}, {"fn_max", 100.0}});
  auto& feedback = m.add<blocks::Feedback>("feedback");
  auto& const1 = m.add<blocks::Constant>("const1", {{"k", 1.0}});
  auto& ramp = m.add<blocks::Ramp>("ramp", {{"height", 1.0}, {"offset", 0.0}, {"startTime", 2.0}, {"duration", 0.1}});
  m.connect(torqueStep.flange, engine.flange_a);
  m.connect(quadratic.flange, load.flange_b);
  m.connect(feedback.y, brake.f_normalized);
  m.connect(engine.flange_b, planetary.sun);
  m.connect(planetary.sun, clutch.flange_a);
  m.connect(planetary.ring, clutch.flange_b);
  m.connect(planetary.ring, brake.flange_a);
  m.connect(planetary.carrier, load.flange_a);
  m.connect(const1.y, feedback.u1);
  m.connect(ramp.y, feedback.u2);
  m.connect(ramp.y, clutch.f_normalized);
  m.set_start("load.phi", 0.0);
  m.set_start("load.w", 0.0);
  m.set_start("clutch.phi_rel", 0.0);
  m.set_start("clutch.w_rel", 0.0);
  Simulator sim = m.compile();
  INFO(sim.report().str());
  Result r = sim.simulate(run_for(5.0, 5e-3, 1e-8));
  std::vector<std::string> discrete;
  for (const char* c : {"brake", "clutch"})
    for (const char* s : {".mode", ".startForward", ".startBackward"}) discrete.push_back(std::string(c) + s);
  compare_with_reference(r, "Rotational_SimpleGearShift.csv", discrete);
  // Held, the ring does not turn: the brake stays stuck from 0 to 2 s, with no event between 0.5 s and 2 s.
  auto mode = r["brake.mode"];
  for (std::size_t k = 0; k < r.size(); ++k)
    if (r.time()[k] < 2.0) CHECK(mode[k] == 0.0);
  for (double t : r.event_times()) CHECK(!(t > 0.5 + 1e-9 && t < 2.0 - 1e-9));
}

}  // namespace test_msl_chattering
