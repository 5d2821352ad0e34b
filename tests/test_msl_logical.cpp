// Boolean and Integer signals: MSL v4.0.0 Blocks.Examples LogicalNetwork1,
// ShowLogicalSources, BooleanNetwork1 and IntegerNetwork1 against their MAP-LIB
// reference results (tests/data/msl/README.md), within 1e-3 of each signal's
// range away from events (the signals are 0/1 or whole numbers, so any
// difference between events is a whole unit and fails); the blocks' own rules
// against closed forms; and the errors of a Boolean network.
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "msl_reference.hpp"
#include "support.hpp"

namespace test_msl_logical {

using namespace acausal;

namespace {

// The examples run 10 s; rows every 0.01 s (MSL's grid is 0.002 s, subsampled).
Result run_example(const Model& m) { return m.compile().simulate(test::run_for(10.0, 0.01, 1e-6)); }

// A signal's value at t, between events (rows on a 0.01 s grid).
double value_at(const Result& r, const std::string& name, double t) { return test::at(r.time(), r[name], t); }

}  // namespace

TEST_CASE("MSL Blocks.Examples.LogicalNetwork1 against the reference", "[msl][logical]") {
  Model m("LogicalNetwork1");
  auto& table2 = m.add<blocks::BooleanTable>("table2", {}, std::vector<double>{1, 3, 5, 7});
  auto& table1 = m.add<blocks::BooleanTable>("table1", {}, std::vector<double>{2, 4, 6, 8});
  auto& Not1 = m.add<blocks::Not>("Not1");
  auto& And1 = m.add<blocks::And>("And1");
  auto& Or1 = m.add<blocks::Or>("Or1");
  auto& Pre1 = m.add<blocks::Pre>("Pre1");
  m.connect(table2.y, Not1.u);
  m.connect(And1.y, Or1.u2);
  m.connect(table1.y, Or1.u1);
  m.connect(Not1.y, And1.u1);
  m.connect(Pre1.y, And1.u2);
  m.connect(Or1.y, Pre1.u);
  const Result r = run_example(m);
  CHECK(test::compare_with_reference(r, "Blocks_LogicalNetwork1.csv", {"Pre1.u", "table1.y", "table2.y"}) <= 1e-3);
  // The network holds Or1 true from t = 2 s: table1 sets it, and And1 keeps it while table2 is false.
  CHECK(value_at(r, "Or1.y", 2.5) == 1.0);
  CHECK(value_at(r, "Or1.y", 1.5) == 0.0);
}

TEST_CASE("MSL Blocks.Examples.ShowLogicalSources against the reference", "[msl][logical]") {
  Model m("ShowLogicalSources");
  m.add<blocks::BooleanTable>("table", {}, std::vector<double>{2, 4, 6, 8});
  m.add<blocks::BooleanConstant>("const");
  auto& step = m.add<blocks::BooleanStep>("step", {{"startTime", 4}});
  auto& pulse = m.add<blocks::BooleanPulse>("pulse", {{"period", 1.5}});
  m.add<blocks::SampleTrigger>("sample", {{"period", 0.5}});
  // MSL's BooleanExpression(y = pulse.y and step.y): an And of the two.
  auto& expression = m.add<blocks::And>("booleanExpression");
  m.connect(pulse.y, expression.u1);
  m.connect(step.y, expression.u2);
  const Result r = run_example(m);
  CHECK(test::compare_with_reference(r, "Blocks_ShowLogicalSources.csv", {"table.y"}) <= 1e-3);
  // The pulse: true for the first half of each 1.5 s period; the step from 4 s; the trigger only at its instants.
  for (double t : {0.3, 1.6, 3.1, 7.6}) CHECK(value_at(r, "pulse.y", t) == 1.0);
  for (double t : {0.9, 2.4, 3.9, 8.4}) CHECK(value_at(r, "pulse.y", t) == 0.0);
  CHECK(value_at(r, "step.y", 3.9) == 0.0);
  CHECK(value_at(r, "step.y", 4.1) == 1.0);
  CHECK(value_at(r, "const.y", 5.0) == 1.0);
  // The trigger is true only during the event iteration of its instants: every row shows it
  // false (a row after an event shows the values that hold after the instant, as the first row
  // does for initial()); the counter test below counts its pulses.
  for (double y : r["sample.y"]) CHECK(y == 0.0);
}

TEST_CASE("MSL Blocks.Examples.BooleanNetwork1 against the reference", "[msl][logical]") {
  Model m("BooleanNetwork1");
  auto& showValue = m.add<blocks::BooleanValue>("showValue");
  auto& and1 = m.add<blocks::MultiAnd>("and1", {}, 3);
  auto& booleanPulse1 = m.add<blocks::BooleanPulse>("booleanPulse1", {{"width", 20}, {"period", 1}});
  auto& booleanPulse2 = m.add<blocks::BooleanPulse>("booleanPulse2", {{"period", 1}, {"width", 80}});
  auto& booleanStep = m.add<blocks::BooleanStep>("booleanStep", {{"startTime", 1.5}});
  auto& or1 = m.add<blocks::MultiOr>("or1", {}, 2);
  auto& xor1 = m.add<blocks::MultiXor>("xor1", {}, 2);
  auto& showValue2 = m.add<blocks::BooleanValue>("showValue2");
  auto& showValue3 = m.add<blocks::BooleanValue>("showValue3");
  auto& nand1 = m.add<blocks::MultiNand>("nand1", {}, 2);
  auto& or2 = m.add<blocks::MultiNor>("or2", {}, 2);
  auto& showValue4 = m.add<blocks::BooleanValue>("showValue4");
  auto& nor1 = m.add<blocks::Not>("nor1");
  auto& onDelay = m.add<blocks::OnDelay>("onDelay", {{"delayTime", 1}});
  auto& rising = m.add<blocks::RisingEdge>("rising");
  auto& set1 = m.add<blocks::BooleanMultiSwitch>("set1", {}, 2, std::vector<bool>{false, true});
  auto& falling = m.add<blocks::FallingEdge>("falling");
  auto& booleanTable = m.add<blocks::BooleanTable>("booleanTable", {}, std::vector<double>{2, 4, 6, 6.5, 7, 9, 11});
  auto& changing = m.add<blocks::ChangingEdge>("changing");
  auto& triggeredAdd = m.add<blocks::TriggeredAdd>("triggeredAdd");
  auto& integerConstant = m.add<blocks::IntegerConstant>("integerConstant", {{"k", 2}});
  auto& showValue1 = m.add<blocks::IntegerValue>("showValue1");
  auto& showValue5 = m.add<blocks::BooleanValue>("showValue5");
  auto& showValue6 = m.add<blocks::BooleanValue>("showValue6");
  auto& rSFlipFlop = m.add<blocks::RSFlipFlop>("rSFlipFlop");
  auto& sampleTriggerSet = m.add<blocks::SampleTrigger>("sampleTriggerSet", {{"period", 0.5}, {"startTime", 0}});
  auto& sampleTriggerReset = m.add<blocks::SampleTrigger>("sampleTriggerReset", {{"period", 0.5}, {"startTime", 0.3}});
  m.connect(booleanPulse1.y, *and1.u[0]);
  m.connect(booleanStep.y, *and1.u[1]);
  m.connect(booleanPulse2.y, *and1.u[2]);
  m.connect(and1.y, *or1.u[0]);
  m.connect(booleanPulse2.y, *or1.u[1]);
  m.connect(or1.y, *xor1.u[0]);
  m.connect(booleanPulse2.y, *xor1.u[1]);
  m.connect(and1.y, showValue.activePort);
  m.connect(or1.y, showValue2.activePort);
  m.connect(xor1.y, showValue3.activePort);
  m.connect(xor1.y, *nand1.u[0]);
  m.connect(booleanPulse2.y, *nand1.u[1]);
  m.connect(nand1.y, *or2.u[0]);
  m.connect(booleanPulse2.y, *or2.u[1]);
  m.connect(or2.y, nor1.u);
  m.connect(nor1.y, showValue4.activePort);
  m.connect(booleanPulse2.y, rising.u);
  m.connect(rising.y, *set1.u[0]);
  m.connect(falling.y, *set1.u[1]);
  m.connect(booleanPulse2.y, falling.u);
  m.connect(booleanTable.y, onDelay.u);
  m.connect(booleanPulse2.y, changing.u);
  m.connect(integerConstant.y, triggeredAdd.u);
  m.connect(changing.y, triggeredAdd.trigger);
  m.connect(triggeredAdd.y, showValue1.numberPort);
  m.connect(set1.y, showValue5.activePort);
  m.connect(onDelay.y, showValue6.activePort);
  m.connect(sampleTriggerSet.y, rSFlipFlop.S);
  m.connect(sampleTriggerReset.y, rSFlipFlop.R);
  const Result r = run_example(m);
  const test::Table ref = test::read_csv(test::data_dir() / "msl" / "Blocks_BooleanNetwork1.csv");
  std::vector<std::string> all(ref.names.begin() + 1, ref.names.end());
  CHECK(test::compare_with_reference(r, "Blocks_BooleanNetwork1.csv", all) <= 1e-3);
  // OnDelay: the table's rising edge at 2 s appears at 3 s; its falling edge at 4 s at once;
  // the pulse at [6, 6.5) is shorter than the delay and never appears.
  CHECK(value_at(r, "onDelay.y", 2.9) == 0.0);
  CHECK(value_at(r, "onDelay.y", 3.1) == 1.0);
  CHECK(value_at(r, "onDelay.y", 4.1) == 0.0);
  CHECK(value_at(r, "onDelay.y", 6.4) == 0.0);
  CHECK(value_at(r, "onDelay.y", 8.1) == 1.0);
  // The flip-flop: set at k·0.5 s, reset at k·0.5 + 0.3 s.
  CHECK(value_at(r, "rSFlipFlop.Q", 1.1) == 1.0);
  CHECK(value_at(r, "rSFlipFlop.Q", 1.4) == 0.0);
  CHECK(value_at(r, "rSFlipFlop.QI", 1.4) == 1.0);
  // TriggeredAdd adds 2 at each change of the 1 s pulse (two per period after the first).
  CHECK(value_at(r, "triggeredAdd.y", 9.9) == value_at(r, "triggeredAdd.y", 0.1) + 2.0 * 2.0 * 9.0 + 2.0);
}

TEST_CASE("MSL Blocks.Examples.IntegerNetwork1 against the reference", "[msl][logical]") {
  Model m("IntegerNetwork1");
  auto& sum = m.add<blocks::IntegerSum>("sum", {}, 3);
  auto& sine = m.add<blocks::Sine>("sine", {{"amplitude", 3}, {"f", 0.1}});
  auto& realToInteger = m.add<blocks::RealToInteger>("realToInteger");
  auto& integerStep = m.add<blocks::IntegerStep>("integerStep", {{"height", 3}, {"startTime", 2}});
  auto& integerConstant = m.add<blocks::IntegerConstant>("integerConstant", {{"k", 1}});
  auto& showValue = m.add<blocks::IntegerValue>("showValue");
  auto& product = m.add<blocks::IntegerProduct>("product", {}, 2);
  auto& showValue1 = m.add<blocks::IntegerValue>("showValue1");
  auto& triggeredAdd = m.add<blocks::TriggeredAdd>("triggeredAdd");
  auto& booleanPulse1 = m.add<blocks::BooleanPulse>("booleanPulse1", {{"period", 1}});
  auto& showValue2 = m.add<blocks::IntegerValue>("showValue2");
  auto& multiSwitch1 = m.add<blocks::IntegerMultiSwitch>("multiSwitch1", {{"y_default", 2}, {"use_pre_as_default", 0}},
                                                         2, std::vector<int>{4, 6});
  auto& booleanPulse2 = m.add<blocks::BooleanPulse>("booleanPulse2", {{"period", 2}, {"width", 80}});
  m.connect(sine.y, realToInteger.u);
  m.connect(realToInteger.y, *sum.u[0]);
  m.connect(integerStep.y, *sum.u[1]);
  m.connect(integerConstant.y, *sum.u[2]);
  m.connect(sum.y, showValue.numberPort);
  m.connect(sum.y, *product.u[0]);
  m.connect(integerStep.y, *product.u[1]);
  m.connect(product.y, showValue1.numberPort);
  m.connect(integerConstant.y, triggeredAdd.u);
  m.connect(booleanPulse1.y, triggeredAdd.trigger);
  m.connect(triggeredAdd.y, showValue2.numberPort);
  m.connect(booleanPulse1.y, *multiSwitch1.u[0]);
  m.connect(booleanPulse2.y, *multiSwitch1.u[1]);
  const Result r = run_example(m);
  CHECK(test::compare_with_reference(r, "Blocks_IntegerNetwork1.csv", {"multiSwitch1.y", "triggeredAdd.y"}) <= 1e-3);
  // realToInteger rounds 3·sin(2π·0.1·t) to the nearest whole number at every row (its events are located).
  const auto t = r.time();
  const auto n = r["realToInteger.y"];
  const auto s = r["sine.y"];
  int checked = 0;
  for (std::size_t k = 0; k < t.size(); ++k) {
    const double frac = std::fabs(s[k]) - std::floor(std::fabs(s[k]));
    if (std::fabs(frac - 0.5) < 1e-6) continue;  // at a crossing
    CHECK(n[k] == (s[k] > 0 ? std::floor(s[k] + 0.5) : -std::floor(0.5 - s[k])));
    ++checked;
  }
  CHECK(checked > 900);
  CHECK(value_at(r, "product.y", 5.0) == (value_at(r, "realToInteger.y", 5.0) + 3 + 1) * 3);
}

TEST_CASE("MSL Blocks.Examples.RealNetwork1 against the reference", "[msl][logical]") {
  Model m("RealNetwork1");
  auto& add = m.add<blocks::MultiSum>("add", {}, 2);
  auto& sine = m.add<blocks::Sine>("sine", {{"amplitude", 3}, {"f", 0.1}});
  auto& integerStep = m.add<blocks::Step>("integerStep", {{"height", 3}, {"startTime", 2}});
  auto& integerConstant = m.add<blocks::Constant>("integerConstant", {{"k", 1}});
  auto& showValue = m.add<blocks::RealValue>("showValue");
  auto& product = m.add<blocks::MultiProduct>("product", {}, 2);
  auto& showValue1 = m.add<blocks::RealValue>("showValue1");
  auto& booleanPulse1 = m.add<blocks::BooleanPulse>("booleanPulse1", {{"period", 1}});
  auto& multiSwitch = m.add<blocks::MultiSwitch>("multiSwitch", {{"y_default", 2}}, 2, std::vector<double>{4, 6});
  auto& booleanPulse2 = m.add<blocks::BooleanPulse>("booleanPulse2", {{"period", 2}, {"width", 80}});
  auto& linearDependency1 = m.add<blocks::LinearDependency>("linearDependency1", {{"y0", 1}, {"k1", 2}, {"k2", 3}});
  auto& minMax = m.add<blocks::MinMax>("minMax", {}, 2);
  m.connect(booleanPulse1.y, *multiSwitch.u[0]);
  m.connect(booleanPulse2.y, *multiSwitch.u[1]);
  m.connect(sine.y, *add.u[0]);
  m.connect(integerStep.y, *add.u[1]);
  m.connect(add.y, showValue.numberPort);
  m.connect(integerStep.y, *product.u[0]);
  m.connect(integerConstant.y, *product.u[1]);
  m.connect(product.y, showValue1.numberPort);
  m.connect(add.y, linearDependency1.u1);
  m.connect(product.y, linearDependency1.u2);
  m.connect(add.y, *minMax.u[0]);
  m.connect(product.y, *minMax.u[1]);
  const Result r = run_example(m);
  CHECK(test::compare_with_reference(r, "Blocks_RealNetwork1.csv", {"multiSwitch.u[1]", "multiSwitch.u[2]"}) <= 1e-3);
  // The Real blocks against their closed forms at every row.
  const auto t = r.time();
  const auto sum = r["add.y"], prod = r["product.y"], lin = r["linearDependency1.y"];
  const auto hi = r["minMax.yMax"], lo = r["minMax.yMin"], sw = r["multiSwitch.y"];
  const auto p1 = r["booleanPulse1.y"], p2 = r["booleanPulse2.y"];
  for (std::size_t k = 0; k < t.size(); ++k) {
    if (t[k] == 2.0) continue;  // the step's event rows
    const double step = t[k] > 2.0 ? 3.0 : 0.0;
    CHECK(sum[k] == Approx(3.0 * std::sin(2.0 * M_PI * 0.1 * t[k]) + step).margin(1e-9));
    CHECK(prod[k] == step);
    CHECK(lin[k] == Approx(1.0 + 2.0 * sum[k] + 3.0 * prod[k]).margin(1e-9));
    CHECK(hi[k] == Approx(std::max(sum[k], prod[k])).margin(1e-6));
    CHECK(lo[k] == Approx(std::min(sum[k], prod[k])).margin(1e-6));
    CHECK(sw[k] == (p1[k] == 1.0 ? 4.0 : p2[k] == 1.0 ? 6.0 : 2.0));
  }
}

TEST_CASE("Hysteresis switches at uHigh rising and uLow falling, and a Switch follows it", "[logical]") {
  // u = 2·sin(2π·0.5·t): above 0.5 from t = asin(0.25)/π, below -0.5 from 1 + asin(0.25)/π, period 2 s.
  Model m("thermostat");
  auto& u = m.add<blocks::Sine>("u", {{"amplitude", 2}, {"f", 0.5}});
  auto& band = m.add<blocks::Hysteresis>("band", {{"uLow", -0.5}, {"uHigh", 0.5}});
  auto& on = m.add<blocks::Constant>("on", {{"k", 10}});
  auto& off = m.add<blocks::Constant>("off", {{"k", -10}});
  auto& choose = m.add<blocks::Switch>("choose");
  m.connect(u.y, band.u);
  m.connect(on.y, choose.u1);
  m.connect(band.y, choose.u2);
  m.connect(off.y, choose.u3);
  const Result r = m.compile().simulate(test::run_for(6.0, 0.01, 1e-8));
  const double t_on = std::asin(0.25) / M_PI;
  const auto t = r.time();
  const auto y = r["band.y"], out = r["choose.y"];
  for (std::size_t k = 0; k < t.size(); ++k) {
    const double phase = std::fmod(t[k], 2.0);
    if (std::fabs(phase - t_on) < 1e-6 || std::fabs(phase - 1.0 - t_on) < 1e-6) continue;  // at a switch
    const double expected = (phase > t_on && phase < 1.0 + t_on) ? 1.0 : 0.0;
    CHECK(y[k] == expected);
    CHECK(out[k] == (expected == 1.0 ? 10.0 : -10.0));
  }
  // The events are located: each within 1e-6 s of a crossing of ±0.5 (the relations u > uHigh
  // and u >= uLow also change where y holds).
  CHECK(r.event_times().size() >= 8);
  for (double e : r.event_times()) {
    const double phase = std::fmod(e, 2.0);
    double nearest = 1.0;
    for (double crossing : {t_on, 1.0 - t_on, 1.0 + t_on, 2.0 - t_on})
      nearest = std::min(nearest, std::fabs(phase - crossing));
    CHECK(nearest < 1e-6);
  }
}

TEST_CASE("Boolean networks: a model without continuous unknowns runs, and its mistakes are ModelErrors",
          "[logical][errors]") {
  SECTION("an unconnected Boolean input names itself") {
    Model m("dangling");
    auto& gate = m.add<blocks::And>("gate");
    auto& source = m.add<blocks::BooleanConstant>("source");
    m.connect(source.y, gate.u1);
    CHECK_THROWS_WITH(m.compile(), Catch::Contains("gate.u2") && Catch::Contains("not connected"));
  }
  SECTION("a Boolean output cannot drive an Integer input") {
    Model m("mismatch");
    auto& source = m.add<blocks::BooleanConstant>("source");
    auto& sum = m.add<blocks::IntegerSum>("sum", {}, 1);
    CHECK_THROWS_AS(m.connect(source.y, *sum.u[0]), ModelError);
  }
  SECTION("a counter of sample ticks, with nothing continuous, counts exactly") {
    Model m("counter");
    auto& trigger = m.add<blocks::SampleTrigger>("trigger", {{"period", 0.25}, {"startTime", 0.1}});
    auto& one = m.add<blocks::IntegerConstant>("one");
    auto& count = m.add<blocks::TriggeredAdd>("count");
    m.connect(one.y, count.u);
    m.connect(trigger.y, count.trigger);
    const Result r = m.compile().simulate(test::run_for(3.0, 0.05));
    for (double t : {0.05, 0.3, 1.0, 2.9}) CHECK(value_at(r, "count.y", t) == std::floor((t - 0.1) / 0.25) + 1.0);
    const auto names = r.names();
    CHECK(std::find(names.begin(), names.end(), "$event_clock") == names.end());
  }
  SECTION("a table instant out of order is refused at compile()") {
    Model m("table");
    m.add<blocks::BooleanTable>("table", {}, std::vector<double>{1, 3, 2});
    CHECK_THROWS_WITH(m.compile(), Catch::Contains("table_3 > table_2"));
  }
  SECTION("an Integer parameter with a fraction is refused") {
    Model m("fraction");
    m.add<blocks::IntegerConstant>("k", {{"k", 1.5}});
    CHECK_THROWS_WITH(m.compile(), Catch::Contains("k is a whole number"));
  }
}

TEST_CASE("MSL Blocks.Examples.Interaction1 against the reference: IntegerTable and two radio buttons",
          "[msl][logical]") {
  Model m("Interaction1");
  auto& integerValue = m.add<blocks::IntegerValue>("integerValue");
  auto& integerTable = m.add<blocks::IntegerTable>("integerTable");
  integerTable.set_table({{0, 0}, {1, 2}, {2, 4}, {3, 6}, {4, 4}, {6, 2}});
  auto& timeTable = m.add<blocks::TimeTable>("timeTable");
  timeTable.set_table({{0, 0}, {1, 2.1}, {2, 4.2}, {3, 6.3}, {4, 4.2}, {6, 2.1}, {6, 2.1}});
  auto& realValue = m.add<blocks::RealValue>("realValue");
  auto& booleanTable = m.add<blocks::BooleanTable>("booleanTable", {}, std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8, 9});
  auto& booleanValue = m.add<blocks::BooleanValue>("booleanValue");
  // MSL binds start.reset = {stop.on} and stop.reset = {start.on}: connections here.
  auto& start = m.add<blocks::RadioButtonSource>("start", {}, std::vector<double>{1, 3});
  auto& stop = m.add<blocks::RadioButtonSource>("stop", {}, std::vector<double>{2, 4});
  m.connect(stop.on, *start.reset[0]);
  m.connect(start.on, *stop.reset[0]);
  m.connect(integerTable.y, integerValue.numberPort);
  m.connect(timeTable.y, realValue.numberPort);
  m.connect(booleanTable.y, booleanValue.activePort);
  const Result r = run_example(m);
  CHECK(test::compare_with_reference(r, "Blocks_Interaction1.csv",
                                     {"booleanTable.y", "integerTable.y", "start.on", "start.reset[1]", "stop.on",
                                      "stop.reset[1]"}) <= 1e-3);
  // Exactly one button is on from its first press: pressing one releases the
  // other at the same instant (both rows at t = 2 s: start released, stop on).
  for (double t = 1.01; t < 10.0; t += 0.1) {
    INFO("t = " << t);
    CHECK(value_at(r, "start.on", t) + value_at(r, "stop.on", t) == 1.0);
  }
  CHECK(value_at(r, "stop.on", 9.0) == 1.0);  // the last press, at 4 s, was stop's
  // The table's last value holds after its last row; its first before the first.
  CHECK(value_at(r, "integerTable.y", 9.5) == 2.0);
  CHECK(value_at(r, "integerTable.y", 5.0) == 4.0);
}

TEST_CASE("RadioButtonSource: a press at the instant of a reset wins, a held reset clears once", "[logical]") {
  // reset1 rises at 2 s and stays true; presses at 1, 2 and 3 s. At 1 s on.
  // At 2 s the press sets on in the instant's first iteration and the reset,
  // acting one iteration late (through pre, as MSL's algorithm), clears it in
  // the next: off after 2 s. A reset that stays true does not act again, so
  // the press at 3 s holds.
  Model m("radio");
  auto& button = m.add<blocks::RadioButtonSource>("button", {}, std::vector<double>{1, 2, 3});
  auto& reset = m.add<blocks::BooleanStep>("reset", {{"startTime", 2.0}});
  m.connect(reset.y, *button.reset[0]);
  const Result r = m.compile().simulate(test::run_for(4.0, 0.01, 1e-6));
  CHECK(value_at(r, "button.on", 0.5) == 0.0);
  CHECK(value_at(r, "button.on", 1.5) == 1.0);
  CHECK(value_at(r, "button.on", 2.5) == 0.0);
  CHECK(value_at(r, "button.on", 3.5) == 1.0);
}

TEST_CASE("IntegerTable refuses rows that are not a table of whole values, naming the block", "[logical][errors]") {
  Model m("bad");
  auto& table = m.add<blocks::IntegerTable>("steps");
  CHECK_THROWS_WITH(table.set_table({{0, 1}, {1, 2.5}}), Catch::Contains("'steps'") && Catch::Contains("whole value"));
  CHECK_THROWS_WITH(table.set_table({{0, 1}, {0, 2}}), Catch::Contains("'steps'") && Catch::Contains("increase strictly"));
  CHECK_THROWS_WITH(table.set_table({}), Catch::Contains("'steps'") && Catch::Contains("empty"));
}

}  // namespace test_msl_logical
