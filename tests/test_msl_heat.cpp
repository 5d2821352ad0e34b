// MSL 4.0.0 examples whose losses heat something through a heat port, rebuilt
// with our components: Rotational.Examples.EddyCurrentBrake,
// Translational.Examples.EddyCurrentBrake and
// Electrical.Analog.Examples.HeatingRectifier against their reference results
// (tests/data/msl/README.md: MAP-LIB, Dymola, DASSL at 1e-6), each signal
// within 1e-4 of its range (at least 1); and the new components against their
// closed forms: the eddy current brake with its port off (a fixed, hot disc)
// against the exact solution of its speed, the exponential diode's
// characteristic in every output row (1e-9: algebraic, exact by construction).
// (MSL 4.0.0 has no Analog.Examples.HeatingResistor: Basic.HeatingResistor
// became the Resistor's useHeatPort, covered by tests/test_thermal.cpp.)
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>
#include <acausal/harness/energy.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "msl_reference.hpp"
#include "support.hpp"

namespace test_msl_heat {

using namespace acausal;
using namespace acausal::test;

namespace {

// Modelica.Electrical.Machines.Thermal.Constants.alpha20Copper.
constexpr double alpha20Copper = 3.92e-3;

/// MSL's EddyCurrentBrake examples: the flywheel (J = 1 kg·m², or the mass of
/// 1 kg) at 20 (rad|m)/s stopped by the brake (tau_nominal = 100, w_nominal =
/// 10, copper, TRef = 20 degC) whose loss heats C = 1 J/K from 293.15 K. All of
/// the kinetic energy, 200 J, ends as heat: C·(T - T0) + ½·J·w² stays 200 J.
void check_energy_conserved(const Result& r, const std::string& speed, const std::string& temperature) {
  const auto w = r[speed];
  const auto T = r[temperature];
  double worst = 0;
  for (std::size_t k = 0; k < r.size(); ++k)
    worst = std::max(worst, std::fabs(1.0 * (T[k] - 293.15) + 0.5 * 1.0 * w[k] * w[k] - 200.0));
  INFO("kinetic energy plus heat: worst deviation " << worst << " J of 200 J");
  CHECK(worst <= 1e-6 * 200.0);
  CHECK(w.back() < 1e-3);  // stopped (5e-4 in the reference at 1 s)
}

}  // namespace

TEST_CASE("MSL Rotational.Examples.EddyCurrentBrake: an eddy current brake heats its disc while it stops a flywheel",
          "[msl][rotational][thermal]") {
  Model m("EddyCurrentBrake");
  auto& brake = m.add<rotational::EddyCurrentTorque>("eddyCurrentTorque", {{"tau_nominal", 100.0},
                                                                           {"w_nominal", 10.0},
                                                                           {"alpha20", alpha20Copper},
                                                                           {"TRef", 293.15},
                                                                           {"use_heat_port", 1.0}});
  auto& inertia = m.add<rotational::Inertia>("inertia", {{"J", 1.0}});
  auto& heatCapacitor = m.add<thermal::HeatCapacitor>("heatCapacitor", {{"C", 1.0}});
  m.connect(brake.flange, inertia.flange_a);
  m.connect(brake.heat.heat_port, heatCapacitor.port);
  m.set_start("inertia.phi", 0.0);
  m.set_start("inertia.w", 20.0);
  m.set_start("heatCapacitor.T", 293.15);
  Simulator sim = compile_checked(m);
  Result r = sim.simulate(run_for(1.0, 5e-4, 1e-8));
  const double worst = compare_with_reference(r, "Rotational_EddyCurrentBrake.csv", {}, 1e-4);
  UNSCOPED_INFO("Rotational EddyCurrentBrake: worst deviation " << worst << " of a signal's range");
  check_energy_conserved(r, "inertia.w", "heatCapacitor.T");
}

TEST_CASE("MSL Translational.Examples.EddyCurrentBrake: an eddy current brake heats its fin while it stops a mass",
          "[msl][translational][thermal]") {
  Model m("EddyCurrentBrake");
  auto& brake = m.add<translational::EddyCurrentForce>("eddyCurrentForce", {{"f_nominal", 100.0},
                                                                           {"v_nominal", 10.0},
                                                                           {"alpha20", alpha20Copper},
                                                                           {"TRef", 293.15},
                                                                           {"use_heat_port", 1.0}});
  auto& mass = m.add<translational::Mass>("mass", {{"m", 1.0}});
  auto& heatCapacitor = m.add<thermal::HeatCapacitor>("heatCapacitor", {{"C", 1.0}});
  m.connect(brake.flange, mass.flange_a);
  m.connect(brake.heat.heat_port, heatCapacitor.port);
  m.set_start("mass.s", 0.0);
  m.set_start("mass.v", 20.0);
  m.set_start("heatCapacitor.T", 293.15);
  Simulator sim = compile_checked(m);
  Result r = sim.simulate(run_for(1.0, 5e-4, 1e-8));
  const double worst = compare_with_reference(r, "Translational_EddyCurrentBrake.csv", {}, 1e-4);
  UNSCOPED_INFO("Translational EddyCurrentBrake: worst deviation " << worst << " of a signal's range");
  check_energy_conserved(r, "mass.v", "heatCapacitor.T");
}

TEST_CASE("EddyCurrentTorque with its port off: a disc held at 80 degC, the speed against its exact solution",
          "[rotational][thermal]") {
  // The fixed temperature T moves the speed of the largest torque to
  // w_nominal·(1 + alphaRef·(T - TRef)), alphaRef = alpha20/(1 + alpha20·(TRef - 293.15)):
  // TRef = 40 degC exercises the conversion. With u = w/w_eff, J·w_eff·du/dt =
  // -2·tau_nominal·u/(1 + u²) separates: t(u) = J·w_eff/(2·tau_nominal)·(ln(u0/u) + (u0² - u²)/2).
  const double J = 1.0, w0 = 20.0, tau_nominal = 100.0, w_nominal = 10.0, TRef = 313.15, T = 353.15;
  const double alphaRef = alpha20Copper / (1 + alpha20Copper * (TRef - 293.15));
  const double w_eff = w_nominal * (1 + alphaRef * (T - TRef)), u0 = w0 / w_eff;
  Model m("EddyCurrentTorqueFixedT");
  auto& brake = m.add<rotational::EddyCurrentTorque>(
      "brake", {{"tau_nominal", tau_nominal}, {"w_nominal", w_nominal}, {"alpha20", alpha20Copper}, {"TRef", TRef},
                {"T", T}});
  auto& inertia = m.add<rotational::Inertia>("inertia", {{"J", J}});
  m.connect(brake.flange, inertia.flange_a);
  m.set_start("inertia.phi", 0.0);
  m.set_start("inertia.w", w0);
  harness::EnergyBooks books(m);
  Simulator sim = compile_checked(m);
  Result r = sim.simulate(run_for(1.0, 5e-4, 1e-8));
  auto t_of = [&](double u) { return J * w_eff / (2 * tau_nominal) * (std::log(u0 / u) + (u0 * u0 - u * u) / 2); };
  const auto w = r["inertia.w"];
  double worst = 0;
  for (std::size_t k = 0; k < r.size(); ++k) {
    double lo = 0, hi = u0;  // t(u) falls from +inf at u = 0 to 0 at u0
    for (int i = 0; i < 200 && lo < hi; ++i) {
      const double mid = 0.5 * (lo + hi);
      if (mid == lo || mid == hi) break;
      (t_of(mid) > r.time()[k] ? lo : hi) = mid;
    }
    worst = std::max(worst, std::fabs(w[k] - 0.5 * (lo + hi) * w_eff));
  }
  INFO("worst deviation of w from the exact solution: " << worst << " rad/s");
  CHECK(worst <= 1e-6 * w0);
  // The port is off: its temperature is T, no heat flows, and the loss is dissipated:
  // the kinetic energy lost, within 1e-6 of ½·J·w0², and the harness's books close.
  const double lost = 0.5 * J * (w0 * w0 - w.back() * w.back());
  CHECK(std::fabs(r["brake.energy.W_dissipated"].back() - lost) <= 1e-6 * 0.5 * J * w0 * w0);
  const auto port_T = r["brake.heat_port.T"];
  CHECK(*std::min_element(port_T.begin(), port_T.end()) == Approx(T).epsilon(1e-12));
  CHECK(*std::max_element(port_T.begin(), port_T.end()) == Approx(T).epsilon(1e-12));
  const auto closes = books.components_close(1e-5).evaluate(r);
  INFO(closes.message);
  CHECK(closes.passed);
}

TEST_CASE("MSL Electrical.Analog.Examples.HeatingRectifier: a half-wave rectifier whose diode heats a capacitance",
          "[msl][electrical][thermal]") {
  Model m("HeatingRectifier");
  auto& diode = m.add<electrical::Diode>("HeatingDiode1", {{"use_temperature_dependency", 1.0}, {"use_heat_port", 1.0}});
  auto& G = m.add<electrical::Ground>("G");
  auto& source = m.add<electrical::SineVoltage>("SineVoltage1", {{"V", 1.0}, {"f", 1.0}});
  auto& C = m.add<electrical::Capacitor>("Capacitor1", {{"C", 1.0}});
  auto& heat = m.add<thermal::HeatCapacitor>("HeatCapacitor1", {{"C", 1.0}});
  auto& conductor = m.add<thermal::ThermalConductor>("ThermalConductor1", {{"G", 10.0}});
  auto& R = m.add<electrical::Resistor>("R", {{"R", 1.0}});
  m.connect(source.p, diode.p);
  m.connect(source.n, G.p);
  m.connect(C.n, G.p);
  m.connect(diode.n, C.p);
  m.connect(diode.heat_port, conductor.port_a);
  m.connect(conductor.port_b, heat.port);
  m.connect(R.p, C.p);
  m.connect(R.n, C.n);
  m.set_start("Capacitor1.v", 0.0);
  m.set_start("HeatCapacitor1.T", 293.15);
  Simulator sim = compile_checked(m);
  Result r = sim.simulate(run_for(5.0, 1e-3, 1e-8));
  const double worst = compare_with_reference(r, "Electrical_HeatingRectifier.csv", {}, 1e-4);
  UNSCOPED_INFO("HeatingRectifier: worst deviation " << worst << " of a signal's range");
  // The diode's loss (>= 0 to rounding) leaves through its port and the conductor:
  // T_heatPort = HeatCapacitor1.T + LossPower/G in every row.
  const auto loss = r["HeatingDiode1.LossPower"];
  const auto T_diode = r["HeatingDiode1.T_heatPort"];
  const auto T_capacity = r["HeatCapacitor1.T"];
  double worst_port = 0;
  for (std::size_t k = 0; k < r.size(); ++k)
    worst_port = std::max(worst_port, std::fabs(T_diode[k] - T_capacity[k] - loss[k] / 10.0));
  CHECK(worst_port <= 1e-9);
  CHECK(*std::min_element(loss.begin(), loss.end()) > -1e-12);
}

TEST_CASE("Diode: the exponential characteristic with and without temperature dependency", "[electrical]") {
  // Three diodes across a 1 V, 1 Hz sine, each in series with 10 mΩ and 10 F to
  // ground (states: the run is an ordinary one); the capacitor's charging
  // current drives the diode past Maxexp·Vt, where exp is continued linearly.
  // Checked in every row:
  //   plain:   i = Ids·(exlin(v/Vt) - 1) + v/R
  //   at TNOM: use_temperature_dependency with T = TNOM: vt_t = k·TNOM/q, no growth of Ids
  //   hot:     T = 350 K: i = Ids·(exlin(v/(N·vt)) - 1)·(T/TNOM)^(XTI/N)·exp((T/TNOM - 1)·EG/(N·vt)) + v/R
  constexpr double k_q = 1.380649e-23 / 1.602176634e-19;
  const double Ids = 1e-6, Vt = 0.04, Maxexp = 15, Rp = 1e8, EG = 1.11, N = 1, TNOM = 300.15, XTI = 3;
  struct Case {
    const char* name;
    double temperature_dependency, T;
    bool continued;  // reaches v/vt > Maxexp (the hot diode's larger saturation current keeps it below: ~10.6)
  };
  const std::vector<Case> cases{
      {"plain", 0.0, 293.15, true}, {"at_TNOM", 1.0, TNOM, true}, {"hot", 1.0, 350.0, false}};
  Model m("Diodes");
  auto& ground = m.add<electrical::Ground>("ground");
  auto& source = m.add<electrical::SineVoltage>("source", {{"V", 1.0}, {"f", 1.0}});
  m.connect(source.n, ground.p);
  for (const Case& c : cases) {
    auto& d = m.add<electrical::Diode>(c.name, {{"use_temperature_dependency", c.temperature_dependency}, {"T", c.T}});
    auto& r = m.add<electrical::Resistor>(std::string(c.name) + "_R", {{"R", 0.01}});
    auto& cap = m.add<electrical::Capacitor>(std::string(c.name) + "_C", {{"C", 10.0}});
    m.connect(source.p, d.p);
    m.connect(d.n, r.p);
    m.connect(r.n, cap.p);
    m.connect(cap.n, ground.p);
    m.set_start(std::string(c.name) + "_C.v", 0.0);
  }
  Simulator sim = compile_checked(m);
  Result r = sim.simulate(run_for(2.0, 1e-3, 1e-8));
  auto exlin = [&](double x) { return x > Maxexp ? std::exp(Maxexp) * (1 + x - Maxexp) : std::exp(x); };
  for (const Case& c : cases) {
    const auto v = r[std::string(c.name) + ".v"];
    const auto i = r[std::string(c.name) + ".i"];
    double worst = 0, largest = 0, largest_x = 0;
    for (std::size_t k = 0; k < r.size(); ++k) {
      double expected;
      if (c.temperature_dependency > 0.5) {
        const double vt = k_q * c.T;
        largest_x = std::max(largest_x, v[k] / (N * vt));
        expected = Ids * (exlin(v[k] / (N * vt)) - 1) * std::pow(c.T / TNOM, XTI / N) *
                       std::exp((c.T / TNOM - 1) * EG / (N * vt)) +
                   v[k] / Rp;
      } else {
        largest_x = std::max(largest_x, v[k] / Vt);
        expected = Ids * (exlin(v[k] / Vt) - 1) + v[k] / Rp;
      }
      worst = std::max(worst, std::fabs(i[k] - expected));
      largest = std::max(largest, std::fabs(i[k]));
    }
    INFO(c.name << ": worst " << worst << " A of the largest current " << largest << " A; largest v/vt " << largest_x);
    CHECK((largest_x > Maxexp) == c.continued);
    CHECK(worst <= 1e-9 * largest);
  }
}

}  // namespace test_msl_heat
