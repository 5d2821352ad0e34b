// The vehicle library's Brake and Clutch with friction = locking: they hold
// exactly below their capacity and slide at it above (FrictionModes), and
// their energy books close with nothing dissipated while they hold.
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>

#include <algorithm>
#include <cmath>
#include <string>

#include "tests/flat_car.hpp"
#include "harness/energy.hpp"
#include "tests/support.hpp"

namespace test_locking_friction {

using namespace acausal;

namespace {

constexpr double g = 9.81;

// A car parked on a grade, held by a locking brake on its rear axle. The tires
// are ideal rolling wheels (v = ω·r) on a rigid normal support: a rigid rig,
// since today's tire law creeps at standstill (the tire issue gives it
// compliance). One brake only: two locked brakes on one rigid body would share
// the holding torque in a way nothing determines (the tires' compliance does,
// in a real car), and the stuck system would be singular.
struct ParkedCar {
  Model m{"parked"};
  vehicle::VehicleBody* body = nullptr;
  double J_wheel = 1.2, radius = 0.3;

  ParkedCar(double grade, double pedal, double tau_max) {
    body = &m.add<vehicle::VehicleBody>("body", {{"m", 1500.0}, {"grade", grade}});
    auto& input = m.add<blocks::Constant>("pedal", {{"k", pedal}});
    for (const std::string axle : {"front", "rear"}) {
      auto& breakout = m.add<vehicle::WheelContactBreakout>("contact_" + axle);
      auto& ground = m.add<translational::Fixed>("ground_" + axle);
      auto& rolling = m.add<rotational::IdealRollingWheel>("rolling_" + axle, {{"radius", radius}});
      auto& wheel = m.add<rotational::Inertia>("wheel_" + axle, {{"J", J_wheel}});
      m.connect(axle == "front" ? body->contact_front : body->contact_rear, breakout.contact);
      m.connect(breakout.flange_normal, ground.flange);
      m.connect(breakout.flange_traction, rolling.flangeT);
      if (axle == "front") {
        m.connect(rolling.flangeR, wheel.flange_a);
        continue;
      }
      auto& brake = m.add<vehicle::Brake>("brake", {{"tau_max", tau_max}, {"friction", vehicle::FrictionLaw::locking}});
      m.connect(rolling.flangeR, brake.flange_a);
      m.connect(brake.flange_b, wheel.flange_a);
      m.connect(input.y, brake.brake_input);
    }
    m.set_start("body.s", 0.0);
    m.set_start("body.v", 0.0);
  }
};

}  // namespace

TEST_CASE("A car parked on a 10 % grade with locking brakes does not move in an hour", "[friction][vehicle]") {
  const double grade = std::atan(0.1);
  // The torque that holds it: m·g·sin(θ)·r; the brake can give 13 times that.
  const double needed = 1500.0 * g * std::sin(grade) * 0.3;
  ParkedCar car(grade, 1.0, 13 * needed);
  Simulator sim = car.m.compile();
  INFO(sim.report().str());
  SimulationOptions o = test::run_for(3600.0, 60.0, 1e-8);
  Result r = sim.simulate(o);
  auto s = r["body.s"], tau = r["brake.tau"];
  double moved = 0;
  for (double x : s) moved = std::max(moved, std::fabs(x));
  CHECK(moved < 1e-6);
  // The brake carries the slope force (a locked torque, below its capacity).
  CHECK(std::fabs(tau.back()) == Approx(needed).epsilon(1e-6));
  CHECK(r["brake.locked"].back() == 1.0);
}

TEST_CASE("The same car with its brakes released rolls off at g·sin(θ) less the wheels' inertia",
          "[friction][vehicle]") {
  const double grade = std::atan(0.1);
  ParkedCar car(grade, 0.0, 1000.0);
  Result r = car.m.compile().simulate(test::run_for(1.0, 0.01, 1e-10));
  // From rest: no drag, no rolling resistance (it is tanh-smoothed to 0 at v = 0).
  const double m_equivalent = 1500.0 + 2 * car.J_wheel / (car.radius * car.radius);  // two wheels
  const double expected = -1500.0 * g * std::sin(grade) / m_equivalent;
  CHECK(r["body.a_x"].front() == Approx(expected).epsilon(1e-6));
  CHECK(r["body.v"].back() < 0.5 * expected);  // rolling backwards, slower only by the resistances
}

namespace {

// A torque into J1, through a locking clutch into J2 (J1 = J2 = 1): locked,
// the clutch carries half the torque. The books outlive the model: they read the result.
struct ClutchRun {
  harness::EnergyBooks books;
  Result result;
};

ClutchRun clutch_rig(double load) {
  Model m("clutch_rig");
  auto& source = m.add<rotational::ConstantTorque>("source", {{"tau_constant", 2 * load * 400.0}});
  auto& J1 = m.add<rotational::Inertia>("J1", {{"J", 1.0}});
  auto& clutch = m.add<vehicle::Clutch>("clutch", {{"tau_max", 400.0}, {"friction", vehicle::FrictionLaw::locking}});
  auto& J2 = m.add<rotational::Inertia>("J2", {{"J", 1.0}});
  auto& pedal = m.add<blocks::Constant>("engaged", {{"k", 1.0}});
  m.connect(source.flange, J1.flange_a);
  m.connect(J1.flange_b, clutch.flange_a);
  m.connect(clutch.flange_b, J2.flange_a);
  m.connect(pedal.y, clutch.engagement_input);
  m.set_start("J1.phi", 0.0);
  m.set_start("J1.w", 0.0);
  m.set_start("J2.phi", 0.0);
  m.set_start("J2.w", 0.0);
  harness::EnergyBooks books(m);
  Result r = m.compile().simulate(test::run_for(2.0, 0.01, 1e-8));
  return {std::move(books), std::move(r)};
}

}  // namespace

TEST_CASE("A locking clutch at 60 % of its capacity holds exactly, at 110 % it slips at its capacity",
          "[friction][vehicle]") {
  {
    const auto [books, r] = clutch_rig(0.6);
    auto w_rel = r["clutch.w_rel"], tau = r["clutch.tau"], W = r["clutch.energy.W_dissipated"];
    for (std::size_t k = 0; k < r.size(); ++k) {
      CHECK(std::fabs(w_rel[k]) < 1e-9);
      CHECK(std::fabs(tau[k]) == Approx(0.6 * 400.0).epsilon(1e-9));
      CHECK(std::fabs(W[k]) < 1e-9);  // nothing dissipated while it holds
    }
    CHECK(books.components_close(1e-6).evaluate(r).passed);
  }
  {
    const auto [books, r] = clutch_rig(1.1);
    auto w_rel = r["clutch.w_rel"], tau = r["clutch.tau"], P = r["clutch.P_dissipated"];
    for (std::size_t k = 1; k < r.size(); ++k) {
      CHECK(std::fabs(tau[k]) == Approx(400.0).epsilon(1e-6));
      CHECK(P[k] >= 0.0);
    }
    // J1 gets 880 - 400, J2 gets 400: w_rel = w2 - w1 = -80·t.
    CHECK(w_rel.back() == Approx(-80.0 * 2.0).epsilon(1e-6));
    const auto books_check = books.components_close(1e-6).evaluate(r);
    INFO(books_check.message);
    CHECK(books_check.passed);
  }
}

TEST_CASE("The flagship car's engaged clutch turns both sides together exactly, and the stopped car stays",
          "[friction][vehicle]") {
  Model m("launch");
  test::build_rear_drive_car(m);
  SimulationOptions opt = test::run_for(20.0, 0.01, 1e-7);
  Result r = m.compile().simulate(opt);
  auto c = r.columns({"clutch.w_rel", "clutch.locked", "clutch.tau", "body.v", "body.s"});
  double locked_for = 0, worst_slip = 0, most_torque = 0;
  for (std::size_t k = 1; k < r.size(); ++k)
    if (c[1][k] == 1.0) {
      locked_for += r.time()[k] - r.time()[k - 1];
      worst_slip = std::max(worst_slip, std::fabs(c[0][k]));
      most_torque = std::max(most_torque, std::fabs(c[2][k]));
    }
  // Held between the shifts, carrying most of its capacity (the smooth law
  // slipped 0.45 rad/s there).
  CHECK(locked_for > 8.0);
  CHECK(most_torque > 0.9 * 400.0);  // of its tau_max
  CHECK(worst_slip < 1e-9);
  // Braked to a stop by 16 s, the car then stands.
  const std::size_t at_16 = std::lower_bound(r.time().begin(), r.time().end(), 16.0) - r.time().begin();
  CHECK(std::fabs(c[3].back()) < 1e-9);
  CHECK(std::fabs(c[4].back() - c[4][at_16]) < 1e-9);
}

}  // namespace test_locking_friction
