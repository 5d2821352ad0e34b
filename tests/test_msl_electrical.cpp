// Examples of Modelica.Electrical.Analog (MSL 4.0.0) rebuilt with our
// components: Rectifier, CauerLowPassAnalog, CharacteristicIdealDiodes and ShowSaturatingInductor
// against their reference results (tests/data/msl/README.md: MAP-LIB, Dymola,
// DASSL at 1e-6), each signal within the stated fraction of its range;
// ChuaCircuit, whose reference is not available, against the exact solution of
// its piecewise linear equations.
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>
#include <acausal/harness/energy.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "msl_reference.hpp"
#include "support.hpp"

namespace test_msl_electrical {

using namespace acausal;
using namespace acausal::test;

namespace {

constexpr double pi = std::numbers::pi;

void check_books(const harness::EnergyBooks& books, const Result& r, double tolerance) {
  const auto closes = books.components_close(tolerance).evaluate(r);
  INFO(closes.message);
  CHECK(closes.passed);
}

/// Chua's diode (MSL Examples.Utilities.NonlinearResistor): piecewise linear,
/// slope Ga inside |v| <= Ve and Gb outside, continuous. With Ga, Gb < 0 it is
/// active: it supplies the energy the oscillation needs.
struct NonlinearResistor : electrical::OnePort {
  Parameter Ga = parameter("Ga", -0.757576, {.unit = "A/V"});
  Parameter Gb = parameter("Gb", -0.409091, {.unit = "A/V"});
  Parameter Ve = parameter("Ve", 1.0, {.unit = "V"});
  explicit NonlinearResistor(std::string name) : OnePort(std::move(name)) {
    energy_source();
    equation(i == ifelse(v < -Ve, Gb * (v + Ve) - Ga * Ve, ifelse(v > Ve, Gb * (v - Ve) + Ga * Ve, Ga * v)));
  }
};

}  // namespace

TEST_CASE("MSL Electrical.Analog.Examples.Rectifier: a B6 diode bridge on a three-phase supply", "[msl][electrical][events]") {
  const double VAC = 400, f = 50, LAC = 60e-6, Ron = 1e-3, Goff = 1e-3, Vknee = 2, CDC = 15e-3, IDC = 500;
  Model m("Rectifier");
  std::vector<electrical::SineVoltage*> sources;
  std::vector<electrical::Inductor*> inductors;
  std::vector<electrical::IdealDiode*> diodes;
  for (int k = 0; k < 3; ++k) {
    sources.push_back(&m.add<electrical::SineVoltage>(
        "SineVoltage" + std::to_string(k + 1), {{"V", VAC * std::sqrt(2.0 / 3)}, {"f", f}, {"phase", -2.0 / 3 * pi * k}}));
    inductors.push_back(&m.add<electrical::Inductor>("Inductor" + std::to_string(k + 1), {{"L", LAC}}));
  }
  for (int k = 0; k < 6; ++k)
    diodes.push_back(&m.add<electrical::IdealDiode>("IdealDiode" + std::to_string(k + 1),
                                                    {{"Ron", Ron}, {"Goff", Goff}, {"Vknee", Vknee}}));
  auto& C1 = m.add<electrical::Capacitor>("Capacitor1", {{"C", 2 * CDC}});
  auto& C2 = m.add<electrical::Capacitor>("Capacitor2", {{"C", 2 * CDC}});
  auto& ground = m.add<electrical::Ground>("Ground1");
  auto& load = m.add<electrical::SignalCurrent>("SignalCurrent1");
  auto& current = m.add<blocks::Constant>("Constant1", {{"k", IDC}});
  m.connect(sources[0]->n, sources[1]->n);
  m.connect(sources[1]->n, sources[2]->n);
  for (int k = 0; k < 3; ++k) {
    m.connect(sources[k]->p, inductors[k]->p);
    m.connect(inductors[k]->n, diodes[k]->p);
    m.connect(diodes[k]->p, diodes[k + 3]->n);
  }
  m.connect(diodes[0]->n, diodes[1]->n);
  m.connect(diodes[1]->n, diodes[2]->n);
  m.connect(diodes[3]->p, diodes[4]->p);
  m.connect(diodes[4]->p, diodes[5]->p);
  m.connect(C2.n, diodes[5]->p);
  m.connect(diodes[2]->n, C1.p);
  m.connect(C1.n, C2.p);
  m.connect(C2.p, ground.p);
  m.connect(C1.p, load.p);
  m.connect(load.n, C2.n);
  m.connect(current.y, load.i);
  // MSL: the DC capacitors start at the ideal no-load voltage, two line currents at 0.
  m.set_start("Capacitor1.v", VAC * std::sqrt(2.0) / 2);
  m.set_start("Capacitor2.v", VAC * std::sqrt(2.0) / 2);
  m.set_start("Inductor2.i", 0.0);
  m.set_start("Inductor3.i", 0.0);
  harness::EnergyBooks books(m);
  Simulator sim = m.compile();
  INFO(sim.report().str());
  Result r = sim.simulate(run_for(0.1, 5e-6, 1e-8));
  // The reference has 62 diode switching events in five periods; ours about as many.
  CHECK(r.event_times().size() >= 50);
  const double worst = compare_with_reference(r, "Electrical_Rectifier.csv", {}, 1e-4);
  UNSCOPED_INFO("Rectifier: worst deviation " << worst << " of a signal's range");
  check_books(books, r, 1e-5);
  // The bridge only loses energy: each diode's v·i >= 0 in every row (to rounding of 1e-9 W).
  for (auto* d : diodes) {
    const auto loss = r[d->name() + ".LossPower"];
    CHECK(*std::min_element(loss.begin(), loss.end()) > -1e-9);
  }
}

TEST_CASE("MSL Electrical.Analog.Examples.CauerLowPassAnalog: a fifth-order filter's step response",
          "[msl][electrical]") {
  const double l1 = 1.304, l2 = 0.8586, c1 = 1.072, c3 = 1.682, c5 = 0.7262;
  const double c2 = 1 / (1.704992 * 1.704992 * l1), c4 = 1 / (1.179945 * 1.179945 * l2);
  Model m("CauerLowPassAnalog");
  auto& G = m.add<electrical::Ground>("G");
  auto& C1 = m.add<electrical::Capacitor>("C1", {{"C", c1}});
  auto& C2 = m.add<electrical::Capacitor>("C2", {{"C", c2}});
  auto& C3 = m.add<electrical::Capacitor>("C3", {{"C", c3}});
  auto& C4 = m.add<electrical::Capacitor>("C4", {{"C", c4}});
  auto& C5 = m.add<electrical::Capacitor>("C5", {{"C", c5}});
  auto& L1 = m.add<electrical::Inductor>("L1", {{"L", l1}});
  auto& L2 = m.add<electrical::Inductor>("L2", {{"L", l2}});
  auto& R1 = m.add<electrical::Resistor>("R1", {{"R", 1.0}});
  auto& R2 = m.add<electrical::Resistor>("R2", {{"R", 1.0}});
  auto& V = m.add<electrical::StepVoltage>("V", {{"V", 1.0}, {"startTime", 1.0}, {"offset", 0.0}});
  m.connect(R1.n, C1.p);
  m.connect(C1.n, G.p);
  m.connect(L1.p, C2.p);
  m.connect(L1.p, C1.p);
  m.connect(L1.n, C2.n);
  m.connect(C2.n, C3.p);
  m.connect(C2.n, C4.p);
  m.connect(C2.n, L2.p);
  m.connect(L2.n, C4.n);
  m.connect(C4.n, C5.p);
  m.connect(C4.n, R2.p);
  m.connect(C1.n, C3.n);
  m.connect(C1.n, C5.n);
  m.connect(R2.n, C1.n);
  m.connect(R1.p, V.p);
  m.connect(V.n, G.p);
  // C1, C2, C3 and C3, C4, C5 are capacitor loops: five states, fixed as in MSL.
  for (const char* v : {"C1.v", "C3.v", "C5.v", "L1.i", "L2.i"}) m.set_start(v, 0.0);
  harness::EnergyBooks books(m);
  Simulator sim = m.compile();
  INFO(sim.report().str());
  Result r = sim.simulate(run_for(60.0, 0.012, 1e-8));
  const double worst = compare_with_reference(r, "Electrical_CauerLowPassAnalog.csv", {}, 1e-4);
  UNSCOPED_INFO("CauerLowPassAnalog: worst deviation " << worst << " of a signal's range");
  check_books(books, r, 1e-5);
}

namespace {

// MSL CharacteristicIdealDiodes: three diodes, each with 1 mΩ to ground, fed by sines.
Model& characteristic_ideal_diodes(Model& m) {
  struct Diode {
    const char* name;
    double Ron, Goff, Vknee;
  };
  std::vector<electrical::IdealDiode*> d;
  for (Diode x : {Diode{"Ideal", 0, 0, 0}, Diode{"With_Ron_Goff", 0.1, 0.1, 0}, Diode{"With_Ron_Goff_Vknee", 0.2, 0.2, 5}})
    d.push_back(&m.add<electrical::IdealDiode>(x.name, {{"Ron", x.Ron}, {"Goff", x.Goff}, {"Vknee", x.Vknee}}));
  auto& S1 = m.add<electrical::SineVoltage>("SineVoltage1", {{"V", 10.0}, {"offset", -9.0}, {"f", 1.0}});
  auto& S2 = m.add<electrical::SineVoltage>("SineVoltage2", {{"V", 10.0}, {"f", 1.0}});
  auto& S3 = m.add<electrical::SineVoltage>("SineVoltage3", {{"V", 10.0}, {"f", 1.0}});
  auto& ground = m.add<electrical::Ground>("Ground1");
  std::vector<electrical::Resistor*> R;
  for (int k = 1; k <= 3; ++k) R.push_back(&m.add<electrical::Resistor>("R" + std::to_string(k), {{"R", 1e-3}}));
  m.connect(ground.p, S1.n);
  for (int k = 0; k < 3; ++k) m.connect(d[k]->n, R[k]->p);
  m.connect(R[0]->n, R[1]->n);
  m.connect(R[1]->n, R[2]->n);
  m.connect(R[2]->n, ground.p);
  m.connect(S2.p, d[0]->p);
  m.connect(S2.n, ground.p);
  m.connect(S1.p, d[1]->p);
  m.connect(d[2]->p, S3.p);
  m.connect(S3.n, ground.p);
  return m;
}

}  // namespace

TEST_CASE("MSL Electrical.Analog.Examples.CharacteristicIdealDiodes: an ideal, a resistive and a displaced diode",
          "[msl][electrical][events]") {
  Model m("CharacteristicIdealDiodes");
  characteristic_ideal_diodes(m);
  Result r = m.compile().simulate(run_for(1.0, 2e-4, 1e-8));
  const double worst = compare_with_reference(r, "Electrical_CharacteristicIdealDiodes.csv", {}, 1e-4);
  UNSCOPED_INFO("CharacteristicIdealDiodes: worst deviation " << worst << " of a signal's range");
}

TEST_CASE("CharacteristicIdealDiodes: each diode switches by a state event at its closed-form instant",
          "[msl][electrical][events]") {
  // In a model without continuous states no error test limits IDA's steps, and
  // the roots of the diodes' s, located on values interpolated over those long
  // steps, were found up to 2.4 ms late; the root functions now read values
  // solved at their own instant.
  Model m("CharacteristicIdealDiodes");
  characteristic_ideal_diodes(m);
  Result r = m.compile().simulate(run_for(1.0, 2e-4, 1e-8));
  // The knee s = 0: With_Ron_Goff where -9 + 10·sin(2πt) = 0, With_Ron_Goff_Vknee where
  // 10·sin(2πt) = Vknee + R·Goff·Vknee = 5.001, Ideal where sin(2πt) = 0.
  const double a = std::asin(0.9) / (2 * pi), b = std::asin(0.5001) / (2 * pi);
  for (double t : {b, a, 0.5 - a, 0.5 - b, 0.5}) {
    double nearest = 1e9;
    for (double e : r.event_times()) nearest = std::min(nearest, std::fabs(e - t));
    INFO("switching instant " << t << " s");
    CHECK(nearest < 1e-6);
  }
}

namespace {

using Matrix4 = std::array<std::array<double, 4>, 4>;

Matrix4 product(const Matrix4& a, const Matrix4& b) {
  Matrix4 c{};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 4; ++k) c[i][j] += a[i][k] * b[k][j];
  return c;
}

// exp(M·t) by scaling and squaring of a 20-term Taylor series (|M·t|/2^s <= 0.5).
Matrix4 expm(Matrix4 M, double t) {
  double norm = 0;
  for (auto& row : M) {
    double sum = 0;
    for (double& x : row) sum += std::fabs(x *= t);
    norm = std::max(norm, sum);
  }
  int squarings = 0;
  while (norm > 0.5) norm /= 2, ++squarings;
  for (auto& row : M)
    for (double& x : row) x = std::ldexp(x, -squarings);
  Matrix4 E{}, term{};
  for (int i = 0; i < 4; ++i) E[i][i] = term[i][i] = 1;
  for (int k = 1; k < 20; ++k) {
    term = product(term, M);
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) E[i][j] += (term[i][j] /= k);
  }
  while (squarings-- > 0) E = product(E, E);
  return E;
}

/// Chua's circuit (MSL ChuaCircuit) in (C1.v, C2.v, L.i): affine in each of the
/// nonlinear resistor's three regions, so exp of the augmented matrix solves it exactly.
struct ExactChua {
  static constexpr double Ga = -0.757576, Gb = -0.409091, Ve = 1, G = 0.565, C1 = 10, C2 = 100, L = 18, Ro = 12.5e-3;
  static int region(double v1) { return v1 < -Ve ? -1 : v1 > Ve ? 1 : 0; }
  static Matrix4 system(int region) {
    const double g = region == 0 ? Ga : Gb, c = region * (Ga - Gb) * Ve;  // Nr.i = g·v1 + c
    return {{{-(G + g) / C1, G / C1, 0, -c / C1}, {G / C2, -G / C2, -1 / C2, 0}, {0, 1 / L, -Ro / L, 0}, {0, 0, 0, 0}}};
  }
  static std::array<double, 3> advance(const std::array<double, 3>& x, int region, double dt) {
    const Matrix4 E = expm(system(region), dt);
    std::array<double, 3> y{};
    for (int i = 0; i < 3; ++i) y[i] = E[i][0] * x[0] + E[i][1] * x[1] + E[i][2] * x[2] + E[i][3];
    return y;
  }
};

}  // namespace

TEST_CASE("MSL Electrical.Analog.Examples.ChuaCircuit against the exact piecewise linear solution",
          "[msl][electrical][events]") {
  // MAP-LIB's ChuaCircuit.csv is not in the snapshot this library was built from; the
  // circuit is linear between the switching points of its nonlinear resistor, so the
  // solution is exact: exp of the region's matrix, switching where C1.v crosses ±Ve.
  // Chaos amplifies every difference: over the first 2000 s (six switchings) the
  // trajectories agree to 1e-6 of their range.
  const double T = 2000;
  Model m("ChuaCircuit");
  auto& L = m.add<electrical::Inductor>("L", {{"L", 18.0}});
  auto& Ro = m.add<electrical::Resistor>("Ro", {{"R", 12.5e-3}});
  auto& G = m.add<electrical::Conductor>("G", {{"G", 0.565}});
  auto& C1 = m.add<electrical::Capacitor>("C1", {{"C", 10.0}});
  auto& C2 = m.add<electrical::Capacitor>("C2", {{"C", 100.0}});
  auto& Nr = m.add<NonlinearResistor>("Nr", {{"Ga", -0.757576}, {"Gb", -0.409091}, {"Ve", 1.0}});
  auto& Gnd = m.add<electrical::Ground>("Gnd");
  m.connect(L.n, Ro.p);
  m.connect(C2.p, G.p);
  m.connect(L.p, G.p);
  m.connect(G.n, Nr.p);
  m.connect(C1.p, G.n);
  m.connect(Ro.n, Gnd.p);
  m.connect(C2.n, Gnd.p);
  m.connect(Gnd.p, C1.n);
  m.connect(Gnd.p, Nr.n);
  m.set_start("L.i", 0.0);
  m.set_start("C1.v", 4.0);
  m.set_start("C2.v", 0.0);
  Result r = m.compile().simulate(run_for(T, 1.0, 1e-10));

  // The exact solution every second, and the switching instants by bisection.
  std::vector<std::array<double, 3>> exact{{4.0, 0.0, 0.0}};
  std::vector<double> switchings;
  int region = ExactChua::region(4.0);
  for (int step = 0; step < static_cast<int>(T); ++step) {
    const auto& x = exact.back();
    auto y = ExactChua::advance(x, region, 1.0);
    if (ExactChua::region(y[0]) != region) {
      double lo = 0, hi = 1;
      for (int k = 0; k < 60; ++k) {
        const double mid = 0.5 * (lo + hi);
        (ExactChua::region(ExactChua::advance(x, region, mid)[0]) == region ? lo : hi) = mid;
      }
      const auto at_switch = ExactChua::advance(x, region, hi);
      switchings.push_back(step + hi);
      region = ExactChua::region(at_switch[0]);
      y = ExactChua::advance(at_switch, region, 1.0 - hi);
    }
    exact.push_back(y);
  }
  REQUIRE(switchings.size() == 6);
  for (double t : switchings) {
    double nearest = 1e9;
    for (double e : r.event_times()) nearest = std::min(nearest, std::fabs(e - t));
    INFO("switching at " << t << " s");
    CHECK(nearest < 1e-5);
  }
  const char* names[] = {"C1.v", "C2.v", "L.i"};
  for (int j = 0; j < 3; ++j) {
    const auto ours = r[names[j]];
    double lo = 1e300, hi = -1e300, worst = 0;
    for (const auto& x : exact) lo = std::min(lo, x[j]), hi = std::max(hi, x[j]);
    for (std::size_t s = 0; s < exact.size(); ++s)
      worst = std::max(worst, std::fabs(at(r.time(), ours, static_cast<double>(s)) - exact[s][j]));
    UNSCOPED_INFO("ChuaCircuit: " << names[j] << " worst " << worst / (hi - lo) << " of its range");
    CHECK(worst <= 1e-6 * (hi - lo));
  }
}

TEST_CASE("MSL Electrical.Analog.Examples.ShowSaturatingInductor: a saturating and a linear inductor on a sine",
          "[msl][electrical]") {
  const double Lzer = 2, Lnom = 1, Inom = 1, Linf = 0.5, U = 1.25;
  Model m("ShowSaturatingInductor");
  auto& source = m.add<electrical::SineVoltage>("SineVoltage1", {{"V", U}, {"phase", pi / 2}, {"f", 1 / (2 * pi)}});
  auto& ground = m.add<electrical::Ground>("Ground1");
  auto& saturating = m.add<electrical::SaturatingInductor>(
      "SaturatingInductance1", {{"Lzer", Lzer}, {"Lnom", Lnom}, {"Inom", Inom}, {"Linf", Linf}});
  auto& linear = m.add<electrical::Inductor>("Inductance1", {{"L", Lnom}});
  m.connect(source.n, ground.p);
  m.connect(source.n, saturating.n);
  m.connect(saturating.p, source.p);
  m.connect(linear.p, source.p);
  m.connect(linear.n, source.n);
  m.set_start("SaturatingInductance1.i", 0.0);  // MSL: i(fixed = true) on both
  m.set_start("Inductance1.i", 0.0);
  harness::EnergyBooks books(m);
  Simulator sim = m.compile();
  INFO(sim.report().str());
  Result r = sim.simulate(run_for(6.2832, 0.005, 1e-8));
  // The reference's signals, Inductance1.i and SaturatingInductance1.Psi, are both ∫v dt = U·sin(t)
  // (L = 1): 1e-4 of their range (measured 2.3e-6 with a Python prototype of the same equations).
  const double worst = compare_with_reference(r, "Electrical_ShowSaturatingInductor.csv", {}, 1e-4);
  UNSCOPED_INFO("ShowSaturatingInductor: worst deviation " << worst << " of a signal's range");
  check_books(books, r, 1e-5);
  // Ipar solves MSL's initial equation (1e-10), so Lact = Lnom at i = Inom.
  const double x = r["SaturatingInductance1.Ipar"].front() / Inom;
  CHECK(x * (pi / 2 - std::atan(x)) == Approx((Lnom - Linf) / (Lzer - Linf)).epsilon(1e-10));
  // The saturating current, which the reference does not list: Psi(i) inverted by Newton at
  // the reference's flux (1e-6 A; the flux itself matches to 1e-4 of its range above, and
  // dPsi/di >= Linf = 0.5 turns that into at most 5e-4 A, this run's own error being far below).
  const double Ipar = x * Inom;
  const auto& t = r.time();
  const auto i = r["SaturatingInductance1.i"], Psi = r["SaturatingInductance1.Psi"], Lact = r["SaturatingInductance1.Lact"];
  double i_max = 0;
  for (std::size_t k = 0; k < r.size(); ++k) {
    double current = Psi[k] / Lzer;  // Newton on the monotone Psi(i) from the small-signal guess
    for (int iteration = 0; iteration < 50; ++iteration) {
      const double z = current / Ipar;
      const double residual = Linf * current + (Lzer - Linf) * Ipar * std::atan(z) - Psi[k];
      current -= residual / (Linf + (Lzer - Linf) / (1 + z * z));
    }
    INFO("t = " << t[k]);
    CHECK(i[k] == Approx(current).margin(1e-6));
    // Lact = Psi/i (where i is not 0; 1e-9 relative).
    if (std::fabs(i[k]) > 1e-3) CHECK(Lact[k] == Approx(Psi[k] / i[k]).epsilon(1e-9));
    i_max = std::max(i_max, std::fabs(i[k]));
  }
  // Peak flux U = 1.25 V·s is beyond the nominal Lnom·Inom = 1: the current passes Inom and
  // saturates (1.444 A in the prototype, where the linear inductor reaches 1.25 A).
  CHECK(i_max > 1.4);
  CHECK(i_max < U / Linf);
}

}  // namespace test_msl_electrical
