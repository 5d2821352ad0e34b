// Driveline fidelity (issue 35, item 3): the torque converter (K(SR), TR(SR),
// lock-up clutch) and the clutch-type limited-slip differential (preload,
// torque bias ratio). Hand calculations at every output row, each with its
// tolerance stated, and energy books that close.
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

#include <acausal/harness/rigs.hpp>

#include "support.hpp"

namespace test_driveline_fidelity {

using namespace acausal;
using namespace acausal::test;

namespace {

constexpr double rpm = 30.0 / std::numbers::pi;

/// Linear interpolation in (x, y) points, held beyond the ends: by hand, not the library's table.
double interpolate(const std::vector<std::pair<double, double>>& points, double x) {
  if (x <= points.front().first) return points.front().second;
  if (x >= points.back().first) return points.back().second;
  std::size_t k = 1;
  while (points[k].first < x) ++k;
  const auto [x0, y0] = points[k - 1];
  const auto [x1, y1] = points[k];
  return y0 + (y1 - y0) * (x - x0) / (x1 - x0);
}

// The default tables, written out again (not read from the component).
const std::vector<std::pair<double, double>> K_points = {{0.0, 170}, {0.2, 171}, {0.4, 175}, {0.6, 185}, {0.7, 195},
                                                         {0.8, 215}, {0.85, 235}, {0.9, 280}, {0.95, 420}};
const std::vector<std::pair<double, double>> TR_points = {{0.0, 2.1}, {0.2, 1.85}, {0.4, 1.6}, {0.6, 1.35},
                                                          {0.7, 1.22}, {0.8, 1.08}, {0.85, 1.0}, {1.0, 1.0}};

/// The impeller torque by hand while the impeller drives (0 <= w_t < w_p):
/// (n_p/K(SR))², faded linearly to 0 between SR = 0.95 and 1.
double impeller_torque(double w_p, double w_t) {
  const double SR = w_t / w_p, fade = std::clamp((1.0 - SR) / (1.0 - 0.95), 0.0, 1.0);
  const double n_p = rpm * w_p, K = interpolate(K_points, SR);
  return fade * n_p * n_p / (K * K);
}

void books_close_within(const harness::EnergyBooks& books, const Result& r, double tolerance) {
  const auto parts = books.components_close(tolerance).evaluate(r);
  const auto whole = books.model_closes(tolerance).evaluate(r);
  INFO(parts.message << "\n" << whole.message);
  CHECK(parts.passed);
  CHECK(whole.passed);
}

}  // namespace

TEST_CASE("TorqueConverter: the default tables, stall torque ratio with the turbine held", "[vehicle][driveline]") {
  // The tables themselves: stall TR 2.1, coupling point 0.85 (TR = 1 from there on).
  CHECK(vehicle::TorqueConverter::default_torque_ratio_table() == TR_points);
  CHECK(vehicle::TorqueConverter::default_capacity_table() == K_points);

  // 150 N.m into the impeller (J 0.2), turbine held: at stall tau_t/tau_p = TR(0)
  // to 1e-9 at every row, and the impeller settles at the stall speed
  // n = K(0)·sqrt(150) rpm (1e-6 relative after 3 s, 20 time constants).
  Model m("stall");
  auto& tc = m.add<vehicle::TorqueConverter>("tc");
  auto& source = m.add<rotational::ConstantTorque>("source", {{"tau_constant", 150.0}});
  auto& impeller = m.add<rotational::Inertia>("impeller", {{"J", 0.2}});
  auto& ground = m.add<rotational::Fixed>("ground");
  auto& lockup = m.add<blocks::Constant>("lockup", {{"k", 0.0}});
  m.connect(source.flange, impeller.flange_a);
  m.connect(impeller.flange_b, tc.flange_a);
  m.connect(tc.flange_b, ground.flange);
  m.connect(lockup.y, tc.lockup_input);
  m.set_start("impeller.phi", 0.0);
  m.set_start("impeller.w", 50.0);
  harness::EnergyBooks books(m);
  Result r = compile_checked(m).simulate(run_for(3.0, 0.01));
  const auto tau_p = r["tc.tau_p"], tau_t = r["tc.tau_t"], w_p = r["tc.w_p"], SR = r["tc.SR"];
  for (std::size_t k = 0; k < r.size(); ++k) {
    CHECK(SR[k] == 0.0);
    CHECK(tau_t[k] / tau_p[k] == Approx(2.1).epsilon(1e-9));
  }
  CHECK(w_p.back() * rpm == Approx(170.0 * std::sqrt(150.0)).epsilon(1e-6));
  CHECK(r["tc.P_fluid"].back() == Approx(150.0 * w_p.back()).epsilon(1e-6));  // all of it heat
  books_close_within(books, r, 1e-5);
}

TEST_CASE("TorqueConverter: a launch follows the K-factor relation at every row, TR = 1 beyond the coupling point, "
          "lock-up removes the slip",
          "[vehicle][driveline]") {
  // 120 N.m into the impeller (J 0.2, idling at 80 rad/s), the turbine into
  // an inertia of 1 kg.m2 with a damper of 0.3 N.m.s/rad to ground; the
  // lock-up clutch (400 N.m) closes at t = 8 s.
  Model m("launch");
  auto& tc = m.add<vehicle::TorqueConverter>("tc");
  harness::rotational_rig(m, tc.flange_a, tc.flange_b, 120.0, 0.2, 1.0, 0.3);
  auto& lockup = m.add<blocks::Step>("lockup", {{"height", 1.0}, {"startTime", 8.0}});
  m.connect(lockup.y, tc.lockup_input);
  m.set_start("input.phi", 0.0);
  m.set_start("input.w", 80.0);
  m.set_start("output.phi", 0.0);
  m.set_start("output.w", 0.0);
  harness::EnergyBooks books(m);
  Result r = compile_checked(m).simulate(run_for(10.0, 0.01));
  const auto t = r.time();
  const auto w_p = r["tc.w_p"], w_t = r["tc.w_t"], tau_p = r["tc.tau_p"], tau_t = r["tc.tau_t"];
  const auto flange_a = r["tc.flange_a.tau"], locked = r["tc.locked"], P = r["tc.lossPower"];

  // The fluid law by hand at every row (unlocked, locked: there SR = 1 and it carries 0), 1e-6 of the torque.
  std::size_t coupling_rows = 0, locked_rows = 0;
  for (std::size_t k = 0; k < r.size(); ++k) {
    INFO("t = " << t[k] << ", w_p = " << w_p[k] << ", w_t = " << w_t[k]);
    REQUIRE(w_p[k] > 50.0);
    REQUIRE(w_t[k] >= 0.0);
    REQUIRE(w_t[k] <= w_p[k] + 1e-9);
    const double expected = w_t[k] < w_p[k] ? impeller_torque(w_p[k], w_t[k]) : 0.0;
    CHECK(std::fabs(tau_p[k] - expected) <= 1e-6 * std::max(1.0, std::fabs(expected)));
    if (t[k] < 8.0) CHECK(std::fabs(flange_a[k] - tau_p[k]) <= 1e-12 * std::max(1.0, std::fabs(tau_p[k])));
    const double SR = w_t[k] / w_p[k];
    CHECK(tau_t[k] == Approx(interpolate(TR_points, SR) * tau_p[k]).epsilon(1e-9).margin(1e-12));
    if (SR >= 0.85 && tau_p[k] > 1e-3) {
      ++coupling_rows;
      CHECK(tau_t[k] / tau_p[k] == Approx(1.0).epsilon(1e-9));  // coupling: TR = 1
    }
    CHECK(P[k] >= -1e-9);
    if (locked[k] > 0.5) {
      ++locked_rows;
      CHECK(std::fabs(w_p[k] - w_t[k]) < 1e-9);
    }
    if (t[k] >= 9.0) CHECK(locked[k] > 0.5);  // the lock-up holds from at most 1 s after it closes
  }
  CHECK(coupling_rows > 10);  // the launch reaches the coupling range before lock-up
  CHECK(locked_rows > 10);
  // Slip before lock-up, none after.
  CHECK(w_p[r.size() - 1] - w_t[r.size() - 1] == Approx(0.0).margin(1e-9));
  const std::size_t before = static_cast<std::size_t>(7.9 / 0.01);
  CHECK(w_p[before] - w_t[before] > 1.0);
  books_close_within(books, r, 1e-5);
}

TEST_CASE("TorqueConverter tables are checked", "[vehicle][driveline][errors]") {
  vehicle::TorqueConverter tc("tc");
  CHECK_THROWS_WITH(tc.set_capacity_table({{0.0, 170}, {1.0, 300}}), Catch::Contains("SR must lie in [0, 1)"));
  CHECK_THROWS_WITH(tc.set_capacity_table({{0.0, 170}, {0.5, -1}}), Catch::Contains("must be > 0"));
  CHECK_THROWS_WITH(tc.set_torque_ratio_table({{0.0, 2.0}, {0.9, 1.2}}), Catch::Contains("TR·SR"));
  CHECK_THROWS_WITH(tc.set_torque_ratio_table({{0.5, 2.0}, {0.4, 1.0}}), Catch::Contains("must increase"));
}

namespace {

/// A constant torque into an input inertia (0.01 kg.m2), the differential
/// (ratio 1), a left half-shaft on J_left and a right one on J_right; at rest at t = 0.
template <class Diff>
Diff& bias_rig(Model& m, double torque, double J_left, double J_right, ParameterValues diff_parameters) {
  diff_parameters.push_back({"ratio", 1.0});
  auto& diff = m.add<Diff>("diff", diff_parameters);
  auto& source = m.add<rotational::ConstantTorque>("source", {{"tau_constant", torque}});
  auto& input = m.add<rotational::Inertia>("input", {{"J", 0.01}});
  auto& left = m.add<rotational::Inertia>("left", {{"J", J_left}});
  auto& right = m.add<rotational::Inertia>("right", {{"J", J_right}});
  m.connect(source.flange, input.flange_a);
  m.connect(input.flange_b, diff.flange_input);
  m.connect(diff.flange_left, left.flange_a);
  m.connect(diff.flange_right, right.flange_a);
  for (const char* name : {"left", "right"}) {
    m.set_start(std::string(name) + ".phi", 0.0);
    m.set_start(std::string(name) + ".w", 0.0);
  }
  return diff;
}

}  // namespace

TEST_CASE("LimitedSlipDifferential: the slow side gets TBR times the fast side's torque plus the preload, open "
          "differentials split equally",
          "[vehicle][driveline]") {
  SECTION("open Differential: equal torques (1e-9) while the light side spins up") {
    Model m("open");
    bias_rig<vehicle::Differential>(m, 100.0, 0.05, 5.0, {});
    harness::EnergyBooks books(m);
    Result r = compile_checked(m).simulate(run_for(1.0, 0.01));
    const auto l = r["diff.tau_left"], rr = r["diff.tau_right"];
    for (std::size_t k = 0; k < r.size(); ++k) CHECK(l[k] == Approx(rr[k]).epsilon(1e-9));
    CHECK(r["left.w"].back() > 10.0 * r["right.w"].back());
    books_close_within(books, r, 1e-5);
  }
  SECTION("LSD with TBR = 1 and no preload is open: equal torques (1e-9)") {
    Model m("lsd_open");
    bias_rig<vehicle::LimitedSlipDifferential>(m, 100.0, 0.05, 5.0, {{"TBR", 1.0}});
    Result r = compile_checked(m).simulate(run_for(1.0, 0.01));
    const auto l = r["diff.tau_left"], rr = r["diff.tau_right"];
    for (std::size_t k = 0; k < r.size(); ++k) CHECK(l[k] == Approx(rr[k]).epsilon(1e-9));
  }
  for (const double T_pre : {0.0, 20.0}) {
    DYNAMIC_SECTION("TBR = 3, T_pre = " << T_pre << ": the light side slips, tau_right = 3·tau_left + 2·T_pre (1e-6)") {
      Model m("lsd_bias");
      bias_rig<vehicle::LimitedSlipDifferential>(m, 100.0, 0.05, 5.0, {{"TBR", 3.0}, {"T_pre", T_pre}});
      harness::EnergyBooks books(m);
      Result r = compile_checked(m).simulate(run_for(1.0, 0.01));
      const auto l = r["diff.tau_left"], rr = r["diff.tau_right"], w_rel = r["diff.w_rel"];
      const auto capacity = r["diff.capacity"], P = r["diff.P_loss"];
      for (std::size_t k = 1; k < r.size(); ++k) {
        INFO("t = " << r.time()[k]);
        CHECK(w_rel[k] > 0.0);  // sliding: the light left side runs ahead
        CHECK(rr[k] == Approx(3.0 * l[k] + 2.0 * T_pre).epsilon(1e-6));
        CHECK(rr[k] - l[k] == Approx(T_pre + 0.5 * std::fabs(l[k] + rr[k])).epsilon(1e-6));
        CHECK(capacity[k] == Approx(rr[k] - l[k]).epsilon(1e-9));
        CHECK(P[k] >= 0.0);
      }
      books_close_within(books, r, 1e-5);
    }
  }
  SECTION("a bias within capacity locks the half-shafts: |w_left - w_right| < 1e-9, torques by the inertias (1e-6)") {
    Model m("lsd_locked");
    bias_rig<vehicle::LimitedSlipDifferential>(m, 100.0, 1.0, 1.5, {{"TBR", 3.0}});
    harness::EnergyBooks books(m);
    Result r = compile_checked(m).simulate(run_for(1.0, 0.01));
    const auto l = r["diff.tau_left"], rr = r["diff.tau_right"], w_rel = r["diff.w_rel"];
    for (std::size_t k = 1; k < r.size(); ++k) {
      CHECK(std::fabs(w_rel[k]) < 1e-9);
      CHECK(rr[k] == Approx(1.5 * l[k]).epsilon(1e-6));  // (0.2 of the sum < 0.5: within capacity)
    }
    CHECK(r["right.w"].back() > 1.0);
    books_close_within(books, r, 1e-5);
  }
}

namespace {

/// Split-μ launch on a grade, rotational: a 600 N.m source with a droop
/// (damper 4 N.m.s/rad to ground) into an input inertia, the differential
/// (ratio 1), two Wheels (r 0.3 m, J 1 kg.m2) on one axle, the left on ice
/// (μ 0.1), the right on asphalt (μ 0.9), 3000 N each, carrying 600 kg held
/// back by 1000 N (a grade). An open differential gives each side what the ice
/// holds, 2·0.1·3000 = 600 N < 1000 N: it spins and rolls back. With TBR = 4
/// the asphalt side takes up to 4·90 N.m: 300 + 1200 N > 1000 N.
template <class Diff>
void split_mu_rig(Model& m, ParameterValues diff_parameters) {
  diff_parameters.push_back({"ratio", 1.0});
  auto& diff = m.add<Diff>("diff", diff_parameters);
  auto& source = m.add<rotational::ConstantTorque>("source", {{"tau_constant", 600.0}});
  auto& input = m.add<rotational::Inertia>("input", {{"J", 0.2}});
  auto& droop = m.add<rotational::Damper>("droop", {{"d", 4.0}});
  auto& ground = m.add<rotational::Fixed>("ground");
  auto& left = m.add<vehicle::Wheel>("wheel_left", {{"radius", 0.3}, {"J", 1.0}, {"mu", 0.1}});
  auto& right = m.add<vehicle::Wheel>("wheel_right", {{"radius", 0.3}, {"J", 1.0}, {"mu", 0.9}});
  auto& breakout = m.add<vehicle::WheelContactBreakout>("breakout");
  auto& body = m.add<translational::Mass>("body", {{"m", 600.0}});
  auto& grade = m.add<translational::ConstantForce>("grade", {{"f_constant", -1000.0}});
  auto& load = m.add<translational::ConstantForce>("load", {{"f_constant", -6000.0}});
  m.connect(source.flange, input.flange_a);
  m.connect(input.flange_b, droop.flange_a);
  m.connect(droop.flange_b, ground.flange);
  m.connect(input.flange_b, diff.flange_input);
  m.connect(diff.flange_left, left.flange_rot);
  m.connect(diff.flange_right, right.flange_rot);
  m.connect(left.contact, breakout.contact);
  m.connect(right.contact, breakout.contact);
  m.connect(breakout.flange_traction, body.flange_a);
  m.connect(body.flange_b, grade.flange);
  m.connect(breakout.flange_normal, load.flange);
  m.set_start("body.s", 0.0);
  m.set_start("body.v", 0.0);
  m.set_start("wheel_left.omega", 0.0);
  m.set_start("wheel_right.omega", 0.0);
}

}  // namespace

TEST_CASE("Split-μ launch on a grade: the LSD climbs where the open differential spins and rolls back",
          "[vehicle][driveline]") {
  Model open_model("split_open");
  split_mu_rig<vehicle::Differential>(open_model, {});
  harness::EnergyBooks open_books(open_model);
  Result open = compile_checked(open_model).simulate(run_for(3.0, 0.01, 1e-7));

  Model lsd_model("split_lsd");
  split_mu_rig<vehicle::LimitedSlipDifferential>(lsd_model, {{"TBR", 4.0}});
  harness::EnergyBooks lsd_books(lsd_model);
  Result lsd = compile_checked(lsd_model).simulate(run_for(3.0, 0.01, 1e-7));

  // Open: equal torques, the ice wheel spins, the car rolls back.
  const auto ol = open["diff.tau_left"], orr = open["diff.tau_right"];
  for (std::size_t k = 0; k < open.size(); ++k) CHECK(ol[k] == Approx(orr[k]).epsilon(1e-9));
  CHECK(open["wheel_left.omega"].back() > 10.0 * std::fabs(open["wheel_right.omega"].back()));
  CHECK(open["body.v"].back() < 0.0);

  // LSD: while the ice wheel runs ahead, the asphalt wheel gets 4 times its torque (1e-6); the car climbs.
  const auto l = lsd["diff.tau_left"], rr = lsd["diff.tau_right"], w_rel = lsd["diff.w_rel"], mode = lsd["diff.mode"];
  std::size_t sliding = 0;
  for (std::size_t k = 1; k < lsd.size(); ++k) {
    if (mode[k] != 1.0) continue;  // sliding forward: the left side faster
    ++sliding;
    CHECK(w_rel[k] > 0.0);
    CHECK(rr[k] == Approx(4.0 * l[k]).epsilon(1e-6));
  }
  CHECK(sliding > 10);
  CHECK(lsd["body.v"].back() > 0.5);
  CHECK(lsd["body.s"].back() > 0.0);

  books_close_within(open_books, open, 1e-5);
  books_close_within(lsd_books, lsd, 1e-5);
}

TEST_CASE("RearDriveCar with a locking synchronizer and a smooth clutch upshifts at full throttle: the cone slides "
          "at tau_sync and locks as a run at rtol 1e-8 does",
          "[vehicle][driveline]") {
  // The 1→2 upshift makes the slip jump to ~276 rad/s; the cone then slides at tau_sync = 3000 N·m and the
  // input shaft (J_in 0.02 kg·m²) slows at ~1.3e5 rad/s² while the smooth clutch saturates at its 400 N·m. This
  // stopped with IDA_CONV_FAIL 31 µs after the shift (t = 2.875781 s): the clutch's tanh law read its slip as
  // der(phi_rel), so the residual was nonlinear in y', whose predictor error (h·y'' of the last step) does
  // not shrink with the step IDA retries, and its Newton test failed at every step size. The law now reads
  // the flanges' speeds, which are states.
  auto run = [](double rtol, double dt) {
    Model m("upshift");
    auto& car = m.add<vehicle::RearDriveCar>("car");
    car.gearbox.set_parameter("friction", "locking");
    car.clutch.set_parameter("friction", "smooth");
    harness::drive_launch(m, car, 1.0, 10.0);
    return m.compile().simulate(run_for(4.0, dt, rtol));
  };
  const Result r = run(1e-6, 1e-4), reference = run(1e-8, 0.01);
  // The shift and the lock: the last two events of each run, at the same instants within 1e-6 s.
  REQUIRE(r.event_times().size() >= 2);
  REQUIRE(reference.event_times().size() >= 2);
  const double shift = r.event_times()[r.event_times().size() - 2], lock = r.event_times().back();
  CHECK(shift == Approx(reference.event_times()[reference.event_times().size() - 2]).margin(1e-6));
  CHECK(lock == Approx(reference.event_times().back()).margin(1e-6));
  CHECK(lock - shift > 5e-4);  // it slid: 276 rad/s at ~2e5 rad/s² is ~1.4 ms
  CHECK(lock - shift < 5e-3);
  const auto t = r.time(), tau_mesh = r["car.gearbox.tau_mesh"], w_slip = r["car.gearbox.w_slip"];
  for (std::size_t k = 0; k < r.size(); ++k) {
    if (t[k] > shift && t[k] < lock) CHECK(tau_mesh[k] == Approx(3000.0).epsilon(1e-12));
    if (t[k] > lock) CHECK(std::fabs(w_slip[k]) < 1e-6);
  }
  CHECK(r["car.gearbox.gear_input"].back() == 2.0);
  CHECK(r["car.body.v"].back() == Approx(reference["car.body.v"].back()).epsilon(1e-5));
}

}  // namespace test_driveline_fidelity
