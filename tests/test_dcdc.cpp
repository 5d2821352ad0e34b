// Averaged DC/DC converters (issue 33, item 2): the ratio-controlled
// DCDCAveraged and the voltage-controlled DCDCVoltageControlled, the
// efficiency applied in the direction of the power (losses >= 0 both ways),
// and the output current limits of a current-limited supply. Algebraic
// relations hold in every output row to 1e-9 of their scale (1e-12 where
// nothing but the law is computed); a trajectory integrated at rtol 1e-10 is
// held to 1e-6 of its scale; the energy books close to 1e-6.
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>
#include <acausal/harness/energy.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "support.hpp"

namespace test_dcdc {

using namespace acausal;
using Catch::Matchers::Contains;

namespace {

/// A converter fed at port 1 by a source (400 V by default), both negative
/// pins grounded; the caller connects the command and the output.
template <class Converter, class Source = electrical::ConstantVoltage>
Converter& supplied(Model& m, const ParameterValues& parameters, const ParameterValues& source = {{"V", 400.0}}) {
  auto& supply = m.add<Source>("supply", source);
  auto& converter = m.add<Converter>("converter", parameters);
  auto& ground = m.add<electrical::Ground>("ground");
  m.connect(supply.p, converter.p1);
  m.connect(supply.n, converter.n1);
  m.connect(supply.n, ground.p);
  m.connect(converter.n2, ground.p);
  return converter;
}

/// A two-pin element across the converter's output.
template <class Load>
Load& across_output(Model& m, electrical::PartialDCDC& converter, const std::string& name, const ParameterValues& parameters) {
  auto& load = m.add<Load>(name, parameters);
  m.connect(converter.p2, load.p);
  m.connect(load.n, converter.n2);
  return load;
}

/// The issue's case: 400 V into a converter whose output gives 200 V (ratio
/// 0.5, or v_ref = 200 V), eta = 0.95, a current source drawing I_load out of
/// the output (I_load < 0 pushes it back in).
Result issue_case(bool voltage_controlled, double I_load) {
  Model m("issue_case");
  electrical::PartialDCDC* converter = nullptr;
  if (voltage_controlled) {
    auto& c = supplied<electrical::DCDCVoltageControlled>(m, {{"eta", 0.95}});
    m.connect(m.add<blocks::Constant>("command", {{"k", 200.0}}).y, c.v_ref);
    converter = &c;
  } else {
    auto& c = supplied<electrical::DCDCAveraged>(m, {{"eta", 0.95}});
    m.connect(m.add<blocks::Constant>("command", {{"k", 0.5}}).y, c.d);
    converter = &c;
  }
  across_output<electrical::ConstantCurrent>(m, *converter, "load", {{"I", I_load}});
  harness::EnergyBooks books(m);
  Result r = test::compile_checked(m).simulate(test::run_for(1.0, 0.1, 1e-10));
  test::books_close(books, r, 1e-6);
  return r;
}

/// A voltage-controlled converter on 400 V, eta and the limits given, v_ref from a constant.
electrical::DCDCVoltageControlled& regulated(Model& m, const ParameterValues& parameters, double v_ref) {
  auto& converter = supplied<electrical::DCDCVoltageControlled>(m, parameters);
  m.connect(m.add<blocks::Constant>("command", {{"k", v_ref}}).y, converter.v_ref);
  return converter;
}

}  // namespace

TEST_CASE("DC/DC, the issue's case: 400 V in, 200 V out at 50 A, eta 0.95: 10.526 kW in, 526 W lost, reversed, "
          "the losses are still positive",
          "[electrical][dcdc][energy]") {
  const double eta = 0.95;
  for (bool voltage_controlled : {false, true}) {
    INFO((voltage_controlled ? "DCDCVoltageControlled" : "DCDCAveraged"));
    {
      const Result r = issue_case(voltage_controlled, 50.0);
      CHECK(r["converter.v2"].back() == Approx(200.0).epsilon(1e-12));
      CHECK(r["converter.i2"].back() == Approx(-50.0).epsilon(1e-12));
      CHECK(r["converter.P2"].back() == Approx(10000.0).epsilon(1e-12));
      CHECK(r["converter.P1"].back() == Approx(10000.0 / eta).epsilon(1e-12));  // 10.526 kW
      CHECK(r["converter.P1"].back() == Approx(10526.3).epsilon(1e-5));
      CHECK(r["converter.i1"].back() == Approx(10000.0 / eta / 400.0).epsilon(1e-12));
      CHECK(r["converter.LossPower"].back() == Approx(10000.0 * (1 / eta - 1)).epsilon(1e-9));  // 526 W
      CHECK(r["converter.LossPower"].back() == Approx(526.3).epsilon(1e-4));
      CHECK(r["converter.limited"].back() == 0.0);
    }
    {
      // 50 A pushed back into the output: 10 kW in at port 2, eta·10 kW out of port 1, 500 W lost.
      const Result r = issue_case(voltage_controlled, -50.0);
      CHECK(r["converter.v2"].back() == Approx(200.0).epsilon(1e-12));
      CHECK(r["converter.P2"].back() == Approx(-10000.0).epsilon(1e-12));
      CHECK(r["converter.P1"].back() == Approx(-eta * 10000.0).epsilon(1e-12));
      CHECK(r["converter.LossPower"].back() == Approx(500.0).epsilon(1e-9));
      CHECK(r["converter.LossPower"].back() > 0.0);
    }
  }
}

TEST_CASE("DCDCVoltageControlled holds v_ref under a resistive load whatever the input voltage, P1 = P2/eta",
          "[electrical][dcdc][energy]") {
  // The input swings 400 ± 100 V; the output stays at 200 V across 4 Ω (50 A, 10 kW).
  const double eta = 0.9, v_ref = 200.0, R = 4.0;
  Model m("regulation");
  auto& converter = supplied<electrical::DCDCVoltageControlled, electrical::SineVoltage>(
      m, {{"eta", eta}}, {{"V", 100.0}, {"offset", 400.0}, {"f", 2.0}});
  m.connect(m.add<blocks::Constant>("command", {{"k", v_ref}}).y, converter.v_ref);
  across_output<electrical::Resistor>(m, converter, "load", {{"R", R}});
  harness::EnergyBooks books(m);
  Result r = test::compile_checked(m).simulate(test::run_for(1.0, 1e-3, 1e-10));
  const auto v1 = r["converter.v1"], v2 = r["converter.v2"], i1 = r["converter.i1"];
  const auto P1 = r["converter.P1"], P2 = r["converter.P2"], loss = r["converter.LossPower"];
  double worst_v2 = 0, worst_law = 0, worst_i1 = 0, worst_loss = 0;
  const double P = v_ref * v_ref / R;
  for (std::size_t k = 0; k < r.size(); ++k) {
    worst_v2 = std::max(worst_v2, std::fabs(v2[k] - v_ref));
    worst_law = std::max(worst_law, std::fabs(P1[k] - P2[k] / eta));
    worst_i1 = std::max(worst_i1, std::fabs(i1[k] - P / eta / v1[k]));
    worst_loss = std::max(worst_loss, std::fabs(loss[k] - (1 - eta) * P1[k]));
  }
  CHECK(worst_v2 < 1e-9 * v_ref);
  CHECK(worst_law < 1e-9 * P);
  CHECK(worst_i1 < 1e-9 * P / eta / 300.0);  // 1e-9 of the largest i1
  CHECK(worst_loss < 1e-9 * P);
  CHECK(r["converter.P2"].back() == Approx(P).epsilon(1e-9));
  test::books_close(books, r, 1e-6);
}

TEST_CASE("DCDCVoltageControlled with T > 0: the output follows a v_ref step as 1 - exp(-t/T), T is structural",
          "[electrical][dcdc]") {
  const double T = 0.05, t0 = 0.1, R = 10.0;
  Model m("lag");
  auto& converter = supplied<electrical::DCDCVoltageControlled>(m, {{"eta", 0.95}, {"T", T}});
  auto& command = m.add<blocks::Step>("command", {{"offset", 200.0}, {"height", 50.0}, {"startTime", t0}});
  m.connect(command.y, converter.v_ref);
  across_output<electrical::Resistor>(m, converter, "load", {{"R", R}});
  harness::EnergyBooks books(m);
  Simulator sim = test::compile_checked(m);
  Result r = sim.simulate(test::run_for(0.5, 1e-3, 1e-10));
  // Starts at v_set = v_ref (no start value given), then the first-order response.
  CHECK(test::worst(r, "converter.v2",
                    [&](double t) { return t < t0 ? 200.0 : 250.0 - 50.0 * std::exp(-(t - t0) / T); }) < 1e-6 * 250.0);
  CHECK(test::worst(r, "load.i", [&](double t) {
          return (t < t0 ? 200.0 : 250.0 - 50.0 * std::exp(-(t - t0) / T)) / R;
        }) < 1e-6 * 25.0);
  test::books_close(books, r, 1e-6);
  CHECK_THROWS_WITH(sim.set_parameter("converter.T", 0.1), Contains("converter.T") && Contains("compile"));
}

TEST_CASE("DCDCVoltageControlled current limit: a load stepped past I_max gets I_max at I_max·R, and the "
          "converter returns to regulation when the load is released",
          "[electrical][dcdc][events][energy]") {
  // 10 Ω draws 20 A at 200 V; from t1 to t2 a 2 Ω branch in parallel (1.667 Ω)
  // would draw 120 A: the converter holds 50 A at 83.3 V instead.
  const double eta = 0.95, v_ref = 200.0, I_max = 50.0, Ra = 10.0, Rb = 2.0, t1 = 0.3, t2 = 0.6;
  Model m("limit");
  auto& converter = regulated(m, {{"eta", eta}, {"I_max", I_max}, {"I_min", -I_max}}, v_ref);
  across_output<electrical::Resistor>(m, converter, "base_load", {{"R", Ra}});
  auto& extra_load = m.add<electrical::Resistor>("extra_load", {{"R", Rb}});
  // Goff > 0: the initialization starts from both switches open (their start
  // values), where Goff = 0 leaves the node between them floating and
  // IDACalcIC fails; 1e-12 S leaks 2e-10 A, far below the checks' 5e-8 A.
  auto& engage = m.add<electrical::IdealClosingSwitch>("engage", {{"Ron", 0.0}, {"Goff", 1e-12}});
  auto& release = m.add<electrical::IdealOpeningSwitch>("release", {{"Ron", 0.0}, {"Goff", 1e-12}});
  auto& engage_at = m.add<blocks::Step>("engage_at", {{"startTime", t1}});
  auto& release_at = m.add<blocks::Step>("release_at", {{"startTime", t2}});
  m.connect(engage_at.y, engage.control);
  m.connect(release_at.y, release.control);
  m.connect(converter.p2, engage.p);
  m.connect(engage.n, release.p);
  m.connect(release.n, extra_load.p);
  m.connect(extra_load.n, converter.n2);
  harness::EnergyBooks books(m);
  Result r = test::compile_checked(m).simulate(test::run_for(1.0, 1e-3, 1e-10));

  const auto t = r.time();
  const auto v2 = r["converter.v2"], i2 = r["converter.i2"], P1 = r["converter.P1"], P2 = r["converter.P2"];
  const auto limited = r["converter.limited"], engage_off = r["engage.off"], release_off = r["release.off"];
  double worst_i = 0, worst_v = 0, worst_law = 0;
  int wrong_mode = 0, rows_limited = 0;
  for (std::size_t k = 0; k < r.size(); ++k) {
    // Each row by its own switch states (an event instant has a row on each side).
    const bool both = engage_off[k] < 0.5 && release_off[k] < 0.5;
    const double R = both ? Ra * Rb / (Ra + Rb) : Ra;
    const double wanted = v_ref / R, i_out = std::min(wanted, I_max);
    worst_i = std::max(worst_i, std::fabs(-i2[k] - i_out));
    worst_v = std::max(worst_v, std::fabs(v2[k] - i_out * R));
    worst_law = std::max(worst_law, std::fabs(P1[k] - P2[k] / eta));
    wrong_mode += limited[k] != (wanted > I_max ? 1.0 : 0.0);
    rows_limited += limited[k] == 1.0;
    // Between the steps the load is engaged and the current held; before and after, regulation.
    if (t[k] > t1 && t[k] < t2) wrong_mode += limited[k] != 1.0;
    if (t[k] < t1 || t[k] > t2) wrong_mode += limited[k] != 0.0;
  }
  CHECK(worst_i < 1e-9 * I_max);
  CHECK(worst_v < 1e-9 * v_ref);
  CHECK(worst_law < 1e-9 * v_ref * I_max);
  CHECK(wrong_mode == 0);
  CHECK(rows_limited > 250);
  // Mid-way: 50 A at 50·1.667 = 83.3 V, below v_ref.
  const std::size_t mid = static_cast<std::size_t>(std::lower_bound(t.begin(), t.end(), 0.45) - t.begin());
  CHECK(-i2[mid] == Approx(I_max).epsilon(1e-9));
  CHECK(v2[mid] == Approx(I_max * Ra * Rb / (Ra + Rb)).epsilon(1e-9));
  CHECK(v2.back() == Approx(v_ref).epsilon(1e-12));
  CHECK(-i2.back() == Approx(v_ref / Ra).epsilon(1e-10));  // the open switch leaks Goff·200 V = 2e-10 A
  // The mode changes with the load at the steps, time events hit exactly.
  for (double step : {t1, t2}) {
    INFO("step at t = " << step);
    CHECK(std::count(r.event_times().begin(), r.event_times().end(), step) >= 1);
  }
  test::books_close(books, r, 1e-6);
}

TEST_CASE("DCDCVoltageControlled against a swinging bus: the current clamped between I_min and I_max, the voltage giving "
          "way beyond, losses >= 0 in both directions",
          "[electrical][dcdc][events][energy]") {
  // The output feeds a bus at 200 ± 100 V through 1 Ω: regulated at 200 V the
  // line would carry -100·sin(2πt) A. With I_max = 50 A and I_min = -30 A the
  // converter holds the current at each limit for part of each half-wave.
  const double eta = 0.9, v_ref = 200.0, R = 1.0, I_max = 50.0, I_min = -30.0;
  constexpr double pi = std::numbers::pi;
  Model m("bus");
  auto& converter = regulated(m, {{"eta", eta}, {"I_max", I_max}, {"I_min", I_min}}, v_ref);
  auto& line = m.add<electrical::Resistor>("line", {{"R", R}});
  auto& bus = m.add<electrical::SineVoltage>("bus", {{"V", 100.0}, {"offset", v_ref}, {"f", 1.0}});
  m.connect(converter.p2, line.p);
  m.connect(line.n, bus.p);
  m.connect(bus.n, converter.n2);
  harness::EnergyBooks books(m);
  Result r = test::compile_checked(m).simulate(test::run_for(1.0, 1e-3, 1e-10));

  const auto v2 = r["converter.v2"], i2 = r["converter.i2"], vb = r["bus.v"], limited = r["converter.limited"];
  const auto P1 = r["converter.P1"], P2 = r["converter.P2"], loss = r["converter.LossPower"];
  double worst_i = 0, worst_v = 0, worst_law = 0, lowest_loss = 0;
  int wrong_mode = 0, high = 0, low = 0;
  for (std::size_t k = 0; k < r.size(); ++k) {
    const double wanted = (v_ref - vb[k]) / R, i_out = std::clamp(wanted, I_min, I_max);
    worst_i = std::max(worst_i, std::fabs(-i2[k] - i_out));
    worst_v = std::max(worst_v, std::fabs(v2[k] - (vb[k] + R * i_out)));
    // Forward (P2 > 0) the output gives eta·P1; backward port 1 gives eta·(-P2).
    worst_law = std::max(worst_law, std::fabs(P1[k] - (P2[k] > 0 ? P2[k] / eta : eta * P2[k])));
    lowest_loss = std::min(lowest_loss, loss[k]);
    // A row within 1e-6 A of a limit may be on either side of its event.
    if (std::fabs(wanted - I_max) > 1e-6 && std::fabs(wanted - I_min) > 1e-6)
      wrong_mode += limited[k] != (wanted > I_max ? 1.0 : wanted < I_min ? -1.0 : 0.0);
    high += limited[k] == 1.0;
    low += limited[k] == -1.0;
  }
  CHECK(worst_i < 1e-9 * 100.0);
  CHECK(worst_v < 1e-9 * v_ref);
  CHECK(worst_law < 1e-9 * v_ref * I_max);
  CHECK(lowest_loss > -1e-9 * v_ref * I_max);
  CHECK(wrong_mode == 0);
  CHECK(high > 100);  // 1/3 of the period: 7/12 < t < 11/12
  CHECK(low > 100);   // from asin(0.3)/2π to 1/2 - asin(0.3)/2π: 0.40 of it
  // Each limit is reached and left at an event (within 1e-6 s), and so is each reversal of the power.
  const double a = std::asin(0.3) / (2 * pi);
  for (double crossing : {a, 0.5 - a, 7.0 / 12, 11.0 / 12, 0.5}) {
    double nearest = 1e9;
    for (double e : r.event_times()) nearest = std::min(nearest, std::fabs(e - crossing));
    INFO("crossing at t = " << crossing);
    CHECK(nearest < 1e-6);
  }
  test::books_close(books, r, 1e-6);
}

TEST_CASE("DCDCAveraged current limit: a load that would draw more than I_max gets I_max at a ratio below d",
          "[electrical][dcdc][events][energy]") {
  // 400 V at d = 0.5 would put 200 V across 4 Ω (50 A); I_max = 40 A holds 160 V, ratio 0.4.
  const double eta = 0.95, I_max = 40.0, R = 4.0;
  Model m("ratio_limit");
  auto& converter = supplied<electrical::DCDCAveraged>(m, {{"eta", eta}, {"I_max", I_max}});
  m.connect(m.add<blocks::Constant>("duty", {{"k", 0.5}}).y, converter.d);
  across_output<electrical::Resistor>(m, converter, "load", {{"R", R}});
  harness::EnergyBooks books(m);
  Result r = test::compile_checked(m).simulate(test::run_for(1.0, 0.1, 1e-10));
  CHECK(r["converter.limited"].front() == 1.0);  // from the initialization on
  CHECK(r["converter.limited"].back() == 1.0);
  CHECK(r["converter.i2"].back() == Approx(-I_max).epsilon(1e-9));
  CHECK(r["converter.v2"].back() == Approx(I_max * R).epsilon(1e-9));
  CHECK(r["converter.ratio"].back() == Approx(I_max * R / 400.0).epsilon(1e-9));
  CHECK(r["converter.P1"].back() == Approx(I_max * I_max * R / eta).epsilon(1e-9));
  CHECK(r["converter.i1"].back() == Approx(I_max * I_max * R / eta / 400.0).epsilon(1e-9));
  test::books_close(books, r, 1e-6);
}

}  // namespace test_dcdc
