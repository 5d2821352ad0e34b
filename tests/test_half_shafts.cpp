// Compliant half-shafts as an option of the car family (issue 35, item 3):
// the driveline shuffle mode in linearize() against a hand-reduced
// two-inertia model, the same mode in a tip-in, the rigid default unchanged,
// the energy books closed with the shafts.
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>

#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include <acausal/harness/rigs.hpp>

#include "support.hpp"

namespace test_half_shafts {

using namespace acausal;
using namespace acausal::vehicle;
using test::run_for;

namespace {

// Per shaft: a passenger car's stiffness and a low damping, so the shuffle
// mode oscillates (ζ ≈ 0.05 with the tires' slip damping at 14 m/s).
constexpr double k_shaft = 8000.0, d_shaft = 5.0;
// The operating point: 14 m/s, second gear (the GearSelector's band is
// 12…20 m/s; the tip-in below stays in it), clutch engaged, throttle 0.2,
// then the tip-in to 0.7 at t_tip. At throttle 0.2 the car accelerates
// slowly (quasi-steady): linearize() takes the row as it is.
constexpr double v0 = 14.0, t_tip = 0.5, throttle_before = 0.2, throttle_after = 0.7;

const CarOptions compliant{.half_shaft_stiffness = k_shaft, .half_shaft_damping = d_shaft};


/// The car rolling at v0 in the selector's gear with the engine at the
/// gear's speed (as PlanarCar::set_initial_speed), throttle stepped at t_tip.
template <class Car>
Car& tip_in(Model& m, CarOptions options) {
  auto& car = m.add<Car>("car", {}, options);
  auto& throttle = m.add<blocks::Step>(
      "throttle", {{"offset", throttle_before}, {"height", throttle_after - throttle_before}, {"startTime", t_tip}});
  auto& clutch = m.add<blocks::Constant>("clutch", {{"k", 1.0}});
  auto& brake = m.add<blocks::Constant>("brake", {{"k", 0.0}});
  m.connect(throttle.y, car.throttle);
  m.connect(clutch.y, car.clutch_pedal);
  m.connect(brake.y, car.brake_pedal);
  car.set_start("body.v", v0);
  for (const char* corner : {"fl", "fr", "rl", "rr"})
    car.set_start(std::string("wheel_") + corner + ".omega", v0 / radius_from_tire_size("205/55R16"));
  car.set_start("gearbox.w_in", 0.0, false);
  car.set_start("engine.w", 100.0, false);
  car.initial_equation(car.gearbox.w_in == car.gearbox.ratio * car.gearbox.w_out);
  car.initial_equation(car.engine.w == car.gearbox.w_in);
  return car;
}

/// The hand-reduced two-inertia model of the shuffle mode [Hz], referred to
/// the wheels' speed. Engine side: the engine's and the gearbox input
/// shaft's inertias (the clutch, locked, has none) times the overall ratio²
/// R² = (gearbox.ratio·differential.ratio)², times the gearbox's and the
/// differential's efficiencies (the engine drives: the wheels get η·R times
/// the engine's torque at 1/R its speed, so its inertia acts as η·J·R²).
/// Vehicle side: m·r² plus the four wheels' inertias (the tires' slip
/// stiffness ties wheels and body together far above the shuffle frequency).
/// Between them the two half-shafts in parallel, k_total = 2·c (each shaft
/// turns at its wheel's speed: no referral). The synchronizer's tanh (3000
/// N.m/(rad/s)) counts as rigid, and the dampings are left out:
///   f = sqrt(k_total·(1/J_engine_side + 1/J_vehicle_side))/(2π).
double two_inertia_hz(const Simulator& sim, const OperatingPoint& point) {
  const auto p = values_at(sim, point,
                           {"car.engine.J", "car.gearbox.J_in", "car.gearbox.ratio", "car.gearbox.efficiency",
                            "car.differential.ratio", "car.differential.efficiency", "car.body.m",
                            "car.wheel_fl.radius", "car.wheel_fl.J", "car.wheel_fr.J", "car.wheel_rl.J",
                            "car.wheel_rr.J", "car.half_shaft_left.c", "car.half_shaft_right.c"});
  const double R = p[2] * p[4];
  const double J_engine_side = (p[0] + p[1]) * R * R * p[3] * p[5];
  const double J_vehicle_side = p[6] * p[7] * p[7] + p[8] + p[9] + p[10] + p[11];
  const double k_total = p[12] + p[13];
  return std::sqrt(k_total * (1.0 / J_engine_side + 1.0 / J_vehicle_side)) / (2.0 * std::numbers::pi);
}

/// The row of r nearest to t (linearize() wants a row's own time).
double row_time(const Result& r, double t) {
  double best = r.time().front();
  for (double x : r.time())
    if (std::fabs(x - t) < std::fabs(best - t)) best = x;
  return best;
}

template <class Car>
void shuffle_mode_matches_hand_model(const std::string& driven_left) {
  Model m("tip_in");
  tip_in<Car>(m, compliant);
  Simulator sim = m.compile();
  const Result r = sim.simulate(run_for(t_tip - 0.05, 1e-3));
  const double t = row_time(r, t_tip - 0.1);
  REQUIRE(r["car.gearbox.ratio"].back() == Approx(2.1));  // second gear
  CHECK(std::fabs(r["car.clutch.w_rel"].back()) < 1e-6);  // the clutch is locked
  const double f_hand = two_inertia_hz(sim, r.point(t));
  const auto found = modes(linearize(r, t));
  const LinearMode* shuffle = nullptr;
  for (const LinearMode& mode : found) {
    INFO(to_string(mode.kind) << " " << mode.frequency_hz << " Hz, ζ " << mode.damping_ratio);
    if (mode.kind == ModeKind::oscillating &&
        (!shuffle || std::fabs(mode.frequency_hz - f_hand) < std::fabs(shuffle->frequency_hz - f_hand)))
      shuffle = &mode;
  }
  INFO("two-inertia model: " << f_hand << " Hz; driven " << driven_left);
  REQUIRE(shuffle != nullptr);
  INFO("shuffle mode: " << shuffle->frequency_hz << " Hz, ζ " << shuffle->damping_ratio << ", led by "
                        << (shuffle->dominant_states.empty() ? "?" : shuffle->dominant_states[0].first));
  CHECK(std::fabs(shuffle->frequency_hz - f_hand) <= 0.02 * f_hand);
  CHECK(shuffle->damping_ratio > 0.0);
  CHECK(shuffle->damping_ratio < 0.3);  // underdamped: it rings
  CHECK(f_hand > 2.0);                  // a shuffle's 2…8 Hz
  CHECK(f_hand < 8.0);
}

}  // namespace

TEST_CASE("Half-shafts: the shuffle frequency from linearize() is the two-inertia model's within 2 %",
          "[vehicle][car][half_shafts][analysis]") {
  SECTION("rear drive") { shuffle_mode_matches_hand_model<RearDriveCar>("wheel_rl"); }
  SECTION("front drive") { shuffle_mode_matches_hand_model<FrontDriveCar>("wheel_fl"); }
}

TEST_CASE("Half-shafts: a tip-in rings at the shuffle frequency (zero crossings of w_engine/R - w_wheel)",
          "[vehicle][car][half_shafts]") {
  Model m("tip_in");
  tip_in<RearDriveCar>(m, compliant);
  Simulator sim = m.compile();
  const Result r = sim.simulate(run_for(t_tip + 1.2, 1e-3));
  const double f_hand = two_inertia_hz(sim, r.point(row_time(r, t_tip - 0.1)));
  const auto& time = r.time();
  const auto w_engine = r["car.engine.w"], ratio = r["car.gearbox.ratio"];
  const auto w_rl = r["car.wheel_rl.omega"], w_rr = r["car.wheel_rr.omega"];
  const double final_drive = values_at(sim, r.point(time.back()), {"car.differential.ratio"})[0];
  for (double g : ratio) REQUIRE(g == Approx(2.1));  // no shift during the run
  // The shafts' mean twist rate (the synchronizer's slip, ~1e-2 rad/s, aside).
  std::vector<double> twist_rate(r.size());
  for (std::size_t k = 0; k < r.size(); ++k)
    twist_rate[k] = w_engine[k] / (ratio[k] * final_drive) - 0.5 * (w_rl[k] + w_rr[k]);
  // Upward zero crossings after the tip-in: the period from crossings of one
  // direction is free of the slip's offset.
  std::vector<double> up;
  for (std::size_t k = 1; k < r.size(); ++k)
    if (time[k - 1] > t_tip + 1e-9 && twist_rate[k - 1] < 0.0 && twist_rate[k] >= 0.0)
      up.push_back(time[k - 1] + (time[k] - time[k - 1]) * (-twist_rate[k - 1]) / (twist_rate[k] - twist_rate[k - 1]));
  INFO("two-inertia model " << f_hand << " Hz; " << up.size() << " upward crossings");
  REQUIRE(up.size() >= 4);
  const double period = (up.back() - up.front()) / static_cast<double>(up.size() - 1);
  INFO("period " << period << " s, 1/f " << 1.0 / f_hand << " s");
  CHECK(std::fabs(period - 1.0 / f_hand) <= 0.05 / f_hand);
  // The car still drives forward: the tip-in accelerates it.
  CHECK(r["car.body.v"].back() > v0 + 1.0);
}

TEST_CASE("Half-shafts: stiffness 0 (the default) is the rigid car, identical to the car without the option",
          "[vehicle][car][half_shafts]") {
  auto launch = [](CarOptions options) {
    Model m("car");
    auto& car = m.add<RearDriveCar>("car", {}, options);
    CHECK(car.child("half_shaft_left") == nullptr);
    CHECK(car.child("half_shaft_right") == nullptr);
    harness::drive_launch(m, car, 1.0, 12.0);
    return m.compile().simulate(run_for(4.0, 0.01, 1e-6));
  };
  const Result plain = launch({});
  const Result zero = launch({.half_shaft_stiffness = 0.0, .half_shaft_damping = 0.0});
  REQUIRE(plain.size() == zero.size());
  const auto a = plain["car.body.v"], b = zero["car.body.v"];
  for (std::size_t k : {plain.size() / 4, plain.size() / 2, plain.size() - 1}) {
    INFO("t = " << plain.time()[k]);
    CHECK(std::fabs(a[k] - b[k]) <= 1e-12 * std::max(1.0, std::fabs(a[k])));
  }
  // Damping without a stiffness, or a negative value, is a modeling error.
  Model bad("bad");
  CHECK_THROWS_AS(bad.add<RearDriveCar>("car", {}, CarOptions{.half_shaft_damping = 5.0}), ModelError);
  CHECK_THROWS_AS(bad.add<FrontDriveCar>("car2", {}, CarOptions{.half_shaft_stiffness = -1.0}), ModelError);
}

TEST_CASE("Half-shafts: the car's energy books close with the shafts through a tip-in", "[vehicle][car][half_shafts][energy]") {
  Model m("tip_in");
  auto& car = tip_in<RearDriveCar>(m, compliant);
  REQUIRE(car.child("half_shaft_left") != nullptr);
  REQUIRE(car.child("half_shaft_right") != nullptr);
  harness::EnergyBooks books(m);
  const Result r = m.compile().simulate(run_for(t_tip + 1.0, 0.005, 1e-7));
  test::books_close(books, r, 1e-4);
}

TEST_CASE("Half-shafts: the battery-electric car takes the option too", "[vehicle][car][half_shafts]") {
  Model m("ev");
  auto& car = m.add<BatteryElectricCar>("car", {}, compliant);
  CHECK(car.child("half_shaft_left") != nullptr);
  CHECK(car.child("half_shaft_right") != nullptr);
}

}  // namespace test_half_shafts
