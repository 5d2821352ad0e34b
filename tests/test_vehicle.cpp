// The vehicle library against seed 001's test list: closed forms, hand
// calculations and conservation laws, each with its stated tolerance.
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <tuple>

#include <acausal/harness/rigs.hpp>

#include "tests/flat_car.hpp"
#include "support.hpp"

namespace test_vehicle {

using namespace acausal;
using namespace acausal::vehicle;
using test::run_for;

namespace {

double relative_error(double value, double expected) { return std::fabs(value - expected) / std::fabs(expected); }

/// Value of a column at the output row closest to time t.
double at(const Result& r, const std::string& name, double t) {
  const auto& time = r.time();
  std::size_t k = std::lower_bound(time.begin(), time.end(), t - 1e-12) - time.begin();
  return r[name][std::min(k, r.size() - 1)];
}

/// ∫ (sum of the columns' products) dt over the run: trapezoids on the output grid.
double integral(const Result& r, const std::vector<std::vector<std::string>>& products) {
  const auto& t = r.time();
  std::vector<double> y(r.size(), 0.0);
  for (const auto& factors : products) {
    std::vector<double> term(r.size(), 1.0);
    for (const auto& name : factors) {
      auto column = r[name];
      for (std::size_t k = 0; k < r.size(); ++k) term[k] *= column[k];
    }
    for (std::size_t k = 0; k < r.size(); ++k) y[k] += term[k];
  }
  double sum = 0;
  for (std::size_t k = 1; k < r.size(); ++k) sum += 0.5 * (y[k] + y[k - 1]) * (t[k] - t[k - 1]);
  return sum;
}

/// The harness's wheel rig (torque on the axle, a mass carried, normal load N)
/// around a library wheel of radius 0.3 m and μ 0.8.
struct WheelRig {
  Model model{"wheel_rig"};
  WheelRig(double torque, double N, double mass = 500.0, ParameterValues wheel = {}) {
    wheel.insert(wheel.end(), {{"radius", 0.3}, {"mu", 0.8}});
    auto& w = model.add<Wheel>("wheel", wheel);
    harness::wheel_rig(model, w.flange_rot, w.contact, torque, N, mass);
  }
};

}  // namespace

TEST_CASE("radius_from_tire_size follows seed 001's formula", "[vehicle][wheel]") {
  CHECK(radius_from_tire_size("205/55R16") == Approx(0.31595).epsilon(1e-12));
  CHECK(radius_from_tire_size("225/45 R17") == Approx((17 * 25.4 + 2 * 225 * 0.45) / 2000).epsilon(1e-12));
  CHECK_THROWS_WITH(radius_from_tire_size("wide"), Catch::Contains("205/55R16"));
}

TEST_CASE("Wheel 1: traction limit mu*N, F = tau/r below it", "[vehicle][wheel]") {
  SECTION("low torque: F = tau/r within 1 %") {
    WheelRig rig(300.0, 5000.0, 500.0, {{"J", 0.05}});
    Result r = rig.model.compile().simulate(run_for(2.0, 0.01));
    CHECK(at(r, "wheel.F_max", 1.0) == Approx(4000.0).epsilon(1e-9));
    CHECK(relative_error(at(r, "wheel.F_traction", 1.0), 300.0 / 0.3) < 0.01);
  }
  SECTION("tau = 2000 N.m saturates at 4000 N within 1 %, never above") {
    WheelRig rig(2000.0, 5000.0, 500.0, {{"J", 0.05}});
    Result r = rig.model.compile().simulate(run_for(1.0, 0.001));
    auto F = r["wheel.F_traction"];
    CHECK(*std::max_element(F.begin(), F.end()) <= 4000.0 * (1 + 1e-9));
    CHECK(relative_error(at(r, "wheel.F_traction", 1.0), 4000.0) < 0.01);
  }
}

TEST_CASE("Wheel 2: saturated traction scales with the load", "[vehicle][wheel]") {
  for (double N : {3000.0, 5000.0, 7000.0}) {
    WheelRig rig(2000.0, N, 500.0, {{"J", 0.05}});
    Result r = rig.model.compile().simulate(run_for(1.0, 0.01));
    INFO("N = " << N);
    CHECK(at(r, "wheel.N", 1.0) == Approx(N).epsilon(1e-9));
    CHECK(relative_error(at(r, "wheel.F_traction", 1.0), 0.8 * N) < 0.01);
  }
}

TEST_CASE("Wheel 3: rolling kinematics and power below the limit, both directions", "[vehicle][wheel]") {
  for (double torque : {60.0, -60.0}) {
    WheelRig rig(torque, 5000.0, 500.0, {{"J", 0.05}});
    Result r = rig.model.compile().simulate(run_for(10.0, 0.01));
    INFO("torque " << torque);
    auto v = r["wheel.v"], w = r["wheel.omega"], P_rot = r["wheel.P_rot"], P_trans = r["wheel.P_trans"];
    double worst_kinematics = 0, worst_power = 0;
    std::size_t rows = 0;
    for (std::size_t k = 0; k < r.size(); ++k) {
      if (std::fabs(v[k]) <= 1.0) continue;
      ++rows;
      worst_kinematics = std::max(worst_kinematics, relative_error(v[k] / w[k], 0.3));
      worst_power = std::max(worst_power, relative_error(P_trans[k], P_rot[k]));
    }
    CHECK(rows > 500);
    CHECK(std::copysign(1.0, v.back()) == std::copysign(1.0, torque));
    CHECK(worst_kinematics < 1e-3);
    CHECK(worst_power < 0.01);
  }
}

TEST_CASE("Wheel 4: spin - acceleration F_max/m and growing slip", "[vehicle][wheel]") {
  WheelRig rig(2500.0, 5000.0, 500.0, {{"J", 0.5}});
  Result r = rig.model.compile().simulate(run_for(2.0, 0.01));
  CHECK(relative_error(at(r, "body.a", 1.5), 4000.0 / 500.0) < 0.01);
  const double slip_1 = at(r, "wheel.v_slip", 1.0), slip_2 = at(r, "wheel.v_slip", 2.0);
  CHECK(slip_1 > 1.0);
  CHECK(slip_2 > slip_1 * 1.5);
  CHECK(at(r, "wheel.P_slip", 2.0) > 0.0);  // the spinning tire dissipates
}

TEST_CASE("Wheel: the three tire laws agree on the saturation and rise from zero slip", "[vehicle][wheel]") {
  for (double law : {0.0, 1.0, 2.0}) {
    INFO("tire_law " << law);
    // Pacejka's D = 1 peaks at mu*N; its peak sits at a finite slip, so the spinning wheel reads a little less.
    WheelRig rig(2500.0, 5000.0, 500.0, {{"J", 0.5}, {"tire_law", law}});
    Result r = rig.model.compile().simulate(run_for(1.0, 0.01));
    double F = at(r, "wheel.F_traction", 1.0);
    CHECK(F <= 4000.0 * (1 + 1e-9));
    CHECK(F > 4000.0 * (law == 2.0 ? 0.6 : 0.99));
    WheelRig gentle(30.0, 5000.0, 500.0, {{"J", 0.05}, {"tire_law", law}});
    Result g = gentle.model.compile().simulate(run_for(2.0, 0.01));
    CHECK(relative_error(at(g, "wheel.F_traction", 2.0), 100.0) < 0.01);
  }
}

TEST_CASE("Wheel: an ice patch lowers mu between its ends", "[vehicle][wheel]") {
  WheelRig rig(2500.0, 5000.0, 500.0, {{"J", 0.5}, {"mu_patch", 0.1}, {"patch_start", 1.0}, {"patch_end", 3.0}});
  Result r = rig.model.compile().simulate(run_for(3.0, 0.001));
  auto s = r["body.s"], mu = r["wheel.mu_road"];
  for (std::size_t k = 0; k < r.size(); ++k) {
    if (s[k] < 0.5) CHECK(mu[k] == Approx(0.8).epsilon(1e-6));
    if (s[k] > 1.5 && s[k] < 2.5) CHECK(mu[k] == Approx(0.1).epsilon(1e-6));
  }
  CHECK(s.back() > 1.5);
}

namespace {

/// The harness's body rig (fixtures under the axles, constant axle forces) around a library body.
struct BodyRig {
  Model model{"body_rig"};
  BodyRig(ParameterValues body_parameters, double f_front, double f_rear, double v0 = 0.0) {
    auto& body = model.add<VehicleBody>("body", std::move(body_parameters));
    harness::body_rig(model, body.contact_front, body.contact_rear, f_front, f_rear);
    model.set_start("body.s", 0.0);
    model.set_start("body.v", v0);
  }
};

constexpr double g = 9.81;

}  // namespace

TEST_CASE("Body 1: static axle loads and moment balance", "[vehicle][body]") {
  BodyRig rig({{"m", 1500}, {"L", 2.7}, {"a", 1.2}, {"b", 1.5}, {"h_cg", 0.55}}, 0.0, 0.0);
  Result r = rig.model.compile().simulate(run_for(1.0, 0.1));
  const double N_f = at(r, "body.N_front", 1.0), N_r = at(r, "body.N_rear", 1.0);
  CHECK(relative_error(N_f, 1500 * g * 1.5 / 2.7) < 1e-3);
  CHECK(relative_error(N_r, 1500 * g * 1.2 / 2.7) < 1e-3);
  CHECK(relative_error(N_f + N_r, 1500 * g) < 1e-9);
  CHECK(std::fabs(N_f * 1.2 - N_r * 1.5) < 1e-9 * N_f);
  // The fixtures carry exactly the axle loads (their flange force acts on them: downward).
  CHECK(-at(r, "ground_front.flange.f", 1.0) == Approx(N_f).epsilon(1e-9));
  CHECK(-at(r, "ground_rear.flange.f", 1.0) == Approx(N_r).epsilon(1e-9));
  CHECK(std::fabs(at(r, "body.v", 1.0)) < 1e-12);
}

TEST_CASE("Body 2/3: load transfer m*a*h_cg/L when accelerating and braking", "[vehicle][body]") {
  const double m = 1500, L = 2.7, a = 1.2, b = 1.5, h = 0.55;
  ParameterValues p{{"m", m}, {"L", L}, {"a", a}, {"b", b}, {"h_cg", h}, {"Cd", 0.0}, {"Crr", 0.0}};
  SECTION("accelerating: rear axle gains") {
    BodyRig rig(p, 0.0, 4500.0);
    Result r = rig.model.compile().simulate(run_for(2.0, 0.1));
    const double acc = at(r, "body.a_x", 1.0);
    CHECK(relative_error(acc, 4500.0 / m) < 1e-6);
    const double dN = m * acc * h / L;
    CHECK(relative_error(at(r, "body.delta_N", 1.0), dN) < 0.005);
    CHECK(relative_error(at(r, "body.N_rear", 1.0) - m * g * a / L, dN) < 0.005);
    CHECK(relative_error(m * g * b / L - at(r, "body.N_front", 1.0), dN) < 0.005);
  }
  SECTION("braking while moving forward: front axle gains") {
    BodyRig rig(p, -6000.0, 0.0, 30.0);
    Result r = rig.model.compile().simulate(run_for(2.0, 0.1));
    const double acc = at(r, "body.a_x", 1.0);
    CHECK(relative_error(acc, -6000.0 / m) < 1e-6);
    CHECK(at(r, "body.v", 2.0) > 0.0);
    const double dN = m * acc * h / L;
    CHECK(dN < 0);
    CHECK(relative_error(at(r, "body.delta_N", 1.0), dN) < 0.005);
    CHECK(relative_error(at(r, "body.N_front", 1.0) - m * g * b / L, -dN) < 0.005);
  }
}

TEST_CASE("Body 4: terminal velocity against drag, coast-down energy", "[vehicle][body]") {
  const double m = 1500, rho = 1.225, Cd = 0.3, A = 2.2;
  ParameterValues p{{"m", m}, {"L", 2.7}, {"a", 1.2}, {"b", 1.5}, {"h_cg", 0.55}, {"Cd", Cd}, {"A", A}, {"rho", rho}};
  SECTION("thrust = drag at the terminal velocity") {
    const double thrust = 500.0;
    p.push_back({"Crr", 0.0});
    BodyRig rig(p, 0.0, thrust);
    Result r = rig.model.compile().simulate(run_for(500.0, 1.0));
    CHECK(relative_error(at(r, "body.v", 500.0), std::sqrt(2 * thrust / (rho * Cd * A))) < 0.005);
  }
  SECTION("coast-down: kinetic energy = drag work + rolling work") {
    const double v0 = 30.0;
    BodyRig rig(p, 0.0, 0.0, v0);
    Result r = rig.model.compile().simulate(run_for(60.0, 0.01));
    const double v_end = at(r, "body.v", 60.0);
    CHECK(v_end < 0.5 * v0);
    CHECK(v_end > 0.0);
    const double drag_work = integral(r, {{"body.F_drag", "body.v"}});
    const double rolling_work = integral(r, {{"body.F_roll_front", "body.v"}, {"body.F_roll_rear", "body.v"}});
    CHECK(drag_work > 0);
    CHECK(rolling_work > 0);
    const double kinetic_lost = 0.5 * m * (v0 * v0 - v_end * v_end);
    CHECK(relative_error(drag_work + rolling_work, kinetic_lost) < 0.01);
  }
}

namespace {

/// The harness's differential rig around a library differential of ratio 3.5.
Result differential_rig(double d_left, double d_right, double torque, double t_end) {
  Model m("differential_rig");
  auto& diff = m.add<Differential>("diff", {{"ratio", 3.5}});
  harness::differential_rig(m, diff, torque, d_left, d_right);
  return m.compile().simulate(run_for(t_end, 0.05));
}

}  // namespace

TEST_CASE("Differential 1: symmetric loads", "[vehicle][differential]") {
  Result r = differential_rig(0.5, 0.5, 200.0, 5.0);
  for (double t : {1.0, 5.0}) {
    const double w_in = at(r, "diff.w_input", t), w_l = at(r, "diff.w_left", t), w_r = at(r, "diff.w_right", t);
    CHECK(w_l == Approx(w_r).epsilon(1e-9));
    // The speeds come from IDA's y and y' (a derivative is exact only to the solver's tolerance, rtol 1e-8).
    CHECK(w_in / w_l == Approx(3.5).epsilon(1e-6));
    CHECK(at(r, "diff.tau_left", t) == Approx(at(r, "diff.tau_right", t)).epsilon(1e-9));
    const double P_in = at(r, "diff.flange_input.tau", t) * w_in;
    const double P_out = at(r, "diff.tau_left", t) * w_l + at(r, "diff.tau_right", t) * w_r;
    CHECK(relative_error(P_out, P_in) < 1e-3);
  }
}

TEST_CASE("Differential 2: unequal dampers share torque equally, speeds differ", "[vehicle][differential]") {
  Result r = differential_rig(0.5, 0.3, 200.0, 30.0);
  CHECK(relative_error(at(r, "diff.w_left", 30.0), 700.0) < 1e-3);
  CHECK(relative_error(at(r, "diff.w_right", 30.0), 3500.0 / 3.0) < 1e-3);
  CHECK(relative_error(at(r, "diff.w_input", 30.0), 3.5 * (700.0 + 3500.0 / 3.0) / 2) < 1e-3);
  CHECK(at(r, "diff.tau_left", 30.0) == Approx(at(r, "diff.tau_right", 30.0)).epsilon(1e-9));
}

TEST_CASE("Differential: efficiency loses power only when the input drives", "[vehicle][differential]") {
  Model m("lossy_differential");
  auto& source = m.add<rotational::ConstantTorque>("source", {{"tau_constant", 100.0}});
  auto& input = m.add<rotational::Inertia>("input", {{"J", 0.01}});
  auto& diff = m.add<Differential>("diff", {{"ratio", 3.0}, {"efficiency", 0.9}});
  auto& left = m.add<rotational::Damper>("left", {{"d", 1.0}});
  auto& right = m.add<rotational::Damper>("right", {{"d", 1.0}});
  auto& ground = m.add<rotational::Fixed>("ground");
  m.connect(source.flange, input.flange_a);
  m.connect(input.flange_b, diff.flange_input);
  m.connect(diff.flange_left, left.flange_a);
  m.connect(diff.flange_right, right.flange_a);
  m.connect(left.flange_b, ground.flange);
  m.connect(right.flange_b, ground.flange);
  Result r = m.compile().simulate(run_for(2.0, 0.01));
  // Steady state: each output carries 3·100·0.9/2 = 135 N·m into its damper.
  CHECK(relative_error(at(r, "diff.tau_left", 2.0), 135.0) < 1e-3);
  CHECK(relative_error(at(r, "diff.P_loss", 2.0), 0.1 * 100.0 * at(r, "diff.w_input", 2.0)) < 1e-3);
}

TEST_CASE("Brake: locks a spinning inertia at tau_max, dissipating its energy", "[vehicle][brake]") {
  Model m("brake_rig");
  auto& disc = m.add<rotational::Inertia>("disc", {{"J", 2.0}});
  auto& brake = m.add<Brake>("brake", {{"tau_max", 1000.0}});
  auto& pedal = m.add<blocks::Step>("pedal", {{"height", 1.0}, {"startTime", 2.0}});
  m.connect(disc.flange_b, brake.flange_a);
  m.connect(pedal.y, brake.brake_input);
  m.set_start("disc.w", 50.0);
  m.set_start("disc.phi", 0.0);
  Result r = m.compile().simulate(run_for(2.5, 1e-4));
  CHECK(at(r, "disc.w", 1.99) == Approx(50.0).epsilon(1e-9));
  CHECK(relative_error(at(r, "disc.a", 2.05), -500.0) < 0.01);
  CHECK(relative_error(at(r, "disc.w", 2.05), 25.0) < 0.01);
  CHECK(std::fabs(at(r, "disc.w", 2.1)) < 0.5);
  CHECK(std::fabs(at(r, "disc.w", 2.5)) < 1e-3);
  // Locking: the disc stops and stays (w exactly what it was at the lock).
  CHECK(at(r, "brake.mode", 2.5) == 0.0);
  // The row just before the lock reads the sliding torque with w past zero by
  // the root finder's tolerance: P >= 0 within tau_max times that.
  auto P = r["brake.P_dissipated"];
  CHECK(*std::min_element(P.begin(), P.end()) >= -1e-6);
  CHECK(relative_error(integral(r, {{"brake.P_dissipated"}}), 0.5 * 2.0 * 50.0 * 50.0) < 0.01);
}

namespace {

/// The harness's rotational rig around a gearbox, the gear from a signal the test connects.
struct GearboxRig {
  Model model{"gearbox_rig"};
  Gearbox& gearbox;
  GearboxRig(double torque, ParameterValues gearbox_parameters, double J_out = 1.0, double d_load = 1.0)
      : gearbox(model.add<Gearbox>("gearbox", std::move(gearbox_parameters))) {
    harness::rotational_rig(model, gearbox.flange_in, gearbox.flange_out, torque, 0.1, J_out, d_load);
  }
};

}  // namespace

TEST_CASE("Gearbox: fixed gear speed and torque ratios with efficiency", "[vehicle][gearbox]") {
  GearboxRig rig(100.0, {{"efficiency_2", 0.95}});
  auto& gear = rig.model.add<blocks::Constant>("gear", {{"k", 2.0}});
  rig.model.connect(gear.y, rig.gearbox.gear_input);
  Result r = rig.model.compile().simulate(run_for(20.0, 0.01));
  const double w_out = at(r, "gearbox.w_out", 20.0);
  // Steady state: the damper takes ratio·η·τ.
  CHECK(relative_error(w_out, 2.1 * 0.95 * 100.0) < 1e-3);
  CHECK(relative_error(at(r, "gearbox.w_in", 20.0) / w_out, 2.1) < 1e-3);
  CHECK(relative_error(-at(r, "gearbox.flange_out.tau", 20.0) / at(r, "gearbox.flange_in.tau", 20.0), 2.1 * 0.95) <
        1e-3);
  CHECK(relative_error(at(r, "gearbox.P_loss", 20.0), 0.05 * 100.0 * at(r, "gearbox.w_in", 20.0)) < 1e-2);
}

TEST_CASE("Gearbox: a 1-2-3-4 shift sequence from the shift schedule runs through its events",
          "[vehicle][gearbox]") {
  GearboxRig rig(50.0, {}, 5.0, 2.0);
  auto& speed = rig.model.add<blocks::Ramp>("speed", {{"height", 30.0}, {"duration", 10.0}});
  auto& selector = rig.model.add<GearSelector>("selector");
  rig.model.connect(speed.y, selector.v);
  rig.model.connect(selector.gear, rig.gearbox.gear_input);
  Result r = rig.model.compile().simulate(run_for(12.0, 0.01, 1e-6));
  // Shift speeds 12, 20, 28 m/s on a 3 m/s² ramp: at 4, 6.67, 9.33 s.
  for (auto [t, gear, ratio] : {std::tuple{3.9, 1.0, 3.6}, std::tuple{4.1, 2.0, 2.1}, std::tuple{6.7, 3.0, 1.4},
                                std::tuple{9.4, 4.0, 1.0}}) {
    INFO("t = " << t);
    CHECK(at(r, "selector.gear", t) == gear);
    CHECK(at(r, "gearbox.ratio", t) == ratio);
  }
  std::size_t shifts = 0;
  for (double te : r.event_times())
    for (double ts : {4.0, 20.0 / 3.0, 28.0 / 3.0}) shifts += std::fabs(te - ts) < 1e-6;
  CHECK(shifts == 3);
  // After each shift the synchronizer brings the input shaft to the new ratio.
  CHECK(relative_error(at(r, "gearbox.w_in", 12.0), at(r, "gearbox.w_out", 12.0)) < 0.01);
}

TEST_CASE("Gearbox: the locking synchronizer holds the ratio exactly, slides at tau_sync after a shift until the "
          "hand-solved instant, and locks again",
          "[vehicle][gearbox]") {
  // Rig: 100 N·m into 0.1 kg·m² (+ J_in 0.02) on the input, 1 kg·m² and a 2 N·m·s/rad damper on the output;
  // tau_sync 150 N·m; 1st gear (3.6), 2nd (2.1) from t = 2 s.
  const double tau = 100.0, J_in = 0.12, J_out = 1.0, d = 2.0, tau_sync = 150.0, r1 = 3.6, r2 = 2.1;
  auto run = [&](int friction) {
    GearboxRig rig(tau, {{"tau_sync", tau_sync}, {"friction", friction}}, J_out, d);
    auto& gear = rig.model.add<blocks::Step>("gear", {{"offset", 1.0}, {"height", 1.0}, {"startTime", 2.0}});
    rig.model.connect(gear.y, rig.gearbox.gear_input);
    harness::EnergyBooks books(rig.model);
    Result r = rig.model.compile().simulate(run_for(5.0, 0.001, 1e-9));
    return std::pair{r, books};
  };
  auto [r, books] = run(FrictionLaw::locking);
  // By hand. Locked in 1st from rest: J_eq·w_out' = r1·tau - d·w_out with J_eq = J_out + r1²·J_in.
  const double J_eq = J_out + r1 * r1 * J_in, w_out_2 = r1 * tau / d * (1.0 - std::exp(-d * 2.0 / J_eq));
  // Sliding in 2nd: J_in·w_in' = tau - tau_sync, J_out·w_out' = r2·tau_sync - d·w_out; locked when the slip is 0.
  auto slip = [&](double s) {
    const double w_out = r2 * tau_sync / d + (w_out_2 - r2 * tau_sync / d) * std::exp(-d * s / J_out);
    return r1 * w_out_2 + (tau - tau_sync) / J_in * s - r2 * w_out;
  };
  double lo = 0.0, hi = 2.0;
  for (int k = 0; k < 200; ++k) (slip(0.5 * (lo + hi)) > 0.0 ? lo : hi) = 0.5 * (lo + hi);
  const double t_lock = 2.0 + lo;
  INFO("t_lock by hand " << t_lock);
  REQUIRE(t_lock > 2.1);
  REQUIRE(t_lock < 3.0);
  const auto t = r.time();
  const auto w_slip = r["gearbox.w_slip"], mode = r["gearbox.mode"], tau_mesh = r["gearbox.tau_mesh"];
  double worst_locked = 0.0, worst_sliding = 0.0;
  for (std::size_t k = 0; k < r.size(); ++k) {
    if (t[k] < 2.0 || t[k] > t_lock + 1e-6) {
      CHECK(mode[k] == double{FrictionModes::Stuck});
      worst_locked = std::max(worst_locked, std::fabs(w_slip[k]));
    } else if (t[k] > 2.0 && t[k] < t_lock - 1e-6) {
      CHECK(mode[k] == double{FrictionModes::Forward});
      worst_sliding = std::max(worst_sliding, std::fabs(tau_mesh[k] - tau_sync));
    }
  }
  CHECK(worst_locked < 1e-9);
  CHECK(worst_sliding < 1e-9 * tau_sync);
  std::size_t at_lock = 0;
  for (double te : r.event_times()) at_lock += std::fabs(te - t_lock) < 1e-6;
  CHECK(at_lock >= 1);
  CHECK(at(r, "gearbox.w_out", 1.5) == Approx(r1 * tau / d * (1.0 - std::exp(-d * 1.5 / J_eq))).epsilon(1e-6));
  test::books_close(books, r, 1e-6);  // the synchronization's energy is in P_loss

  // The smooth law slips by w_sync·atanh(tau_mesh/tau_sync) in gear, never exactly at the ratio.
  auto [smooth, smooth_books] = run(FrictionLaw::smooth);
  const double tau_mesh_end = smooth["gearbox.tau_mesh"].back();
  CHECK(smooth["gearbox.w_slip"].back() == Approx(std::atanh(tau_mesh_end / tau_sync)).epsilon(1e-4));
  CHECK(std::fabs(smooth["gearbox.w_slip"].back()) > 0.1);
}

namespace {

/// Clutch rig: the clutch between what `drive` adds, with tau_max = 200 N·m.
Result clutch_rig(const std::function<void(Model&, Clutch&)>& drive, double t_end) {
  Model m("clutch_rig");
  auto& clutch = m.add<Clutch>("clutch", {{"tau_max", 200.0}});
  drive(m, clutch);
  return m.compile().simulate(run_for(t_end, 0.01));
}

/// Inertias a (0.5 kg·m², spinning at 100 rad/s) and b (1.5 kg·m², at w_b)
/// on either side of the clutch, its engagement from `engagement`.
Result clutch_between_inertias(double w_b, const std::function<RealOutput&(Model&)>& engagement,
                               double t_end) {
  return clutch_rig([&](Model& m, Clutch& clutch) {
    auto& a = m.add<rotational::Inertia>("a", {{"J", 0.5}});
    auto& b = m.add<rotational::Inertia>("b", {{"J", 1.5}});
    m.connect(a.flange_b, clutch.flange_a);
    m.connect(clutch.flange_b, b.flange_a);
    m.connect(engagement(m), clutch.engagement_input);
    m.set_start("a.w", 100.0);
    m.set_start("a.phi", 0.0);
    m.set_start("b.w", w_b);
    m.set_start("b.phi", 0.0);
  }, t_end);
}

}  // namespace

TEST_CASE("Clutch: engages, transmits engagement*tau_max while slipping, decouples", "[vehicle][clutch]") {
  SECTION("engagement brings the output to the input speed, momentum conserved") {
    Result r = clutch_between_inertias(0.0, [](Model& m) -> RealOutput& {
      return m.add<blocks::Step>("engage", {{"height", 1.0}, {"startTime", 0.5}}).y;
    }, 3.0);
    CHECK(at(r, "b.w", 0.49) == Approx(0.0).margin(1e-9));
    CHECK(std::fabs(at(r, "a.w", 3.0) - at(r, "b.w", 3.0)) < 0.01);
    CHECK(relative_error(at(r, "b.w", 3.0), 0.5 * 100.0 / 2.0) < 1e-3);
    CHECK(relative_error(integral(r, {{"clutch.P_dissipated"}}), 0.5 * 0.5 * 100 * 100 - 0.5 * 2.0 * 25 * 25) < 0.01);
  }
  SECTION("partial engagement slips at engagement*tau_max") {
    Result r = clutch_rig([](Model& m, Clutch& clutch) {
      auto& motor = m.add<rotational::Speed>("motor");
      auto& w = m.add<blocks::Constant>("w", {{"k", 100.0}});
      auto& ground = m.add<rotational::Fixed>("ground");
      auto& engage = m.add<blocks::Constant>("engage", {{"k", 0.4}});
      m.connect(w.y, motor.w_ref);
      m.connect(motor.flange, clutch.flange_a);
      m.connect(clutch.flange_b, ground.flange);
      m.connect(engage.y, clutch.engagement_input);
      m.set_start("motor.phi", 0.0);
    }, 1.0);
    CHECK(relative_error(std::fabs(at(r, "clutch.tau", 1.0)), 0.4 * 200.0) < 0.01);
  }
  SECTION("disengaged, the output coasts on") {
    Result r = clutch_between_inertias(10.0, [](Model& m) -> RealOutput& {
      return m.add<blocks::Constant>("engage", {{"k", 0.0}}).y;
    }, 1.0);
    CHECK(at(r, "a.w", 1.0) == Approx(100.0).epsilon(1e-9));
    CHECK(at(r, "b.w", 1.0) == Approx(10.0).epsilon(1e-9));
  }
}

namespace {

// The engine's default torque curve (seed 003) and its friction, from its parameters.
double engine_curve(double w) {
  const double rpm = w * 60 / (2 * M_PI), n = std::max(rpm, 1000.0);
  return (-9.375e-6 * n * n + 0.075 * n + 100.0) * 0.5 * (1 - std::tanh((rpm - 6500.0) / 100.0));
}
double engine_friction(double w) { return 10.0 * std::tanh(w / 1.0) + 0.02 * w; }

double bisect(const std::function<double(double)>& f, double lo, double hi) {
  for (int k = 0; k < 200; ++k) {
    double mid = 0.5 * (lo + hi);
    (f(lo) > 0) == (f(mid) > 0) ? lo = mid : hi = mid;
  }
  return 0.5 * (lo + hi);
}

}  // namespace

TEST_CASE("Engine: no-load run-up settles where torque = friction, damper load steady state",
          "[vehicle][engine]") {
  SECTION("no load") {
    Model m("engine_free");
    auto& engine = m.add<Engine>("engine");
    auto& throttle = m.add<blocks::Constant>("throttle", {{"k", 1.0}});
    m.connect(throttle.y, engine.throttle_input);
    m.set_start("engine.w", 100.0);
    Result r = m.compile().simulate(run_for(20.0, 0.01));
    auto w = r["engine.w"];
    for (std::size_t k = 1; k < r.size(); ++k) REQUIRE(w[k] >= w[k - 1] * (1 - 1e-9));  // runs up monotonically
    const double expected = bisect([](double w) { return engine_curve(w) - engine_friction(w); }, 600.0, 800.0);
    CHECK(relative_error(w.back(), expected) < 1e-3);
    CHECK(relative_error(at(r, "engine.tau_drive", 20.0), at(r, "engine.tau_loss", 20.0)) < 0.01);
  }
  SECTION("against a damper") {
    Model m("engine_loaded");
    auto& engine = m.add<Engine>("engine");
    auto& throttle = m.add<blocks::Constant>("throttle", {{"k", 0.8}});
    auto& load = m.add<rotational::Damper>("load", {{"d", 0.5}});
    auto& ground = m.add<rotational::Fixed>("ground");
    m.connect(throttle.y, engine.throttle_input);
    m.connect(engine.flange, load.flange_a);
    m.connect(load.flange_b, ground.flange);
    m.set_start("engine.w", 100.0);
    Result r = m.compile().simulate(run_for(30.0, 0.01));
    const double expected =
        bisect([](double w) { return 0.8 * engine_curve(w) - engine_friction(w) - 0.5 * w; }, 100.0, 800.0);
    CHECK(relative_error(at(r, "engine.w", 30.0), expected) < 1e-3);
    CHECK(relative_error(at(r, "engine.P_out", 30.0), 0.5 * expected * expected) < 0.01);
  }
}

TEST_CASE("VehicleBody rejects a + b != L, h_cg <= 0 and a non-positive mass", "[vehicle][errors]") {
  auto compile_body = [](ParameterValues p) {
    BodyRig rig(std::move(p), 0.0, 0.0);
    return rig.model.compile();
  };
  CHECK_THROWS_WITH(compile_body({{"a", 1.0}, {"b", 1.0}, {"L", 2.7}}),
                    Catch::Contains("body") && Catch::Contains("a + b must equal the wheelbase L"));
  CHECK_THROWS_WITH(compile_body({{"h_cg", 0.0}}), Catch::Contains("h_cg"));
  CHECK_THROWS_WITH(compile_body({{"m", 0.0}}), Catch::Contains("mass m"));
  Simulator sim = compile_body({});
  sim.set_parameter("body.b", 2.0);
  CHECK_THROWS_AS(sim.simulate(run_for(0.1, 0.01)), ModelError);
}

namespace {

Result launch(double h_cg, double t_end) {
  Model m("car");
  test::LaunchScenario scenario;
  scenario.brake_time = 100.0;  // no braking within these runs
  test::build_rear_drive_car(m, scenario);
  Simulator sim = m.compile();
  sim.set_parameter("body.h_cg", h_cg);
  return sim.simulate(run_for(t_end, 0.002, 1e-6));
}

}  // namespace

TEST_CASE("Rear-drive car: launch, load transfer, up-shifts and 0-100 km/h", "[vehicle][integration]") {
  Result r = launch(0.55, 12.0);
  auto v = r["body.v"];
  double t_100 = NAN;
  for (std::size_t k = 0; k < r.size() && std::isnan(t_100); ++k)
    if (v[k] >= 100 / 3.6) t_100 = r.time()[k];
  INFO("0-100 km/h in " << t_100 << " s");
  CHECK(t_100 > 5.0);
  CHECK(t_100 < 12.0);
  CHECK(at(r, "selector.gear", 11.0) == 4.0);
  // Wheel 5 / Body 5: the rear axle load rises with the acceleration...
  const double static_rear = 1500 * g * 1.2 / 2.7;
  CHECK(at(r, "body.N_rear", 1.0) > static_rear + 1000.0);
  CHECK(relative_error(at(r, "body.N_rear", 1.0) - static_rear, 1500 * at(r, "body.a_x", 1.0) * 0.55 / 2.7) < 0.01);
  // ...and the traction-limited launch accelerates harder than without load transfer.
  Result low = launch(0.05, 2.0);
  CHECK(at(r, "body.v", 2.0) > at(low, "body.v", 2.0) * 1.1);
}

TEST_CASE("Rear-drive car: the energy books close", "[vehicle][integration]") {
  Result r = launch(0.55, 10.0);
  const double engine_work = integral(r, {{"engine.P_out"}});
  double stored = 0.5 * 1500 * std::pow(at(r, "body.v", 10.0), 2) +
                  0.5 * 0.02 * std::pow(at(r, "gearbox.w_in", 10.0), 2);
  for (const char* w : {"wheel_fl", "wheel_fr", "wheel_rl", "wheel_rr"})
    stored += 0.5 * 1.2 * std::pow(at(r, std::string(w) + ".omega", 10.0), 2);
  const double dissipated =
      integral(r, {{"body.F_drag", "body.v"}, {"body.F_roll_front", "body.v"}, {"body.F_roll_rear", "body.v"},
                   {"wheel_fl.P_slip"}, {"wheel_fr.P_slip"}, {"wheel_rl.P_slip"}, {"wheel_rr.P_slip"},
                   {"brake_fl.P_dissipated"}, {"brake_fr.P_dissipated"}, {"brake_rl.P_dissipated"},
                   {"brake_rr.P_dissipated"}, {"clutch.P_dissipated"}, {"gearbox.P_loss"}, {"differential.P_loss"}});
  INFO("engine work " << engine_work << " J, stored " << stored << " J, dissipated " << dissipated << " J");
  CHECK(relative_error(stored + dissipated, engine_work) < 0.01);
}

TEST_CASE("Terrain: a friction table under a spinning wheel", "[vehicle][terrain]") {
  WheelRig rig(2500.0, 5000.0, 500.0, {{"J", 0.5}});
  auto& wheel = static_cast<Wheel&>(*rig.model.child("wheel"));
  const std::vector<std::pair<double, double>> table{{0.0, 0.8}, {1.0, 0.8}, {2.0, 0.2}, {10.0, 0.2}};
  wheel.set_friction_table(table);
  Result r = rig.model.compile().simulate(run_for(3.0, 0.001));
  auto s = r["body.s"], mu = r["wheel.mu_road"], F = r["wheel.F_traction"];
  auto expected = [&](double x) { return x <= 1.0 ? 0.8 : x >= 2.0 ? 0.2 : 0.8 - 0.6 * (x - 1.0); };
  double worst_mu = 0, worst_force = 0;
  for (std::size_t k = 0; k < r.size(); ++k) {
    worst_mu = std::max(worst_mu, std::fabs(mu[k] - expected(s[k])));
    if (r.time()[k] > 0.2) worst_force = std::max(worst_force, relative_error(F[k], mu[k] * 5000.0));
  }
  CHECK(s.back() > 2.5);
  CHECK(worst_mu < 1e-9);
  CHECK(worst_force < 0.01);
  CHECK_THROWS_WITH(wheel.set_friction_table({{0.0, 0.8}, {0.0, 0.5}}),
                    Catch::Contains("wheel") && Catch::Contains("positions must increase"));
}

TEST_CASE("Terrain: coasting over a hill from a grade table conserves energy", "[vehicle][terrain]") {
  BodyRig rig({{"m", 1200}, {"L", 2.5}, {"a", 1.0}, {"b", 1.5}, {"h_cg", 0.5}, {"Cd", 0.0}, {"Crr", 0.0}}, 0.0, 0.0,
              20.0);
  auto& body = static_cast<VehicleBody&>(*rig.model.child("body"));
  body.set_grade_table({{0.0, 0.0}, {20.0, 0.1}, {60.0, 0.1}, {80.0, 0.0}, {100.0, -0.05}});
  Result r = rig.model.compile().simulate(run_for(8.0, 0.001));
  auto s = r["body.s"], v = r["body.v"], theta = r["body.theta"];
  auto road = [](double x) {
    return x < 20 ? 0.1 * x / 20 : x < 60 ? 0.1 : x < 80 ? 0.1 * (80 - x) / 20 : x < 100 ? -0.05 * (x - 80) / 20 : -0.05;
  };
  double worst = 0;
  for (std::size_t k = 0; k < r.size(); ++k) worst = std::max(worst, std::fabs(theta[k] - road(s[k])));
  CHECK(worst < 1e-9);
  CHECK(s.back() > 100.0);  // over the top and down the other side
  // Kinetic energy lost = work against gravity along the road.
  const double lost = 0.5 * 1200 * (20.0 * 20.0 - v.back() * v.back());
  CHECK(relative_error(integral(r, {{"body.F_grade", "body.v"}}), lost) < 1e-4);
  // The axle loads follow the slope: on the 0.1 rad ramp they sum to m·g·cos(0.1).
  CHECK(at(r, "body.N_front", 2.5) + at(r, "body.N_rear", 2.5) ==
        Approx(1200 * g * std::cos(at(r, "body.theta", 2.5))).epsilon(1e-9));
}

TEST_CASE("Split-mu launch through an open differential: the ice side spins and sets the torque",
          "[vehicle][integration]") {
  Model m("split_mu");
  test::build_rear_drive_car(m);
  Simulator sim = m.compile();
  sim.set_parameter("wheel_rl.patch_start", -1e6);
  sim.set_parameter("wheel_rl.patch_end", 1e6);
  Result r = sim.simulate(run_for(5.0, 0.01, 1e-6));
  CHECK(at(r, "wheel_rl.S_a", 5.0) > 0.5);
  CHECK(std::fabs(at(r, "wheel_rr.S_a", 5.0)) < 0.01);
  CHECK(at(r, "differential.tau_left", 5.0) == Approx(at(r, "differential.tau_right", 5.0)).epsilon(1e-9));
  // The spinning wheel carries μ_ice·N: the open differential limits the other side to the same torque.
  const double tau_ice = 0.1 * at(r, "wheel_rl.N", 5.0) * radius_from_tire_size("205/55R16");
  CHECK(relative_error(at(r, "differential.tau_left", 5.0), tau_ice) < 0.02);
  CHECK(at(r, "body.v", 5.0) < 3.0);
}

TEST_CASE("Drive cycle: the DriverController follows a speed table with throttle and brake",
          "[vehicle][integration]") {
  Model m("drive_cycle");
  test::build_rear_drive_car_on_cycle(m, {{0, 0}, {2, 0}, {12, 15}, {30, 15}, {40, 25}, {60, 25}, {72, 0},
                                              {80, 0}}, 2.0);
  Result r = m.compile().simulate(run_for(80.0, 0.05, 1e-6));
  auto e = r["driver.e"], throttle = r["driver.throttle"], brake = r["driver.brake"];
  double worst = 0;
  for (std::size_t k = 0; k < r.size(); ++k) {
    if (r.time()[k] > 3.0) worst = std::max(worst, std::fabs(e[k]));
    REQUIRE(std::min(throttle[k], brake[k]) < 1e-3);  // never both pedals (up to an event's frozen side)
  }
  CHECK(worst < 1.0);
  CHECK(std::fabs(at(r, "body.v", 50.0) - 25.0) < 0.2);
  CHECK(at(r, "driver.brake", 66.0) > 0.0);  // braking in the deceleration phase
  CHECK(std::fabs(at(r, "body.v", 80.0)) < 0.2);
  CHECK(at(r, "selector.gear", 50.0) == 3.0);
}

TEST_CASE("The library's RearDriveCar is the flagship car as one block: same trajectories", "[vehicle][car]") {
  const std::vector<std::string> compared = {"body.v", "body.N_rear", "engine.w", "clutch.w_rel", "wheel_rl.omega",
                                             "brake_fl.tau"};
  Model flat("flat");
  test::build_rear_drive_car(flat);
  Result a = flat.compile().simulate(run_for(20.0, 0.01, 1e-7));
  // The same open-loop driver, outside the block.
  Model block("block");
  auto& car = block.add<vehicle::RearDriveCar>("car");
  harness::drive_launch(block, car);
  Result b = block.compile().simulate(run_for(20.0, 0.01, 1e-7));
  REQUIRE(a.size() == b.size());
  for (const auto& name : compared) {
    INFO(name);
    auto x = a[name], y = b["car." + name];
    double scale = 1e-9, worst = 0;
    for (std::size_t k = 0; k < x.size(); ++k) {
      scale = std::max(scale, std::fabs(x[k]));
      worst = std::max(worst, std::fabs(x[k] - y[k]));
    }
    CHECK(worst <= 1e-9 * scale);
  }
  CHECK(b["car.speed"].back() == b["car.body.v"].back());
}

namespace {

// A library car with the harness's launch-and-brake driver (full throttle,
// clutch over 1 s, brakes at brake_time).
template <class Car>
Result drive(vehicle::CarOptions options, double t_end, double brake_time = 12.0,
             std::function<void(Car&)> setup = nullptr) {
  Model m("car");
  auto& car = m.add<Car>("car", {}, options);
  if (setup) setup(car);
  harness::drive_launch(m, car, 1.0, brake_time);
  return m.compile().simulate(run_for(t_end, 0.01, 1e-6));
}

}  // namespace

TEST_CASE("FrontDriveCar: the front wheels drive, the rear ones roll free, the front axle unloads", "[vehicle][car]") {
  const double m = 1500, L = 2.7, a = 1.0, b = 1.7, h = 0.55;
  Result r = drive<vehicle::FrontDriveCar>({}, 4.0, 100.0);
  CHECK(relative_error(at(r, "car.body.N_front", 0.0), m * g * b / L) < 1e-6);
  CHECK(relative_error(at(r, "car.body.N_rear", 0.0), m * g * a / L) < 1e-6);
  for (double t : {2.0, 3.5}) {
    INFO("t = " << t);
    CHECK(at(r, "car.wheel_fl.F_traction", t) > 1000.0);
    // A free wheel's traction only spins it up: J·dω/dt / r, about 40 N here.
    CHECK(at(r, "car.wheel_rl.F_traction", t) < 0.0);
    CHECK(at(r, "car.wheel_rl.F_traction", t) > -100.0);
    // Accelerating moves load from the driven front axle to the rear, and so
    // does the drag acting at the CG's height.
    const double transfer = (m * at(r, "car.body.a_x", t) + at(r, "car.body.F_drag", t)) * h / L;
    CHECK(relative_error(m * g * b / L - at(r, "car.body.N_front", t), transfer) < 1e-6);
  }
  // On ice the driven front wheels spin, the rear wheels roll.
  Result ice = drive<vehicle::FrontDriveCar>({}, 3.0, 100.0, [](vehicle::FrontDriveCar& car) {
    for (vehicle::Wheel* w : car.wheels) w->set_parameter("mu", 0.1);
  });
  CHECK(at(ice, "car.wheel_fl.kappa", 3.0) > 0.3);
  CHECK(std::fabs(at(ice, "car.wheel_rl.kappa", 3.0)) < 0.01);
}

TEST_CASE("RearDriveCar with ABS on magic-formula tires stops shorter than on locked wheels, without locking",
          "[vehicle][car][abs]") {
  auto magic_formula = [](vehicle::RearDriveCar& car) {
    for (vehicle::Wheel* w : car.wheels) w->set_parameter("tire_law", vehicle::TireLaw::pacejka);
  };
  // Launch for 8 s (about 90 km/h), then brake to a stop.
  const double brake_time = 8.0;
  Result locked = drive<vehicle::RearDriveCar>({}, 14.0, brake_time, magic_formula);
  Result abs = drive<vehicle::RearDriveCar>({.abs = true}, 14.0, brake_time, magic_formula);
  auto stop = [&](const Result& r) {
    auto v = r["car.body.v"], s = r["car.body.s"];
    double deepest = 0;
    for (std::size_t k = 0; k < r.size(); ++k)
      if (r.time()[k] >= brake_time && v[k] > 5.0)
        for (const char* c : {"fl", "fr", "rl", "rr"})
          deepest = std::min(deepest, r[std::string("car.wheel_") + c + ".kappa"][k]);
    std::size_t k = 0;
    while (k + 1 < r.size() && (r.time()[k] < brake_time || v[k] > 0.05)) ++k;
    return std::pair{s[k] - at(r, "car.body.s", brake_time), deepest};
  };
  const auto [locked_distance, locked_slip] = stop(locked);
  const auto [abs_distance, abs_slip] = stop(abs);
  INFO("locked " << locked_distance << " m (slip " << locked_slip << "), ABS " << abs_distance << " m (slip "
                 << abs_slip << ")");
  // Same launch: the ABS stays out of the loop until the brakes go on.
  CHECK(at(abs, "car.body.v", brake_time) == Approx(at(locked, "car.body.v", brake_time)).epsilon(1e-6));
  CHECK(locked_slip < -0.999);
  CHECK(abs_slip > -0.5);
  CHECK(abs_distance < locked_distance);
}

}  // namespace test_vehicle
