// vehicle::PitchingBody, the body with heave and pitch on a suspension per
// axle: its static loads, its damped pitch mode against the closed form, its
// quasi-static limit (VehicleBody), a wheel lifting off and landing, and its
// energy books. Rigs: the body on two lift-off Wheels (one per axle, each with
// the axle's tire stiffness), braked by smooth vehicle::Brakes, so the braking
// torque is the brake's capacity while the wheels turn.
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <string>
#include <type_traits>
#include <vector>

#include "components/vehicle/bodies/pitching_body.hpp"
#include "harness/energy.hpp"
#include "tests/support.hpp"

namespace test_pitching_body {

using namespace acausal;
using namespace acausal::vehicle;

namespace {

constexpr double g = 9.81;
constexpr double radius = 0.3;

double relative_error(double value, double expected) { return std::fabs(value - expected) / std::fabs(expected); }

/// Value of a column at the first output row at or after time t.
double at(const Result& r, const std::vector<double>& column, double t) {
  const auto& time = r.time();
  std::size_t k = std::lower_bound(time.begin(), time.end(), t - 1e-12) - time.begin();
  return column[std::min(k, r.size() - 1)];
}

/// How the brakes come on: a step at `start` (duration 0) or a ramp over `duration`.
struct Pedal {
  double start = 0.5;
  double duration = 0.0;
};

/// Adds a body (PitchingBody or VehicleBody) named "body" to m, on one Wheel
/// per axle, each braked by a smooth Brake of capacity tau_front / tau_rear
/// [N.m] behind the pedal, rolling at v0 at the start.
template <class Body>
void braking_rig(Model& m, ParameterValues body, double c_z_front, double c_z_rear, double tau_front, double tau_rear,
                 Pedal pedal, double v0, double mu = 1.0) {
  auto& b = m.add<Body>("body", std::move(body));
  auto& input = pedal.duration > 0
                    ? m.add<blocks::Ramp>("pedal", {{"startTime", pedal.start}, {"duration", pedal.duration}}).y
                    : m.add<blocks::Step>("pedal", {{"startTime", pedal.start}}).y;
  for (const std::string axle : {"front", "rear"}) {
    const bool front = axle == "front";
    // Quasi-static bodies set the load and need N = c_z·δ; suspended ones let the tire leave the road.
    const double lift_off = std::is_same_v<Body, PitchingBody> ? 1.0 : 0.0;
    auto& wheel = m.add<Wheel>(
        "wheel_" + axle,
        {{"radius", radius}, {"J", 0.5}, {"mu", mu}, {"c_z", front ? c_z_front : c_z_rear}, {"lift_off", lift_off}});
    auto& brake =
        m.add<Brake>("brake_" + axle, {{"tau_max", front ? tau_front : tau_rear}, {"friction", FrictionLaw::smooth}});
    m.connect(front ? b.contact_front : b.contact_rear, wheel.contact);
    m.connect(wheel.flange_rot, brake.flange_a);
    m.connect(input, brake.brake_input);
    m.set_start("wheel_" + axle + ".omega", v0 / radius);
  }
  m.set_start("body.s", 0.0);
  m.set_start("body.v", v0);
}

/// Times where `y` crosses zero (linear interpolation between rows), from t_from on.
std::vector<double> zero_crossings(const Result& r, const std::vector<double>& y, double t_from) {
  std::vector<double> crossings;
  const auto& t = r.time();
  for (std::size_t k = 1; k < r.size(); ++k) {
    if (t[k - 1] < t_from || t[k] <= t[k - 1]) continue;  // event instants appear twice
    if ((y[k - 1] < 0) != (y[k] < 0)) crossings.push_back(t[k - 1] + (t[k] - t[k - 1]) * y[k - 1] / (y[k - 1] - y[k]));
  }
  return crossings;
}

/// The pitch mode of a body whose axles are proportional (rear = a/b × front:
/// spring c, damper d, tire c_z), which decouples pitch from heave.
/// Derivation: front body point z - a·θ, rear z + b·θ (θ nose down). Each axle
/// is a tire c_z in series with the spring c parallel to the damper d (massless
/// axle): its impedance Z(s) = c_z·(c + d·s)/(c_z + c + d·s), and Z_rear = (a/b)·Z_front.
/// The coupling stiffness b·Z_rear - a·Z_front vanishes at every s, and the
/// pitch equation is J·s²·θ = -(a²·Z_front + b²·Z_rear)·θ = -a·L·Z_front·θ:
///   J·d·s³ + J·(c_z + c)·s² + a·L·c_z·d·s + a·L·c_z·c = 0,
/// a cubic with a fast real root (the damper relaxing against the springs) and
/// the complex pair of the pitch oscillation. Cardano's formula gives the pair;
/// returned: its root σ + iω (decay rate [1/s], damped angular frequency [rad/s]).
/// Without damping ω = sqrt(a·L·k/J), k = c·c_z/(c + c_z) the springs in series.
std::complex<double> pitch_mode(double J, double a, double L, double c, double d, double c_z) {
  const double A3 = J * d, p2 = J * (c_z + c) / A3, p1 = a * L * c_z * d / A3, p0 = a * L * c_z * c / A3;
  const double P = p1 - p2 * p2 / 3, Q = 2 * p2 * p2 * p2 / 27 - p2 * p1 / 3 + p0;
  const double disc = Q * Q / 4 + P * P * P / 27;
  REQUIRE(disc > 0);  // one real root and a complex pair: an oscillating mode
  const double u = std::cbrt(-Q / 2 + std::sqrt(disc)), v = std::cbrt(-Q / 2 - std::sqrt(disc));
  return {-(u + v) / 2 - p2 / 3, std::sqrt(3.0) / 2 * std::fabs(u - v)};
}

/// Largest relative imbalance, over the rows, of one component's energy books.
double books_error(const harness::EnergyBooks& books, const Result& r, const std::string& component) {
  for (const auto& account : books.accounts()) {
    if (account.component != component) continue;
    const auto c = r.evaluate({account.W_ports, account.W_supplied, account.stored, account.W_dissipated});
    double scale = 1e-9, worst = 0;
    for (std::size_t k = 0; k < r.size(); ++k) {
      const double stored = c[2][k] - c[2][0];
      scale = std::max({scale, std::fabs(c[0][k]), std::fabs(c[1][k]), std::fabs(stored), std::fabs(c[3][k])});
      worst = std::max(worst, std::fabs(c[0][k] + c[1][k] - stored - c[3][k]));
    }
    return worst / scale;
  }
  FAIL("no energy account for " << component);
  return 1.0;
}

constexpr double m = 1500, L = 2.7, a = 1.2, b = 1.5, h = 0.55, J_pitch = 2500;

}  // namespace

TEST_CASE("PitchingBody 1: at rest it carries VehicleBody's static loads and does not move", "[vehicle][pitching]") {
  // Equal springs and tires front and rear: heave and pitch coupled, the general case.
  Model rig("pitching_rig");
  braking_rig<PitchingBody>(rig, {{"m", m}, {"L", L}, {"a", a}, {"b", b}, {"h_cg", h}, {"J_pitch", J_pitch}}, 5e5, 5e5,
                            0.0, 0.0, {}, 0.0);
  Simulator sim = rig.compile();
  INFO(sim.report().str());
  Result r = sim.simulate(test::run_for(3.0, 0.01));
  auto N_f = r["body.N_front"], N_r = r["body.N_rear"];
  for (std::size_t k = 0; k < r.size(); ++k) {
    // Steady initialization: the loads are the statics' exactly, to 1e-6.
    CHECK(relative_error(N_f[k], m * g * b / L) < 1e-6);
    CHECK(relative_error(N_r[k], m * g * a / L) < 1e-6);
  }
  // Nothing moves: speeds below 1e-9 m/s (rad/s), positions within 1e-9 of the start.
  for (const char* name : {"body.v", "body.v_z", "body.w_pitch", "wheel_front.omega", "wheel_rear.omega"})
    CHECK(test::worst(r, name, [](double) { return 0.0; }) < 1e-9);
  const double z0 = r["body.z"].front(), pitch0 = r["body.pitch"].front();
  CHECK(test::worst(r, "body.z", [&](double) { return z0; }) < 1e-9);
  CHECK(test::worst(r, "body.pitch", [&](double) { return pitch0; }) < 1e-9);
  // The body sits on its tires: z and pitch are the tires' sag only (springs at the design point):
  // z - a·pitch = -N_front/c_z, z + b·pitch = -N_rear/c_z; to 1e-9 m (rad).
  CHECK(std::fabs(z0 + m * g * (a * a + b * b) / (L * L * 5e5)) < 1e-9);
  CHECK(std::fabs(pitch0 - m * g * (b - a) / (L * L * 5e5)) < 1e-9);
  CHECK(std::fabs(r["body.deflection_front"].front()) < 1e-9);
  CHECK(std::fabs(r["body.deflection_rear"].front()) < 1e-9);
}

TEST_CASE(
    "PitchingBody 2: braking dives the nose, the load transfer overshoots at the pitch frequency and settles "
    "to m*a*h/L",
    "[vehicle][pitching]") {
  // Proportional axles (rear = a/b × front) decouple pitch from heave, so one
  // mode carries the transfer: pitch_mode's cubic gives its frequency and decay.
  // Light damping shows several cycles; the default damping settles within the run.
  const double c = 5e4, c_z = 5e5, ratio = a / b;
  const double tau = 900.0;  // per wheel: 6000 N of braking, about 4 m/s²
  for (const double d : {1000.0, 5000.0}) {
    DYNAMIC_SECTION("damper " << d << " N.s/m front") {
      Model rig("pitching_rig");
      braking_rig<PitchingBody>(rig,
                                {{"m", m},
                                 {"L", L},
                                 {"a", a},
                                 {"b", b},
                                 {"h_cg", h},
                                 {"J_pitch", J_pitch},
                                 {"Cd", 0.0},
                                 {"Crr", 0.0},
                                 {"c_front", c},
                                 {"c_rear", ratio * c},
                                 {"d_front", d},
                                 {"d_rear", ratio * d}},
                                c_z, ratio * c_z, tau, tau, {.start = 0.5}, 35.0);
      Result r = rig.compile().simulate(test::run_for(7.0, 1e-3));
      auto N_f = r["body.N_front"], N_r = r["body.N_rear"], a_x = r["body.a_x"], pitch = r["body.pitch"];
      // The quasi-static front load with the measured deceleration (VehicleBody's law).
      std::vector<double> excess(r.size());
      for (std::size_t i = 0; i < r.size(); ++i) excess[i] = N_f[i] - (m * g * b / L - m * a_x[i] * h / L);

      const double t_end = 7.0, acc = at(r, a_x, t_end);
      CHECK(acc < -3.5);
      CHECK(r["body.v"].back() > 0);                          // still braking, not standing
      const double dN = m * acc * h / L;                      // < 0: the front gains
      CHECK(at(r, pitch, t_end) > at(r, pitch, 0.4) + 0.01);  // the nose dives
      // Overshoot: the front load first goes beyond the settled value (by 10 % of the transfer at least).
      const double overshoot = *std::max_element(excess.begin(), excess.end());
      INFO("overshoot " << overshoot << " N of a transfer of " << -dN << " N");
      CHECK(overshoot > 0.1 * -dN);
      // Decoupled: the heave stays within 5 % of the pitch's travel at the front axle (a·Δpitch).
      const double dpitch = at(r, pitch, t_end) - at(r, pitch, 0.4);
      CHECK(test::worst(r, "body.z", [&](double) { return r["body.z"].front(); }) < 0.05 * a * dpitch);

      // The oscillation of the excess after the fast real root has died (20 ms): its zero
      // crossings and, between them, its peaks; those above 2e-3 of the transfer count (far
      // above the integration error, so their times and sizes read cleanly).
      const auto crossings = zero_crossings(r, excess, 0.52);
      std::vector<double> peak_time, peak;
      for (std::size_t i = 0; i + 1 < crossings.size(); ++i) {
        double best = 0, when = 0;
        for (std::size_t k = 0; k < r.size(); ++k)
          if (r.time()[k] > crossings[i] && r.time()[k] < crossings[i + 1] && std::fabs(excess[k]) > best)
            best = std::fabs(excess[k]), when = r.time()[k];
        if (best < 2e-3 * -dN) break;
        peak.push_back(best);
        peak_time.push_back(when);
      }
      REQUIRE(peak.size() >= 2);
      const std::size_t n = peak.size();
      const double measured = M_PI * double(n - 1) / (peak_time[n - 1] - peak_time[0]);  // peaks π/ω apart
      const double decay = std::log(peak[n - 1] / peak[0]) / (peak_time[n - 1] - peak_time[0]);
      const auto mode = pitch_mode(J_pitch, a, L, c, d, c_z);
      INFO("pitch mode: measured " << measured / (2 * M_PI) << " Hz, decay " << decay << " 1/s from " << n
                                   << " peaks; closed form " << mode.imag() / (2 * M_PI) << " Hz, decay " << mode.real()
                                   << " 1/s (undamped " << std::sqrt(a * L * c * c_z / (c + c_z) / J_pitch) / (2 * M_PI)
                                   << " Hz)");
      // 2 %: the wheels' inertia (0.5 kg.m2 at 0.3 m) adds 2·J·h²/r² = 3.4 kg.m2 to J_pitch, 0.07 % in frequency.
      CHECK(relative_error(measured, mode.imag()) < 0.02);
      // The decay rate within 5 % (peaks read on a 1 ms grid).
      CHECK(relative_error(decay, mode.real()) < 0.05);
      WARN("d = " << d << ": pitch mode measured " << measured / (2 * M_PI) << " Hz, decay " << decay << " 1/s (" << n
                  << " peaks); closed form " << mode.imag() / (2 * M_PI) << " Hz, decay " << mode.real()
                  << " 1/s; overshoot " << overshoot << " N over " << -dN << " N; settled to "
                  << relative_error(m * g * b / L - at(r, N_f, t_end), dN));
      if (d >= 5000) {
        // Settled (the default damping, 6.5 s after the step): the transfer is m·a_x·h/L within 1e-4 of it.
        CHECK(relative_error(m * g * b / L - at(r, N_f, t_end), dN) < 1e-4);
        CHECK(relative_error(at(r, N_r, t_end) - m * g * a / L, dN) < 1e-4);
      }
    }
  }
}

TEST_CASE("PitchingBody 3: with stiff suspension and tires the axle loads follow VehicleBody's within 1e-3",
          "[vehicle][pitching]") {
  // The same ramped braking on both bodies; the ramp (0.5 s to 6000 N) is slow
  // against the stiff pitch mode (≈ 130 Hz), so the suspended body tracks the quasi-static one:
  // a mode ω with damping ratio ζ lags a ramp of the load by about 2ζ/ω times its rate,
  // 2·0.4/800 s × 2400 N/s ≈ 2.4 N, 3e-4 of the front axle's load; the tolerance is 1e-3.
  const double c = 1e9, c_z = 1e9, d = 5000.0 * std::sqrt(c / 5e4);  // damping ratio as the defaults'
  const double tau = 900.0;
  ParameterValues common{{"m", m}, {"L", L}, {"a", a}, {"b", b}, {"h_cg", h}, {"Cd", 0.3}, {"Crr", 0.015}};
  Pedal pedal{.start = 0.5, .duration = 0.5};
  Model quasi_static("quasi_static_rig");
  braking_rig<VehicleBody>(quasi_static, common, c_z, c_z, tau, tau, pedal, 30.0);
  Result q = quasi_static.compile().simulate(test::run_for(3.0, 1e-3));
  auto run_pitching = [&](double c_axle, double d_axle, double c_tire) {
    ParameterValues p = common;
    p.insert(p.end(),
             {{"J_pitch", J_pitch}, {"c_front", c_axle}, {"c_rear", c_axle}, {"d_front", d_axle}, {"d_rear", d_axle}});
    Model rig("pitching_rig");
    braking_rig<PitchingBody>(rig, p, c_tire, c_tire, tau, tau, pedal, 30.0);
    return rig.compile().simulate(test::run_for(3.0, 1e-3));
  };
  // Largest difference of the axle loads, relative to the static load of the axle, at common output times.
  auto difference = [&](const Result& r) {
    double worst = 0;
    for (const auto& [name, N_static] : {std::pair{"body.N_front", m * g * b / L}, {"body.N_rear", m * g * a / L}}) {
      auto N = r[name], N_q = q[name];
      for (std::size_t k = 0; k < r.size(); ++k)
        worst = std::max(worst, std::fabs(N[k] - at(q, N_q, r.time()[k])) / N_static);
    }
    return worst;
  };
  Result stiff = run_pitching(c, d, c_z);
  const double stiff_error = difference(stiff);
  INFO("stiff: " << stiff_error);
  CHECK(stiff_error < 1e-3);
  CHECK(relative_error(stiff["body.a_x"].back(), q["body.a_x"].back()) < 1e-3);
  CHECK(q["body.a_x"].back() < -3.5);  // the comparison is under real braking
  // The default suspension is not quasi-static: the same check fails by far.
  Result soft = run_pitching(5e4, 5e3, 5e5);
  INFO("soft: " << difference(soft));
  CHECK(difference(soft) > 10e-3);
  WARN("quasi-static limit: stiff suspension within " << stiff_error << ", default suspension " << difference(soft)
                                                      << " of the static axle load");
}

TEST_CASE("PitchingBody 4: hard braking of a short, high car lifts the rear wheel, which lands again",
          "[vehicle][pitching]") {
  // L = 2 m, CG 0.8 m high and 0.6 m behind the front axle: the rear carries
  // m·g·a/L = 4415 N. Front-biased brakes (7500 N front, 2000 N rear) ask for
  // 6.3 m/s², which would transfer 3800 N once settled, but the step
  // overshoots beyond the rear's load: the rear lifts off (its brake locks the
  // unloaded wheel), the front alone brakes less, and the rear lands again.
  const double L_short = 2.0, a_short = 0.6, b_short = 1.4, h_high = 0.8, tau_front = 2250.0, tau_rear = 600.0;
  Model rig("pitching_rig");
  braking_rig<PitchingBody>(rig,
                            {{"m", m},
                             {"L", L_short},
                             {"a", a_short},
                             {"b", b_short},
                             {"h_cg", h_high},
                             {"J_pitch", 1500.0},
                             {"d_front", 2000.0},
                             {"d_rear", 2000.0}},
                            5e5, 5e5, tau_front, tau_rear, {.start = 0.5}, 30.0, 1.2);
  harness::EnergyBooks books(rig);
  Simulator sim = rig.compile();
  Result r;
  REQUIRE_NOTHROW(r = sim.simulate(test::run_for(4.0, 1e-3)));
  REQUIRE(r.time().back() == Approx(4.0));
  auto N_r = r["body.N_rear"], F_r = r["wheel_rear.F_traction"], deflection = r["wheel_rear.deflection"];
  const auto& t = r.time();
  double lift = -1, land = -1;
  for (std::size_t k = 0; k < r.size(); ++k) {
    INFO("t = " << t[k] << " s: N_rear = " << N_r[k] << " N, deflection " << deflection[k] << " m, traction " << F_r[k]
                << " N");
    // A tire cannot pull the road: N >= 0, to rounding (1e-9 N) at the lift-off instant itself,
    // whose left row still has the old mode with a deflection of order -1e-17 m.
    CHECK(N_r[k] >= -1e-9);
    if (deflection[k] < -1e-12) {
      // Airborne (clear of the event instant): no load and no traction, exactly.
      CHECK(N_r[k] == 0.0);
      CHECK(F_r[k] == 0.0);
      if (lift < 0) lift = t[k];
    } else if (lift >= 0 && land < 0 && N_r[k] > 0) {
      land = t[k];
    }
  }
  INFO("rear wheel airborne from " << lift << " s to " << land << " s");
  REQUIRE(lift > 0.5);
  REQUIRE(land > lift + 0.02);                          // airborne for a while (20 ms at least) ...
  CHECK(N_r.back() > 0.1 * m * g * a_short / L_short);  // ... and back on the road, carrying load
  // Lift-off and landing are events of the rear tire's max(deflection, 0).
  int tire_events = 0;
  for (const auto& cause : r.event_causes())
    if (cause.find("deflection_rear") != std::string::npos) ++tire_events;
  CHECK(tire_events >= 2);
  // The body's own books close through the lift-off (1e-4 of the energy that went through).
  CHECK(books_error(books, r, "body") < 1e-4);
  WARN("lift-off: rear wheel airborne from " << lift << " s to " << land << " s; events: " << r.event_times().size()
                                             << "; body books " << books_error(books, r, "body") << ", rear wheel's "
                                             << books_error(books, r, "wheel_rear"));
}

TEST_CASE("PitchingBody 5: the energy books close, the body's and the whole rig's", "[vehicle][pitching]") {
  // Braking with drag and rolling resistance on a grade: every term of the books at work. On a
  // grade table the road turns under the car, and gravity (supplied power) still balances.
  for (const bool table : {false, true}) {
    DYNAMIC_SECTION((table ? "a hill from a grade table" : "a constant 3 % grade")) {
      Model rig("pitching_rig");
      braking_rig<PitchingBody>(rig, {{"grade", 0.03}}, 5e5, 5e5, 900.0, 900.0, {.start = 0.5}, 25.0);
      auto& body = dynamic_cast<PitchingBody&>(*rig.child("body"));
      if (table) body.set_grade_table({{0.0, 0.0}, {20.0, 0.08}, {40.0, 0.08}, {60.0, -0.05}});
      harness::EnergyBooks books(rig);
      Result r = rig.compile().simulate(test::run_for(4.0, 1e-3));
      CHECK(r["body.s"].back() > 60.0);  // over the whole hill
      // 1e-4 of the energy that went through each component (the integrals run at rtol 1e-8).
      const auto components = books.components_close(1e-4).evaluate(r);
      INFO(components.message);
      CHECK(components.passed);
      const auto whole = books.model_closes(1e-4).evaluate(r);
      INFO(whole.message);
      CHECK(whole.passed);
      CHECK(books_error(books, r, "body") < 1e-4);
      WARN("books: " << components.message << " / whole: " << whole.message << " / body "
                     << books_error(books, r, "body"));
    }
  }
  // Where the suspension's own energy is all there is: a standing car released (initType
  // NoInit) 5 mm low and 2 mrad nose down from its rest position; the dampers take it all.
  SECTION("released off its rest position, at a standstill") {
    Model rig("pitching_rig");
    braking_rig<PitchingBody>(rig, {{"initType", 0}}, 5e5, 5e5, 0.0, 0.0, {}, 0.0);
    const double z_rest = -m * g * (a * a + b * b) / (L * L * 5e5), pitch_rest = m * g * (b - a) / (L * L * 5e5);
    rig.set_start("body.z", z_rest - 0.005);
    rig.set_start("body.pitch", pitch_rest + 0.002);
    for (const char* state : {"body.v_z", "body.w_pitch", "body.deflection_front", "body.deflection_rear"})
      rig.set_start(state, 0.0);
    harness::EnergyBooks books(rig);
    Result r = rig.compile().simulate(test::run_for(4.0, 1e-3));
    const double error = books_error(books, r, "body");
    INFO("body books " << error);
    CHECK(error < 1e-4);
    const auto components = books.components_close(1e-4).evaluate(r);
    INFO(components.message);
    CHECK(components.passed);
    CHECK(r["body.energy.W_dissipated"].back() > 0.5);  // J: the dampers did take the energy
    // Back at rest where the steady initialization puts it, to 1e-6 m (rad).
    CHECK(std::fabs(r["body.z"].back() - z_rest) < 1e-6);
    CHECK(std::fabs(r["body.pitch"].back() - pitch_rest) < 1e-6);
    WARN("released: body books " << error << ", dissipated " << r["body.energy.W_dissipated"].back() << " J");
  }
}

TEST_CASE("PitchingBody rejects a + b != L, a missing damper or spring, and a non-positive pitch inertia",
          "[vehicle][pitching][errors]") {
  auto compile_body = [](ParameterValues p) {
    Model rig("pitching_rig");
    braking_rig<PitchingBody>(rig, std::move(p), 5e5, 5e5, 0.0, 0.0, {}, 0.0);
    return rig.compile();
  };
  CHECK_THROWS_WITH(compile_body({{"a", 1.0}, {"b", 1.0}, {"L", 2.7}}),
                    Catch::Contains("body") && Catch::Contains("a + b must equal the wheelbase L"));
  CHECK_THROWS_WITH(compile_body({{"d_rear", 0.0}}), Catch::Contains("d_front and d_rear must be positive"));
  CHECK_THROWS_WITH(compile_body({{"c_front", 0.0}}), Catch::Contains("c_front and c_rear must be positive"));
  CHECK_THROWS_WITH(compile_body({{"J_pitch", 0.0}}), Catch::Contains("J_pitch"));
  // Checked at each run too: a damper set to zero after compiling.
  Simulator sim = compile_body({});
  sim.set_parameter("body.d_front", 0.0);
  CHECK_THROWS_AS(sim.simulate(test::run_for(0.1, 0.01)), ModelError);
}

}  // namespace test_pitching_body
