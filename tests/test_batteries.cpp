// Batteries (components/electrical/batteries): CellStack and CellRCStack
// against closed forms (coulomb counting and the series-resistance drop of a
// 100 Ah, 400 V pack, an RC pair's step response, a charge/discharge round
// trip, the heat a pack's losses put into a heat capacitor), their energy
// books, and the MSL 4.0.0 examples Electrical.Batteries.Examples.CCCV_Cell
// and CCCV_CellRC rebuilt with them and the CCCVCharger against the MAP-LIB
// reference results (tests/data/msl/README.md), each signal within 1e-4 of
// its range (at least 1; the MSL tests' rule is 1e-3). BatteryDischargeCharge is not compared: its
// reference is not in the snapshot of MAP-LIB_ReferenceResults (README).
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>
#include <acausal/harness/energy.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "msl_reference.hpp"
#include "support.hpp"

namespace test_batteries {

using namespace acausal;
using namespace acausal::test;

namespace {

using Points = std::vector<std::pair<double, double>>;

void check_books(const harness::EnergyBooks& books, const Result& r, double tolerance) {
  const auto components = books.components_close(tolerance).evaluate(r);
  INFO(components.message);
  CHECK(components.passed);
  const auto whole = books.model_closes(tolerance).evaluate(r);
  INFO(whole.message);
  CHECK(whole.passed);
}

/// SOC stays in [SOCmin, SOCmax] = [0, 1] (to MSL's tolerance 1e-9) in every
/// row: the runs here are meant to stay clear of a battery's SOC limits.
void check_soc_within_limits(const Result& r, const std::string& soc) {
  const auto values = r[soc];
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  INFO(soc << " spans [" << *lo << ", " << *hi << "]");
  CHECK(*lo > -1e-9);
  CHECK(*hi < 1 + 1e-9);
}

/// MSL ParameterRecords.ExampleData's OCV/OCVmax over SOC.
const Points msl_example_ocv = {
    {0.00, 0.595}, {0.01, 0.656}, {0.02, 0.688}, {0.03, 0.714}, {0.04, 0.737}, {0.05, 0.744}, {0.06, 0.750},
    {0.07, 0.754}, {0.08, 0.756}, {0.09, 0.758}, {0.10, 0.761}, {0.15, 0.774}, {0.20, 0.786}, {0.25, 0.795},
    {0.30, 0.804}, {0.35, 0.811}, {0.40, 0.818}, {0.45, 0.826}, {0.50, 0.835}, {0.55, 0.843}, {0.60, 0.855},
    {0.65, 0.871}, {0.70, 0.888}, {0.75, 0.905}, {0.80, 0.926}, {0.85, 0.943}, {0.90, 0.964}, {0.95, 0.980},
    {1.00, 1.00}};

/// ExampleData interpolates with Smoothness.ContinuousDerivative, which MSL's
/// tables implement as an Akima spline; our OCV table is linear between its
/// points, so the spline is handed over sampled 20 times per segment (its
/// knots kept): the linear interpolant then stays within about 1e-6 of it
/// for SOC >= 0.1, well inside what the comparison can see.
Points akima_resampled(const Points& knots, int per_segment = 20) {
  const std::size_t n = knots.size();
  // d[j + 2]: the slope of segment j; two more each side, extrapolated linearly.
  std::vector<double> d(n + 3);
  for (std::size_t j = 0; j + 1 < n; ++j)
    d[j + 2] = (knots[j + 1].second - knots[j].second) / (knots[j + 1].first - knots[j].first);
  d[1] = 2 * d[2] - d[3];
  d[0] = 2 * d[1] - d[2];
  d[n + 1] = 2 * d[n] - d[n - 1];
  d[n + 2] = 2 * d[n + 1] - d[n];
  std::vector<double> tangent(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double w_left = std::fabs(d[i + 3] - d[i + 2]), w_right = std::fabs(d[i + 1] - d[i]);
    tangent[i] = w_left + w_right > 0 ? (w_left * d[i + 1] + w_right * d[i + 2]) / (w_left + w_right)
                                      : 0.5 * (d[i + 1] + d[i + 2]);
  }
  Points out;
  for (std::size_t i = 0; i + 1 < n; ++i) {
    const double x0 = knots[i].first, h = knots[i + 1].first - x0, y0 = knots[i].second, y1 = knots[i + 1].second;
    for (int k = 0; k < per_segment; ++k) {
      const double s = static_cast<double>(k) / per_segment, s2 = s * s, s3 = s2 * s;
      out.emplace_back(x0 + s * h, (2 * s3 - 3 * s2 + 1) * y0 + (s3 - 2 * s2 + s) * h * tangent[i] +
                                       (-2 * s3 + 3 * s2) * y1 + (s3 - s2) * h * tangent[i + 1]);
    }
  }
  out.push_back(knots.back());
  return out;
}

}  // namespace

TEST_CASE("CellStack: a 100 Ah, 400 V pack with 0.1 Ohm discharged at 50 A for 1 h", "[electrical][battery]") {
  // 100 cells of 4 V in series, one string of 100 Ah = 360000 A·s, flat OCV,
  // 1 mOhm per cell: the pack's Ri is 0.1 Ohm. SOC falls by 50·3600/360000 =
  // 0.5, the terminals sit 5 V below the 400 V OCV, the loss is 50²·0.1 = 250 W.
  Model m("PackDischarge");
  auto& pack = m.add<electrical::CellStack>("pack", {{"Ns", 100},
                                                     {"Np", 1},
                                                     {"Qnom", 360000},
                                                     {"OCVmax", 4.0},
                                                     {"OCVmin", 2.5},
                                                     {"Ri", 1e-3},
                                                     {"SOC0", 0.9}});
  pack.set_ocv_table({{0.0, 1.0}, {1.0, 1.0}});
  auto& load = m.add<electrical::ConstantCurrent>("load", {{"I", 50.0}});
  auto& ground = m.add<electrical::Ground>("ground");
  m.connect(load.p, pack.p);
  m.connect(load.n, pack.n);
  m.connect(pack.n, ground.p);
  harness::EnergyBooks books(m);
  Simulator sim = compile_checked(m);
  Result r = sim.simulate(run_for(3600.0, 10.0, 1e-9));
  check_soc_within_limits(r, "pack.SOC");
  REQUIRE(r.time().back() == Approx(3600.0).margin(1e-9));
  CHECK(worst(r, "pack.SOC", [](double t) { return 0.9 - 50.0 * t / 360000.0; }) <= 1e-9);
  CHECK(std::fabs(r["pack.SOC"].back() - 0.4) <= 1e-9);
  CHECK(worst(r, "pack.i", [](double) { return -50.0; }) <= 1e-9 * 50.0);
  CHECK(worst(r, "pack.OCV", [](double) { return 400.0; }) <= 1e-9 * 400.0);
  CHECK(worst(r, "pack.v", [](double) { return 395.0; }) <= 1e-9 * 400.0);
  CHECK(worst(r, "pack.LossPower", [](double) { return 250.0; }) <= 1e-9 * 250.0);
  CHECK(worst(r, "pack.power", [](double) { return -395.0 * 50.0; }) <= 1e-9 * 395.0 * 50.0);
  // The limits: down to 100·2.5 V through 0.1 Ohm, 1500 A (375 kW at 250 V);
  // a flat OCV at OCVmax leaves no room to charge.
  CHECK(worst(r, "pack.I_dis_max", [](double) { return 1500.0; }) <= 1e-9 * 1500.0);
  CHECK(worst(r, "pack.P_dis_max", [](double) { return 375e3; }) <= 1e-9 * 375e3);
  CHECK(worst(r, "pack.I_chg_max", [](double) { return 0.0; }) <= 1e-9);
  // The cells gave up ∫OCV dQ = 400 V·50 A·3600 s = 72 MJ.
  const auto E = r["pack.E_chem"];
  CHECK(E.front() - E.back() == Approx(72e6).epsilon(1e-9));
  // The port is off: the loss is dissipated, 250 W for an hour.
  CHECK(r["pack.energy.W_dissipated"].back() == Approx(250.0 * 3600.0).epsilon(1e-8));
  check_books(books, r, 1e-6);
}

TEST_CASE("CellStack: a run that empties or overfills the pack ends at the SOC limit with a message",
          "[electrical][battery][errors]") {
  // The 100 Ah pack from SOC 0.9 at 50 A: empty (SOCmin 0) at 0.9·360000/50 =
  // 6480 s; charged at 50 A it is full (SOCmax 1) at 0.1·360000/50 = 720 s.
  for (const double current : {50.0, -50.0}) {
    Model m("PackLimits");
    m.add<electrical::CellStack>("pack", {{"Ns", 100}, {"Qnom", 360000}, {"OCVmax", 4.0}, {"Ri", 1e-3}, {"SOC0", 0.9}});
    auto& pack = dynamic_cast<electrical::CellStack&>(*m.children().front());
    auto& load = m.add<electrical::ConstantCurrent>("load", {{"I", current}});
    auto& ground = m.add<electrical::Ground>("ground");
    m.connect(load.p, pack.p);
    m.connect(load.n, pack.n);
    m.connect(pack.n, ground.p);
    const double t_limit = current > 0 ? 6480.0 : 720.0;
    const std::string expected = current > 0 ? "battery exhausted" : "battery overcharged";
    try {
      m.compile().simulate(run_for(10000.0, 10.0, 1e-9));
      FAIL("the run went past the SOC limit");
    } catch (const SimulationError& error) {
      INFO(error.what());
      CHECK_THAT(error.what(), Catch::Matchers::Contains("pack (electrical::CellStack)"));
      CHECK_THAT(error.what(), Catch::Matchers::Contains(expected));
      // Located within the SOC tolerance (1e-9 of 100 Ah is 3.6e-4 A·s: 7e-6 s at 50 A).
      CHECK(error.time_reached() == Approx(t_limit).margin(1e-4));
      const auto soc = error.partial_result()["pack.SOC"];
      CHECK(*std::min_element(soc.begin(), soc.end()) > -2e-9);
      CHECK(*std::max_element(soc.begin(), soc.end()) < 1.0 + 2e-9);
    }
  }
}

TEST_CASE("CellRCStack: the step response of an RC pair, v - OCV = I·(R0 + R1·(1 - exp(-t/tau1)))",
          "[electrical][battery]") {
  // A cell (and a 10s2p stack of it) at flat OCV, Ri = 10 mOhm of which R_1 =
  // 4 mOhm is parallel to C_1 = 2500 F (tau1 = 10 s), charged at 10 A per
  // cell string from rest. The stack's resistances scale by Ns/Np, tau1 not.
  const double Ri = 0.01, R1 = 0.004, C1 = 2500.0, tau1 = R1 * C1, R0 = Ri - R1;
  for (const auto& [Ns, Np] : std::vector<std::pair<double, double>>{{1, 1}, {10, 2}}) {
    const double I = 10.0 * Np, scale = Ns / Np;
    Model m("RCStep");
    auto& cell = m.add<electrical::CellRCStack>(
        "cell", {{"Ns", Ns}, {"Np", Np}, {"Ri", Ri}, {"R_1", R1}, {"C_1", C1}, {"OCVmax", 4.0}, {"SOC0", 0.5}});
    cell.set_ocv_table({{0.0, 1.0}, {1.0, 1.0}});
    auto& charger = m.add<electrical::ConstantCurrent>("charger", {{"I", I}});
    auto& ground = m.add<electrical::Ground>("ground");
    m.connect(charger.n, cell.p);
    m.connect(charger.p, cell.n);
    m.connect(cell.n, ground.p);
    Simulator sim = compile_checked(m);
    Result r = sim.simulate(run_for(60.0, 0.1, 1e-10));
    check_soc_within_limits(r, "cell.SOC");
    const auto v = r["cell.v"], OCV = r["cell.OCV"];
    double worst_relative = 0;
    for (std::size_t k = 0; k < r.size(); ++k) {
      const double expected = I * scale * (R0 + R1 * (1 - std::exp(-r.time()[k] / tau1)));
      worst_relative = std::max(worst_relative, std::fabs(v[k] - OCV[k] - expected) / expected);
    }
    INFO("Ns = " << Ns << ", Np = " << Np << ": worst relative deviation of v - OCV " << worst_relative);
    CHECK(worst_relative <= 1e-6);
    CHECK(worst(r, "cell.OCV", [&](double) { return 4.0 * Ns; }) <= 1e-12 * 4.0 * Ns);
  }
}

TEST_CASE("CellStack: charging and discharging at equal current and time returns SOC to its start",
          "[electrical][battery]") {
  // 96s3p of 50 Ah cells on MSL's linear OCV from SOC 0.5: +30 A for 600 s,
  // then -30 A for 600 s (a time event at 600 s). Coulomb counting alone
  // decides SOC, whatever the voltage does.
  Model m("RoundTrip");
  auto& pack =
      m.add<electrical::CellStack>("pack", {{"Ns", 96}, {"Np", 3}, {"Qnom", 180000}, {"Ri", 2e-3}, {"SOC0", 0.5}});
  auto& source = m.add<electrical::SignalCurrent>("source");
  auto& profile = m.add<blocks::Step>("profile", {{"offset", 30.0}, {"height", -60.0}, {"startTime", 600.0}});
  auto& ground = m.add<electrical::Ground>("ground");
  m.connect(profile.y, source.i);
  m.connect(source.n, pack.p);
  m.connect(source.p, pack.n);
  m.connect(pack.n, ground.p);
  harness::EnergyBooks books(m);
  Simulator sim = compile_checked(m);
  Result r = sim.simulate(run_for(1200.0, 1.0, 1e-9));
  check_soc_within_limits(r, "pack.SOC");
  const double top = 0.5 + 30.0 * 600.0 / (3 * 180000.0);
  auto soc = [&](double t) { return t <= 600 ? 0.5 + (top - 0.5) * t / 600 : top - (top - 0.5) * (t - 600) / 600; };
  CHECK(worst(r, "pack.SOC", soc) <= 1e-9);
  CHECK(std::fabs(r["pack.SOC"].back() - 0.5) <= 1e-9);
  // Back at the same charge, the cells hold the same energy again; the
  // source paid for the losses only: 2·30²·(96·2e-3/3)·600 J.
  const auto E = r["pack.E_chem"];
  CHECK(std::fabs(E.back() - E.front()) <= 1e-9 * 96 * 4.2 * 3 * 180000);
  const double loss = 2 * 30.0 * 30.0 * (96 * 2e-3 / 3) * 600.0;
  CHECK(r["pack.energy.W_dissipated"].back() == Approx(loss).epsilon(1e-8));
  CHECK(r["pack.energy.W_ports"].back() == Approx(loss).epsilon(1e-6));
  check_books(books, r, 1e-6);
}

TEST_CASE("CellStack with its heat port: the losses heat a heat capacitor", "[electrical][battery][thermal]") {
  // One cell, Ri = 10 mOhm, charged at 20 A for 600 s into C = 500 J/K. With
  // a constant resistance T - T0 = I²·Ri·t/C; with alpha the resistance
  // follows the temperature it makes, u = 1 + alpha·(T - T_ref) grows as
  // exp(alpha·I²·Ri·t/C) (T0 = T_ref).
  const double I = 20.0, Ri = 0.01, C = 500.0, T0 = 293.15;
  for (const double alpha : {0.0, 4e-3}) {
    Model m("HeatedCell");
    auto& cell = m.add<electrical::CellStack>(
        "cell", {{"Ri", Ri}, {"SOC0", 0.2}, {"alpha", alpha}, {"T_ref", T0}, {"use_heat_port", 1.0}});
    auto& charger = m.add<electrical::ConstantCurrent>("charger", {{"I", I}});
    auto& ground = m.add<electrical::Ground>("ground");
    auto& heat = m.add<thermal::HeatCapacitor>("heat", {{"C", C}});
    m.connect(charger.n, cell.p);
    m.connect(charger.p, cell.n);
    m.connect(cell.n, ground.p);
    m.connect(cell.heat_port, heat.port);
    m.set_start("heat.T", T0);
    harness::EnergyBooks books(m);
    Simulator sim = compile_checked(m);
    Result r = sim.simulate(run_for(600.0, 1.0, 1e-10));
    check_soc_within_limits(r, "cell.SOC");
    auto expected = [&](double t) {
      const double rate = I * I * Ri / C;
      return alpha == 0.0 ? T0 + rate * t : T0 + (std::exp(alpha * rate * t) - 1) / alpha;
    };
    const double rise = expected(600.0) - T0;
    INFO("alpha = " << alpha << ": the heat capacitor warms by " << rise << " K");
    CHECK(worst(r, "heat.T", expected) <= 1e-6 * rise);
    // Nothing is dissipated in the cell: its loss left through the port.
    CHECK(std::fabs(r["cell.energy.W_dissipated"].back()) <= 1e-9);
    check_books(books, r, 1e-6);
  }
}

TEST_CASE("Battery energy books close: two RC pairs, self-discharge, temperature-dependent resistances, a table OCV",
          "[electrical][battery][energy]") {
  // MSL's BatteryDischargeCharge battery2 (10s2p, ExampleData's table, Idis =
  // 0.1 A, two RC pairs of 0.2·Ri and 0.1·Ri, tau 60 s and 10 s) driven by
  // ±50 A of a 1200 s sine (SOC 0.3 to about 0.83 and back), with alpha on every resistor and its losses
  // heating a heat capacitor; and the plain CellStack on MSL's linear law.
  const double Ri = 4.2 / 1200;
  Model m("Books");
  auto& rc = m.add<electrical::CellRCStack>("rc",
                                            {{"Ns", 10},
                                             {"Np", 2},
                                             {"Ri", Ri},
                                             {"Idis", 0.1},
                                             {"alpha", 4e-3},
                                             {"SOC0", 0.3},
                                             {"R_1", 0.2 * Ri},
                                             {"C_1", 60 / (0.2 * Ri)},
                                             {"alpha_1", 4e-3},
                                             {"R_2", 0.1 * Ri},
                                             {"C_2", 10 / (0.1 * Ri)},
                                             {"use_heat_port", 1.0}},
                                            2);
  rc.set_ocv_table(msl_example_ocv);
  auto& plain =
      m.add<electrical::CellStack>("plain", {{"Ns", 10}, {"Np", 2}, {"Ri", Ri}, {"Idis", 0.1}, {"SOC0", 0.3}});
  auto& heat = m.add<thermal::HeatCapacitor>("heat", {{"C", 2000.0}});
  auto& sine = m.add<blocks::Sine>("sine", {{"amplitude", 50.0}, {"f", 1.0 / 1200}});
  for (electrical::BaseCellStack* battery : {static_cast<electrical::BaseCellStack*>(&rc),
                                             static_cast<electrical::BaseCellStack*>(&plain)}) {
    auto& source = m.add<electrical::SignalCurrent>("source_" + battery->name());
    auto& ground = m.add<electrical::Ground>("ground_" + battery->name());
    m.connect(sine.y, source.i);
    m.connect(source.n, battery->p);
    m.connect(source.p, battery->n);
    m.connect(battery->n, ground.p);
  }
  m.connect(rc.heat_port, heat.port);
  m.set_start("heat.T", 293.15);
  harness::EnergyBooks books(m);
  Simulator sim = compile_checked(m);
  Result r = sim.simulate(run_for(2400.0, 1.0, 1e-9));
  check_soc_within_limits(r, "rc.SOC");
  check_soc_within_limits(r, "plain.SOC");
  check_books(books, r, 1e-6);
  // Self-discharge and the losses are drawn from the charge: after two whole
  // periods both have less energy than they started with.
  for (const char* name : {"rc", "plain"}) {
    const auto E = r[std::string(name) + ".E_chem"];
    CHECK(E.back() < E.front());
  }
}

TEST_CASE("CellStack: bad OCV tables and cell data are refused", "[electrical][battery][errors]") {
  Model m("Bad");
  auto& cell = m.add<electrical::CellStack>("cell");
  CHECK_THROWS_AS(cell.set_ocv_table({{0.0, 0.5}}), ModelError);
  CHECK_THROWS_AS(cell.set_ocv_table({{0.0, 0.5}, {0.0, 1.0}}), ModelError);
  CHECK_THROWS_AS(cell.set_ocv_table({{0.0, 0.5}, {1.0, 1.2}}), ModelError);
  Model wrong("WrongData");
  auto& inverted = wrong.add<electrical::CellStack>("cell", {{"OCVmin", 4.2}, {"OCVmax", 2.5}});
  auto& load = wrong.add<electrical::ConstantCurrent>("load");
  auto& ground = wrong.add<electrical::Ground>("ground");
  wrong.connect(load.p, inverted.p);
  wrong.connect(load.n, inverted.n);
  wrong.connect(inverted.n, ground.p);
  CHECK_THROWS_AS(wrong.compile(), ModelError);
  Model rc("RC");
  CHECK_THROWS_AS(rc.add<electrical::CellRCStack>("cell", {}, 0), ModelError);
}

namespace {

/// MSL Batteries.Examples.CCCV_Cell / CCCV_CellRC: a cell at SOC 0.1 (MSL's
/// BatteryStacksWithSensors wrapper, Qnom = 18000 A·s, Ri = 4.2/1200 Ohm,
/// Idis = 1 mA, ExampleData's OCV) charged with 25 A ramped up over 60 s until
/// its terminals reach 4.2 V, then at 4.2 V. Our names: cell.SOC is MSL's
/// cell.cell.limIntegrator.y; socSensor.y the wrapper's own count of the
/// terminal current (cell.limIntegrator.y: MSL clamps it at 1 - 1e-9, ours
/// is not clamped and passes 1 by about 6e-5 at the end); energy.y the
/// integral of the power into the cell; cell.v_RC_k MSL's
/// cell.cell.capacitor[k].v.
template <class Cell, class... Options>
Result cccv(const ParameterValues& cell_parameters, Options... options) {
  Model m("CCCV");
  auto& charger = m.add<electrical::CCCVCharger>("cccvCharger", {{"I", 25.0}, {"Vend", 4.2}});
  auto& ground = m.add<electrical::Ground>("ground");
  auto& cell = m.add<Cell>("cell", cell_parameters, options...);
  cell.set_ocv_table(akima_resampled(msl_example_ocv));
  auto& multiSensor = m.add<electrical::PowerSensor>("multiSensor");
  auto& currentSensor = m.add<electrical::CurrentSensor>("currentSensor");
  auto& socSensor = m.add<blocks::Integrator>("socSensor", {{"k", 1.0 / 18000}, {"y_start", 0.1}});
  auto& energy = m.add<blocks::Integrator>("energy");
  m.connect(cell.n, ground.p);
  m.connect(ground.p, charger.n);
  m.connect(charger.p, multiSensor.pc);
  m.connect(multiSensor.pc, multiSensor.pv);
  m.connect(multiSensor.nc, currentSensor.p);
  m.connect(currentSensor.n, cell.p);
  m.connect(ground.p, multiSensor.nv);
  m.connect(multiSensor.power, energy.u);
  m.connect(currentSensor.i, socSensor.u);
  harness::EnergyBooks books(m);
  Simulator sim = compile_checked(m);
  Result r = sim.simulate(run_for(1200.0, 0.1, 1e-8));
  check_soc_within_limits(r, "cell.SOC");
  // One switch to constant voltage, where the reference has it (640.35 s).
  const auto CV = r["cccvCharger.CV"];
  CHECK(CV.front() == 0.0);
  CHECK(CV.back() == 1.0);
  double switched = -1;
  for (std::size_t k = 1; k < r.size(); ++k)
    if (CV[k] != CV[k - 1]) switched = r.time()[k];
  UNSCOPED_INFO("the charger switched to constant voltage at " << switched << " s");
  CHECK(switched == Approx(640.35).margin(0.05));
  check_books(books, r, 1e-6);
  return r;
}

const ParameterValues msl_cell = {{"Qnom", 18000}, {"OCVmax", 4.2}, {"OCVmin", 2.5}, {"Ri", 4.2 / 1200},
                                  {"Idis", 0.001}, {"SOC0", 0.1}};

}  // namespace

TEST_CASE("MSL Electrical.Batteries.Examples.CCCV_Cell: a cell charged at constant current, then constant voltage",
          "[msl][electrical][battery]") {
  Result r = cccv<electrical::CellStack>(msl_cell);
  const double worst_deviation = compare_with_reference(r, "Batteries_CCCV_Cell.csv", {}, 1e-4);
  UNSCOPED_INFO("CCCV_Cell: worst deviation " << worst_deviation << " of a signal's range");
}

TEST_CASE("MSL Electrical.Batteries.Examples.CCCV_CellRC: a cell with two RC pairs charged by CC-CV",
          "[msl][electrical][battery]") {
  // TransientData.ExampleData: R_1 = 0.2·Ri with tau 60 s, R_2 = 0.1·Ri with tau 10 s.
  const double Ri = 4.2 / 1200;
  ParameterValues parameters = msl_cell;
  parameters.insert(parameters.end(),
                    {{"R_1", 0.2 * Ri}, {"C_1", 60 / (0.2 * Ri)}, {"R_2", 0.1 * Ri}, {"C_2", 10 / (0.1 * Ri)}});
  Result r = cccv<electrical::CellRCStack>(parameters, 2);
  const double worst_deviation = compare_with_reference(r, "Batteries_CCCV_CellRC.csv", {}, 1e-4);
  UNSCOPED_INFO("CCCV_CellRC: worst deviation " << worst_deviation << " of a signal's range");
}

}  // namespace test_batteries
