// An engine that can stall (issue 35, item 3): a clutch dropped with too
// little throttle drags the engine below w_stall, it stops making torque and
// stops; the flagship launch does not stall it; a Starter cranks a stalled
// engine back to life above w_fire.
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>

#include <algorithm>
#include <cmath>
#include <string>

#include "harness/rigs.hpp"
#include "support.hpp"

namespace test_engine_stall {

using namespace acausal;
using namespace acausal::test;

namespace {

/// The flagship car with a constant throttle and the clutch engaged over
/// `clutch_time` from 0.5 s (released again at `declutch_time`); no brake.
vehicle::RearDriveCar& launch(Model& m, double throttle, double clutch_time, double declutch_time) {
  auto& car = m.add<vehicle::RearDriveCar>("car");
  auto& throttle_source = m.add<blocks::Constant>("throttle", {{"k", throttle}});
  auto& engage = m.add<blocks::Ramp>("engage", {{"height", 1.0}, {"duration", clutch_time}, {"startTime", 0.5}});
  auto& release = m.add<blocks::Step>("release", {{"height", -1.0}, {"startTime", declutch_time}});
  auto& clutch = m.add<blocks::Add>("clutch");
  auto& brake = m.add<blocks::Constant>("brake", {{"k", 0.0}});
  m.connect(engage.y, clutch.u1);
  m.connect(release.y, clutch.u2);
  m.connect(throttle_source.y, car.throttle);
  m.connect(clutch.y, car.clutch_pedal);
  m.connect(brake.y, car.brake_pedal);
  return car;
}

/// The first row at or after `from` where `column` is `value` (an event's right limit), or r.size().
std::size_t first_row(const Result& r, const std::vector<double>& column, double value, std::size_t from = 0) {
  for (std::size_t k = from; k < r.size(); ++k)
    if (column[k] == value) return k;
  return r.size();
}

}  // namespace

TEST_CASE("Engine stall: a clutch dropped at 10 % throttle drags the engine below w_stall, stalled it makes no "
          "torque, the stall is an event naming w_stall, and car and engine come to rest",
          "[vehicle][stall]") {
  Model m("stall");
  launch(m, 0.1, 0.3, 1e9);
  Result r = compile_checked(m).simulate(run_for(10.0, 0.01, 1e-8));
  const auto running = r["car.engine.running"], w = r["car.engine.w"], drive = r["car.engine.tau_drive"],
             v = r["car.body.v"];
  const std::size_t stall = first_row(r, running, 0.0);
  REQUIRE(stall < r.size());
  const double t_stall = r.time()[stall];
  INFO("stalled at " << t_stall << " s");
  REQUIRE(t_stall > 0.5);
  const double w_stall = 250.0 * 3.141592653589793 / 30.0;
  bool named = false;
  for (std::size_t k = 0; k < r.event_times().size(); ++k)
    if (std::fabs(r.event_times()[k] - t_stall) < 1e-6 && r.event_causes()[k].find("w_stall") != std::string::npos)
      named = true;
  CHECK(named);
  // The stall happens where the speed crosses w_stall (the crossing is located, not stepped over).
  CHECK(w[stall] == Approx(w_stall).epsilon(1e-6));
  for (std::size_t k = stall; k < r.size(); ++k) {
    CHECK(running[k] == 0.0);  // nothing restarts it
    CHECK(drive[k] == 0.0);
  }
  // Engaged with a dead engine the car is braked by the engine's friction: both stop.
  CHECK(std::fabs(w.back()) < 1.0);
  CHECK(std::fabs(v.back()) < 0.05);
}

TEST_CASE("Engine stall: the flagship's full-throttle launch (clutch over 1 s) lugs the engine but does not stall it",
          "[vehicle][stall]") {
  Model m("flagship");
  auto& car = m.add<vehicle::RearDriveCar>("car");
  harness::drive_launch(m, car);
  Result r = compile_checked(m).simulate(run_for(10.0, 0.01, 1e-8));
  const auto running = r["car.engine.running"], rpm = r["car.engine.rpm"];
  INFO("lowest engine speed " << *std::min_element(rpm.begin(), rpm.end()) << " rpm");
  CHECK(first_row(r, running, 0.0) == r.size());
  CHECK(*std::min_element(rpm.begin(), rpm.end()) > 250.0);
}

TEST_CASE("Engine stall: declutched after the stall, a Starter cranks the engine, it fires at w_fire and runs on",
          "[vehicle][stall]") {
  Model m("restart");
  auto& car = launch(m, 0.1, 0.3, 3.0);
  auto& starter = m.add<vehicle::Starter>("starter");
  auto& key_on = m.add<blocks::Step>("key_on", {{"height", 1.0}, {"startTime", 4.0}});
  auto& key_off = m.add<blocks::Step>("key_off", {{"height", -1.0}, {"startTime", 5.0}});
  auto& key = m.add<blocks::Add>("key");
  m.connect(key_on.y, key.u1);
  m.connect(key_off.y, key.u2);
  m.connect(key.y, starter.on_input);
  m.connect(starter.flange, car.engine.flange);
  Result r = compile_checked(m).simulate(run_for(8.0, 0.01, 1e-8));
  const auto running = r["car.engine.running"], w = r["car.engine.w"];
  const std::size_t stall = first_row(r, running, 0.0), fire = first_row(r, running, 1.0, stall);
  REQUIRE(stall < r.size());
  REQUIRE(fire < r.size());
  const double t_stall = r.time()[stall], t_fire = r.time()[fire];
  INFO("stalled at " << t_stall << " s, fired at " << t_fire << " s");
  REQUIRE(t_stall > 0.5);
  REQUIRE(t_stall < 3.0);
  REQUIRE(t_fire > 4.0);
  CHECK(t_fire < 5.0);  // cranked up to 300 rpm within the second the key is held
  const double w_fire = 300.0 * 3.141592653589793 / 30.0;
  CHECK(w[fire] == Approx(w_fire).epsilon(1e-6));
  // Running on its own after the key is released: 10 % throttle holds it well above w_stall, declutched.
  CHECK(running.back() == 1.0);
  CHECK(w.back() > 2.0 * w_fire);
}

}  // namespace test_engine_stall
