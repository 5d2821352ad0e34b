// The electrical analog domain (issue 32, item 1: Modelica.Electrical.Analog
// names and signs) against closed forms and energy books. Tolerances are
// stated per check: trajectories integrated at rtol 1e-10 are held to 1e-6 of
// their scale, algebraic relations (exact in every output row) to 1e-12.
// tests/test_msl_electrical.cpp compares MSL examples with their references.
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>
#include <acausal/harness/energy.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "support.hpp"

namespace test_electrical {

using namespace acausal;
using Catch::Matchers::Contains;

namespace {

constexpr double pi = std::numbers::pi;

/// The DC permanent-magnet motor: source → resistor → inductor → EMF, the
/// EMF driving an inertia that a constant torque loads.
struct DCMotor : Model {
  static constexpr double k = 0.5, R = 0.05, J = 0.1, V = 400.0, L = 1e-4;
  electrical::ConstantVoltage& source = add<electrical::ConstantVoltage>("source", {{"V", V}});
  electrical::Resistor& resistor = add<electrical::Resistor>("resistor", {{"R", R}});
  electrical::Inductor& inductor = add<electrical::Inductor>("inductor", {{"L", L}});
  electrical::EMF& emf = add<electrical::EMF>("emf", {{"k", k}});
  electrical::Ground& ground = add<electrical::Ground>("ground");
  rotational::Inertia& inertia = add<rotational::Inertia>("inertia", {{"J", J}});
  rotational::ConstantTorque& load = add<rotational::ConstantTorque>("load", {{"tau_constant", 0.0}});
  DCMotor() : Model("dc_motor") {
    connect(source.p, resistor.p);
    connect(resistor.n, inductor.p);
    connect(inductor.n, emf.p);
    connect(emf.n, source.n);
    connect(source.n, ground.p);
    connect(emf.flange, inertia.flange_a);
    connect(inertia.flange_b, load.flange);
    for (const char* v : {"inertia.phi", "inertia.w", "inductor.i"}) set_start(v, 0.0);
  }
  /// The speed from rest with no load, exactly: L·J·s² + R·J·s + k² = 0 has two real roots here.
  static double speed(double t, double L_) {
    const double a = L_ * J, b = R * J, c = k * k, root = std::sqrt(b * b - 4 * a * c);
    const double s1 = (-b + root) / (2 * a), s2 = (-b - root) / (2 * a);
    return V / k * (1 + (s2 * std::exp(s1 * t) - s1 * std::exp(s2 * t)) / (s1 - s2));
  }
};

}  // namespace

TEST_CASE("RC charging from a voltage step: v = V(1 - exp(-(t - t0)/RC)), the resistor dissipates ½CV²(1 - exp(-2(t - t0)/RC))",
          "[electrical]") {
  const double V = 10.0, R = 1e3, C = 1e-4, t0 = 0.01, T = 0.6, RC = R * C;
  Model m("rc");
  auto& source = m.add<electrical::StepVoltage>("source", {{"V", V}, {"startTime", t0}});
  auto& resistor = m.add<electrical::Resistor>("resistor", {{"R", R}});
  auto& capacitor = m.add<electrical::Capacitor>("capacitor", {{"C", C}});
  auto& ground = m.add<electrical::Ground>("ground");
  m.connect(source.p, resistor.p);
  m.connect(resistor.n, capacitor.p);
  m.connect(capacitor.n, source.n);
  m.connect(source.n, ground.p);
  m.set_start("capacitor.v", 0.0);
  harness::EnergyBooks books(m);
  Result r = m.compile().simulate(test::run_for(T, 1e-3, 1e-10));

  auto charged = [&](double t) { return t < t0 ? 0.0 : V * (1 - std::exp(-(t - t0) / RC)); };
  CHECK(test::worst(r, "capacitor.v", charged) < 1e-6 * V);
  // The step is a time event, hit exactly; its left row still has no current.
  REQUIRE(r.event_times().size() == 1);
  CHECK(r.event_times()[0] == t0);
  auto current = [&](double t, std::size_t k) {
    const bool before = t < t0 || (t == t0 && k + 1 < r.size() && r.time()[k + 1] == t0);
    return before ? 0.0 : (V - charged(t)) / R;
  };
  CHECK(test::worst(r, "resistor.i", current) < 1e-6 * V / R);
  // Ohm's law holds in every row to rounding.
  const auto i = r["resistor.i"];
  CHECK(test::worst(r, "resistor.v", [&](double, std::size_t k) { return R * i[k]; }) < 1e-12 * V);
  const double dissipated = 0.5 * C * V * V * (1 - std::exp(-2 * (T - t0) / RC));
  CHECK(r["resistor.energy.W_dissipated"].back() == Approx(dissipated).epsilon(1e-6));
  const auto closes = books.components_close(1e-6).evaluate(r);
  INFO(closes.message);
  CHECK(closes.passed);
}

TEST_CASE("RLC series step response: the closed form, its damped frequency and damping ratio", "[electrical]") {
  const double V = 1.0, R = 10.0, L = 0.1, C = 1e-4;
  const double w0 = 1 / std::sqrt(L * C), zeta = R / 2 * std::sqrt(C / L), wd = w0 * std::sqrt(1 - zeta * zeta);
  Model m("rlc");
  auto& source = m.add<electrical::StepVoltage>("source", {{"V", V}});
  auto& resistor = m.add<electrical::Resistor>("resistor", {{"R", R}});
  auto& inductor = m.add<electrical::Inductor>("inductor", {{"L", L}});
  auto& capacitor = m.add<electrical::Capacitor>("capacitor", {{"C", C}});
  auto& ground = m.add<electrical::Ground>("ground");
  m.connect(source.p, resistor.p);
  m.connect(resistor.n, inductor.p);
  m.connect(inductor.n, capacitor.p);
  m.connect(capacitor.n, source.n);
  m.connect(source.n, ground.p);
  m.set_start("capacitor.v", 0.0);
  m.set_start("inductor.i", 0.0);
  Result r = m.compile().simulate(test::run_for(0.1, 1e-4, 1e-10));

  // v_C = V(1 - e^(-ζω0 t)(cos ωd t + ζ/√(1-ζ²) sin ωd t)), i = C·dv_C/dt; 1e-6 of V and of C·V·ω0.
  const double decay = zeta * w0, q = zeta / std::sqrt(1 - zeta * zeta);
  auto vc = [&](double t) { return V * (1 - std::exp(-decay * t) * (std::cos(wd * t) + q * std::sin(wd * t))); };
  auto i = [&](double t) { return C * V * std::exp(-decay * t) * w0 / std::sqrt(1 - zeta * zeta) * std::sin(wd * t); };
  CHECK(test::worst(r, "capacitor.v", vc) < 1e-6 * V);
  CHECK(test::worst(r, "inductor.i", i) < 1e-6 * C * V * w0);
  // Linearized: one complex pair with ω0, ζ and ωd of the closed form, to 1e-9 (exact by construction).
  const LinearModel lin = linearize(r, r.time().back());
  const auto found = modes(lin);
  REQUIRE(found.size() == 1);
  CHECK(found[0].natural_frequency == Approx(w0).epsilon(1e-9));
  CHECK(found[0].damping_ratio == Approx(zeta).epsilon(1e-9));
  CHECK(std::fabs(found[0].eigenvalue.imag()) == Approx(wd).epsilon(1e-9));
}

TEST_CASE("An inductor stores ½Li²: its energy books against the RL current i = V/R(1 - exp(-tR/L))", "[electrical][energy]") {
  const double V = 12.0, R = 2.0, L = 0.5, T = 1.5;
  Model m("rl");
  auto& source = m.add<electrical::ConstantVoltage>("source", {{"V", V}});
  auto& resistor = m.add<electrical::Resistor>("resistor", {{"R", R}});
  auto& inductor = m.add<electrical::Inductor>("inductor", {{"L", L}});
  auto& ground = m.add<electrical::Ground>("ground");
  m.connect(source.p, resistor.p);
  m.connect(resistor.n, inductor.p);
  m.connect(inductor.n, source.n);
  m.connect(source.n, ground.p);
  m.set_start("inductor.i", 0.0);
  harness::EnergyBooks books(m);
  Result r = m.compile().simulate(test::run_for(T, 1e-3, 1e-10));

  const double I = V / R, E = 0.5 * L * I * I;
  CHECK(test::worst(r, "inductor.i", [&](double t) { return I * (1 - std::exp(-t * R / L)); }) < 1e-6 * I);
  // The energy that entered through the pins, ∫v·i dt, is ½Li² at every row, within 1e-6 of ½L(V/R)².
  const auto W = r["inductor.energy.W_ports"], current = r["inductor.i"];
  double worst = 0;
  for (std::size_t k = 0; k < r.size(); ++k) worst = std::max(worst, std::fabs(W[k] - 0.5 * L * current[k] * current[k]));
  CHECK(worst < 1e-6 * E);
  const auto closes = books.components_close(1e-6).evaluate(r);
  const auto whole = books.model_closes(1e-6).evaluate(r);
  INFO(closes.message << "\n" << whole.message);
  CHECK(closes.passed);
  CHECK(whole.passed);
}

TEST_CASE("DC motor (R + L + EMF + inertia): no-load speed V/k, the exact and the first-order speed rise, the loaded "
          "steady state",
          "[electrical][rotational]") {
  DCMotor m;
  Simulator sim = m.compile();
  const double w_no_load = DCMotor::V / DCMotor::k, tau = DCMotor::J * DCMotor::R / (DCMotor::k * DCMotor::k);
  CHECK(w_no_load == 800.0);
  CHECK(tau == Approx(0.02).epsilon(1e-12));

  // With L = 1e-4 H the speed rises as the exact second-order closed form, 1e-6 of 800 rad/s.
  Result r = sim.simulate(test::run_for(0.2, 1e-4, 1e-10));
  CHECK(test::worst(r, "inertia.w", [](double t) { return DCMotor::speed(t, DCMotor::L); }) < 1e-6 * w_no_load);
  CHECK(test::worst(r, "emf.w", [](double t) { return DCMotor::speed(t, DCMotor::L); }) < 1e-6 * w_no_load);
  // Back EMF and torque constant in every row: v = k·w, the shaft torque k·i (1e-12).
  const auto speed = r["inertia.w"], current = r["emf.i"];
  CHECK(test::worst(r, "emf.v", [&](double, std::size_t j) { return DCMotor::k * speed[j]; }) < 1e-12 * 400);
  CHECK(test::worst(r, "emf.tauElectrical", [&](double, std::size_t j) { return DCMotor::k * current[j]; }) <
        1e-12 * 400);

  // With L = 1e-7 H (electrical time constant 2 µs) it is the first-order motor:
  // w(τ) = (V/k)(1 - 1/e) at the mechanical time constant τ = J·R/k², within 1e-6
  // (the inductance shifts it by O((L/R)²/τ²) only).
  sim.set_parameter("inductor.L", 1e-7);
  Result fast = sim.simulate(test::run_for(2 * tau, tau / 100, 1e-10));
  const auto& t = fast.time();
  const auto w = fast["inertia.w"];
  const std::size_t at = static_cast<std::size_t>(std::min_element(t.begin(), t.end(), [&](double a, double b) {
                           return std::fabs(a - tau) < std::fabs(b - tau);
                         }) - t.begin());
  REQUIRE(std::fabs(t[at] - tau) < 1e-12);
  CHECK(w[at] == Approx(w_no_load * (1 - std::exp(-1.0))).epsilon(1e-6));
  CHECK(w[at] == Approx(DCMotor::speed(t[at], 1e-7)).epsilon(1e-6));

  // Loaded with 50 N·m: I = τ/k = 100 A and ω = (V - R·I)/k = 790 rad/s once settled (1e-6).
  sim.set_parameter("inductor.L", DCMotor::L);
  sim.set_parameter("load.tau_constant", -50.0);
  Result loaded = sim.simulate(test::run_for(1.0, 1e-3, 1e-10));
  CHECK(loaded["inductor.i"].back() == Approx(100.0).epsilon(1e-6));
  CHECK(loaded["inertia.w"].back() == Approx(790.0).epsilon(1e-6));
}

TEST_CASE("DC motor energy books: electrical energy in = mechanical work + losses + stored", "[electrical][energy]") {
  DCMotor m;
  m.load.set_parameter("tau_constant", -50.0);
  harness::EnergyBooks books(m);
  Result r = m.compile().simulate(test::run_for(0.3, 1e-4, 1e-10));
  const auto closes = books.components_close(1e-6).evaluate(r);
  const auto whole = books.model_closes(1e-6).evaluate(r);
  INFO(closes.message << "\n" << whole.message);
  CHECK(closes.passed);
  CHECK(whole.passed);
  // The same by hand at the end, within 1e-6 of the energy drawn from the source: the
  // source's work = the load's work (∫50·w dt) + the copper loss + ½Jw² + ½Li².
  const double w = r["inertia.w"].back(), i = r["inductor.i"].back();
  const double drawn = r["source.energy.W_supplied"].back();
  const double work = -r["load.energy.W_supplied"].back();
  const double loss = r["resistor.energy.W_dissipated"].back();
  const double stored = 0.5 * DCMotor::J * w * w + 0.5 * DCMotor::L * i * i;
  CHECK(work > 0.0);
  CHECK(std::fabs(drawn - (work + loss + stored)) < 1e-6 * drawn);
  // The EMF converts without loss: what enters its pins leaves at its flange.
  CHECK(std::fabs(r["emf.energy.W_ports"].back()) < 1e-6 * drawn);
}

TEST_CASE("Half-wave rectifier: the ideal diode switches by state events at the closed-form instants, books close",
          "[electrical][events][energy]") {
  const double V = 10.0, f = 50.0, R = 100.0, C = 100e-6, v0 = V / 2, T = 0.1;
  const double w = 2 * pi * f, RC = R * C;
  Model m("half_wave");
  auto& source = m.add<electrical::SineVoltage>("source", {{"V", V}, {"f", f}});
  // Goff = 0: blocked, the capacitor discharges through the load alone (a closed form).
  auto& diode = m.add<electrical::IdealDiode>("diode", {{"Goff", 0.0}});
  auto& capacitor = m.add<electrical::Capacitor>("capacitor", {{"C", C}});
  auto& load = m.add<electrical::Resistor>("load", {{"R", R}});
  auto& ground = m.add<electrical::Ground>("ground");
  m.connect(source.p, diode.p);
  m.connect(diode.n, capacitor.p);
  m.connect(capacitor.p, load.p);
  m.connect(capacitor.n, load.n);
  m.connect(load.n, source.n);
  m.connect(source.n, ground.p);
  m.set_start("capacitor.v", v0);
  harness::EnergyBooks books(m);
  Simulator sim = m.compile();
  INFO(sim.report().str());
  Result r = sim.simulate(test::run_for(T, 1e-4, 1e-10));

  // The ideal rectifier in closed form: blocked, v_C decays as e^(-t/RC) until the
  // source reaches it (turn-on); conducting, v_C follows the source until the
  // diode current C·dv/dt + v/R reaches 0, at tan(ωt) = -ωRC (turn-off).
  std::vector<double> expected;
  double t_from = 0.0, v_from = v0;
  while (true) {
    auto gap = [&](double t) { return V * std::sin(w * t) - v_from * std::exp(-(t - t_from) / RC); };
    double lo = t_from + 1e-9, hi = lo;
    while (hi < T && !(gap(lo) <= 0 && gap(hi) > 0)) lo = hi, hi += 1e-5;
    if (hi >= T) break;
    for (int k = 0; k < 100; ++k) (gap(0.5 * (lo + hi)) > 0 ? hi : lo) = 0.5 * (lo + hi);
    const double on = 0.5 * (lo + hi);
    expected.push_back(on);
    double off = (2 * pi * std::floor(w * on / (2 * pi)) + pi - std::atan(w * RC)) / w;
    if (off < on) off += 2 * pi / w;
    if (off >= T) break;
    expected.push_back(off);
    t_from = off, v_from = V * std::sin(w * off);
  }
  REQUIRE(expected.size() == 10);  // five periods: on and off in each
  // Each instant is a state event of the diode, within 1e-7 s (Ron = 1e-5 Ω shifts
  // the turn-off by about Ron·C = 1e-9 s).
  for (double t : expected) {
    double nearest = 1e9;
    for (double e : r.event_times()) nearest = std::min(nearest, std::fabs(e - t));
    INFO("closed-form switching instant " << t);
    CHECK(nearest < 1e-7);
  }
  REQUIRE(r.event_causes().size() == r.event_times().size());
  for (const auto& cause : r.event_causes()) CHECK_THAT(cause, Contains("diode.s < 0"));
  // The diode's state changes only at events (left and right rows of one instant),
  // once per closed-form instant.
  const auto off = r["diode.off"];
  std::size_t flips = 0;
  for (std::size_t k = 1; k < r.size(); ++k) {
    if (off[k] == off[k - 1]) continue;
    ++flips;
    CHECK(r.time()[k] == r.time()[k - 1]);
  }
  CHECK(flips == expected.size());
  // The diode only loses energy: its loss integral never decreases, to the
  // integration tolerance (1e-10 of it); every component's books close, within 1e-6.
  const auto W = r["diode.energy.W_dissipated"];
  double worst_decrease = 0;
  for (std::size_t k = 1; k < r.size(); ++k) worst_decrease = std::max(worst_decrease, W[k - 1] - W[k]);
  CHECK(worst_decrease <= 1e-10 * W.back());
  CHECK(W.back() > 0.0);
  const auto closes = books.components_close(1e-6).evaluate(r);
  const auto whole = books.model_closes(1e-6).evaluate(r);
  INFO(closes.message << "\n" << whole.message);
  CHECK(closes.passed);
  CHECK(whole.passed);
}

}  // namespace test_electrical
