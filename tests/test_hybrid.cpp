// Hybrid models: discrete variables, pre(), when-clauses with reinit, sample(),
// the event iteration and its bounds (Modelica semantics).
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>

#include "tests/support.hpp"

namespace test_hybrid {

using namespace acausal;

namespace {

using test::BouncingBall;
constexpr double g = test::gravity;

// A PI controller sampled every `period` on a first-order plant T·y' = u - y,
// u held between samples (zero-order hold).
struct SampledLoop : Component {
  Parameter kp = parameter("kp", 2.0), ki = parameter("ki", 5.0), period = parameter("period", 0.01, {.unit = "s"});
  Parameter T = parameter("T", 0.3, {.unit = "s"}), reference = parameter("reference", 1.0);
  Variable y = variable("y", {.start = 0.0, .fixed = true});
  Discrete u = discrete("u"), integral = discrete("integral");
  explicit SampledLoop(std::string name) : Component(std::move(name)) {
    Expr error = reference - y;
    when(sample(0.0, period), {integral == pre(integral) + error * period,
                               u == kp * error + ki * (pre(integral) + error * period)});
    equation(T * der(y) == u - y);
  }
};

// A thermostat with hysteresis: the heater switches on below T_low and off above T_high.
struct Thermostat : Component {
  Parameter k = parameter("k", 0.5, {.unit = "1/s"}), heating = parameter("heating", 15.0, {.unit = "K/s"});
  Parameter T_low = parameter("T_low", 19.0, {.unit = "K"}), T_high = parameter("T_high", 21.0, {.unit = "K"});
  Variable T = variable("T", {.unit = "K", .start = 20.0, .fixed = true});
  Discrete on = discrete("on", {.start = 1.0, .kind = DiscreteKind::boolean});
  explicit Thermostat(std::string name) : Component(std::move(name)) {
    equation(on == ifelse(pre(on), T < T_high, T < T_low));
    equation(der(T) == -k * T + heating * on);
  }
};

// der(x) = -1 above zero and +1 below: a sliding mode the model does not describe.
struct Chatter : Component {
  Variable x = variable("x", {.start = 1.0, .fixed = true});
  explicit Chatter(std::string name) : Component(std::move(name)) { equation(der(x) == ifelse(x > 0.0, -1.0, 1.0)); }
};

SimulationOptions tight(double t_end, double dt) {
  SimulationOptions o = test::run_for(t_end, dt, 1e-11);
  o.atol = 1e-13;
  return o;
}

}  // namespace

TEST_CASE("A bouncing ball bounces at the closed-form instants with the closed-form apex heights", "[hybrid]") {
  Model m("ball");
  m.add<BouncingBall>("ball");
  Simulator sim = m.compile();
  INFO(sim.report().str());
  CHECK(sim.report().count("hybrid", "when_clauses") == 1);
  CHECK(sim.report().count("hybrid", "discrete_variables") == 1);
  const double e = 0.8, h0 = 1.0;
  const double t1 = std::sqrt(2 * h0 / g), v1 = g * t1;
  // Bounce k (0-based) at t1 + sum_{j<k} 2·e^(j+1)·v1/g.
  std::vector<double> expected{t1};
  for (int k = 1; k < 10; ++k) expected.push_back(expected.back() + 2 * std::pow(e, k) * v1 / g);
  Result r = sim.simulate(tight(expected.back() + 0.05, 0.001));
  std::vector<double> impacts;
  auto bounces = r["ball.bounces"];
  for (std::size_t i = 1; i < r.size(); ++i)
    if (bounces[i] != bounces[i - 1]) impacts.push_back(r.time()[i]);
  REQUIRE(impacts.size() == expected.size());
  // Each event names the relation that fired it; an impact and the crossing
  // back just after it are one event.
  REQUIRE(r.event_causes().size() == r.event_times().size());
  CHECK(r.event_times().size() == expected.size());
  for (const auto& cause : r.event_causes()) CHECK_THAT(cause, Catch::StartsWith("ball.h < 0"));
  for (std::size_t k = 0; k < expected.size(); ++k) {
    INFO("bounce " << k);
    CHECK(impacts[k] == Approx(expected[k]).margin(1e-6));
    CHECK(bounces[std::find(r.time().begin(), r.time().end(), impacts[k]) - r.time().begin() + 1] == k + 1);
  }
  // Between bounces the energy is the apex height: h + v²/2g = (e^k·v1)²/2g.
  auto h = r["ball.h"], v = r["ball.v"];
  double worst = 0;
  for (std::size_t i = 0; i < r.size(); ++i) {
    const int k = static_cast<int>(bounces[i]);
    const double apex = k == 0 ? h0 : std::pow(std::pow(e, k) * v1, 2) / (2 * g);
    worst = std::max(worst, std::fabs(h[i] + v[i] * v[i] / (2 * g) - apex));
  }
  CHECK(worst < 1e-6);
}

TEST_CASE("A ball that bounces ever faster ends in a clear error at the accumulation point, not a hang", "[hybrid]") {
  Model m("ball");
  m.add<BouncingBall>("ball", {{"e", 0.3}});
  Simulator sim = m.compile();
  const auto started = std::chrono::steady_clock::now();
  const double t_zeno = std::sqrt(2.0 / g) * (1 + 2 * 0.3 / (1 - 0.3));  // the accumulation instant
  try {
    sim.simulate(test::run_for(3.0, 0.01));
    FAIL("the run went past the accumulation point at t = " << t_zeno);
  } catch (const SimulationError& error) {
    INFO(error.what());
    CHECK(std::string(error.what()).find("ball.h < 0") != std::string::npos);
    CHECK(std::string(error.what()).find("Zeno") != std::string::npos);
    CHECK(error.time_reached() == Approx(t_zeno).margin(1e-3));
  }
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(5));
}

TEST_CASE("A chattering relation ends in a SimulationError naming it within 5 s", "[hybrid]") {
  Model m("chatter");
  m.add<Chatter>("c");
  Simulator sim = m.compile();
  const auto started = std::chrono::steady_clock::now();
  CHECK_THROWS_WITH(sim.simulate(test::run_for(5.0, 0.01)),
                    Catch::Contains("c.x > 0") && Catch::Contains("chattering"));
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(5));
}

TEST_CASE("A PI controller sampled every 10 ms follows the exact discrete-time recursion", "[hybrid]") {
  Model m("loop");
  m.add<SampledLoop>("pi");
  Simulator sim = m.compile();
  INFO(sim.report().str());
  CHECK(sim.report().count("hybrid", "samples") == 1);
  const double kp = 2, ki = 5, h = 0.01, T = 0.3, reference = 1.0, a = std::exp(-h / T);
  Result r = sim.simulate(tight(1.0, 0.005));
  auto y = r["pi.y"], u = r["pi.u"], integral = r["pi.integral"];
  // The recursion: at t_k, e_k = r - y_k, I_k = I_(k-1) + e_k·h, u_k = kp·e_k + ki·I_k;
  // the plant then relaxes exactly toward u_k over one period.
  double yk = 0, ik = 0, worst_y = 0, worst_u = 0;
  std::size_t row = 0;
  for (int k = 0; k < 100; ++k) {
    const double tk = k * h;
    while (row < r.size() && r.time()[row] < tk - 1e-12) ++row;
    REQUIRE(row + 1 < r.size());
    // The row after the sample's event iteration (its right limit) holds u_k.
    if (k > 0) {
      REQUIRE(r.time()[row + 1] == Approx(tk).margin(1e-12));
      ++row;
    }
    const double ek = reference - yk;
    ik += ek * h;
    const double uk = kp * ek + ki * ik;
    worst_y = std::max(worst_y, std::fabs(y[row] - yk));
    worst_u = std::max(worst_u, std::fabs(u[row] - uk) + std::fabs(integral[row] - ik));
    yk = yk * a + (1 - a) * uk;
  }
  CHECK(worst_y < 1e-9);
  CHECK(worst_u < 1e-8);
  REQUIRE(!r.event_causes().empty());
  for (const auto& cause : r.event_causes()) CHECK_THAT(cause, Catch::Contains("sample(0, pi.period)"));
}

TEST_CASE("A thermostat defined by a discrete equation with pre() switches at the closed-form instants",
          "[hybrid]") {
  Model m("room");
  m.add<Thermostat>("th");
  Simulator sim = m.compile();
  INFO(sim.report().str());
  CHECK(sim.report().count("events", "state_events") == 2);
  Result r = sim.simulate(tight(20.0, 0.01));
  // On, T relaxes toward heating/k = 30 K; off, toward 0 K: from 20 K up to
  // 21 K, then down to 19 K, up to 21 K, and so on.
  const double k = 0.5;
  std::vector<double> expected{std::log(10.0 / 9.0) / k};
  for (int i = 1; i < 8; ++i) expected.push_back(expected.back() + std::log(i % 2 ? 21.0 / 19.0 : 11.0 / 9.0) / k);
  auto on = r["th.on"], T = r["th.T"];
  std::vector<double> switches;
  for (std::size_t i = 1; i < r.size(); ++i)
    if (on[i] != on[i - 1]) {
      switches.push_back(r.time()[i]);
      CHECK(on[i] == (switches.size() % 2 ? 0.0 : 1.0));
      CHECK(T[i] == Approx(switches.size() % 2 ? 21.0 : 19.0).margin(1e-8));
    }
  REQUIRE(switches.size() >= expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) CHECK(switches[i] == Approx(expected[i]).margin(1e-7));
}

TEST_CASE("Discrete variables that keep changing end the event iteration with an error naming them", "[hybrid]") {
  struct Toggle : Component {
    Variable x = variable("x", {.start = 0.0, .fixed = true});
    Discrete b = discrete("b", {.kind = DiscreteKind::boolean});
    explicit Toggle(std::string name) : Component(std::move(name)) {
      equation(b == !pre(b));
      equation(der(x) == b);
    }
  };
  Model m("toggle");
  m.add<Toggle>("t");
  Simulator sim = m.compile();
  CHECK_THROWS_WITH(sim.simulate(test::run_for(1.0, 0.1)),
                    Catch::Contains("did not settle") && Catch::Contains("t.b") && Catch::Contains("t = 0"));
}

TEST_CASE("Hybrid declarations that cannot work are ModelErrors naming the variable", "[hybrid][errors]") {
  struct Undetermined : Component {
    Variable x = variable("x", {.start = 0.0, .fixed = true});
    Discrete d = discrete("d");
    explicit Undetermined(std::string name) : Component(std::move(name)) { equation(der(x) == d); }
  };
  struct Twice : Undetermined {
    explicit Twice(std::string name) : Undetermined(std::move(name)) {
      equation(d == 1.0);
      when(x > 1.0, {d == 2.0});
    }
  };
  struct Loop : Undetermined {
    Discrete e = discrete("e");
    explicit Loop(std::string name) : Undetermined(std::move(name)) {
      equation(d == e + 1.0);
      equation(e == d - 1.0);
    }
  };
  struct ReinitAlgebraic : Undetermined {
    Variable z = variable("z");
    explicit ReinitAlgebraic(std::string name) : Undetermined(std::move(name)) {
      equation(d == 1.0);
      equation(z == x * x + time_symbol());
      when(x > 0.5, {reinit(z, 0.0)});
    }
  };
  auto compile = [](auto* tag) {
    Model m("bad");
    m.add<std::remove_pointer_t<decltype(tag)>>("c");
    return m.compile();
  };
  CHECK_THROWS_WITH(compile((Undetermined*)nullptr), Catch::Contains("nothing determines discrete variable c.d"));
  CHECK_THROWS_WITH(compile((Twice*)nullptr), Catch::Contains("c.d") && Catch::Contains("one or the other"));
  CHECK_THROWS_WITH(compile((Loop*)nullptr), Catch::Contains("defined through itself without pre()"));
  CHECK_THROWS_WITH(compile((ReinitAlgebraic*)nullptr),
                    Catch::Contains("reinit(c.z") && Catch::Contains("the states are: c.x"));
}

namespace {

// A scheduler: fires at pre(next), then moves next on by `period`; the
// condition's threshold moves with the discrete it reads. `marked` counts
// the firings of when {initial(), time >= 0}: its second condition is
// already true at the start, which must not hide initial()'s edge.
struct Scheduler : Component {
  Parameter period = parameter("period", 0.5, {.unit = "s"});
  Variable x = variable("x", {.start = 0.0, .fixed = true});
  Discrete next = discrete("next", {.unit = "s", .start = 0.25});
  Discrete count = discrete("count", {.kind = DiscreteKind::integer});
  Discrete marked = discrete("marked", {.kind = DiscreteKind::integer});
  explicit Scheduler(std::string name) : Component(std::move(name)) {
    equation(der(x) == 1.0);
    when(time_symbol() >= pre(next), {next == pre(next) + period, count == pre(count) + 1});
    when({initial(), time_symbol() >= 0.0}, {marked == pre(marked) + 1});
  }
};

}  // namespace

TEST_CASE("A when-condition whose threshold is a discrete it moves fires every time it is reached",
          "[hybrid][events]") {
  // Before the fix the threshold's first crossing kept the value the root gave
  // it after next moved on, so the clause fired once (count 1, not 4).
  Model m("scheduler");
  m.add<Scheduler>("s");
  Simulator sim = m.compile();
  Result r = sim.simulate(test::run_for(2.0, 0.01));
  CHECK(r["s.count"].back() == 4.0);  // 0.25, 0.75, 1.25, 1.75
  CHECK(r["s.next"].back() == 2.25);
  // A condition already true at the start does not hide initial(): fired once, at initialization.
  CHECK(r["s.marked"].front() == 1.0);
  CHECK(r["s.marked"].back() == 1.0);
  // A crossing on t_end itself is an event at the last row, not a failed re-initialization.
  Result ends_on_event = sim.simulate(test::run_for(1.75, 0.01));
  CHECK(ends_on_event["s.count"].back() == 4.0);
}

// The library's event semantics of abs, sign, min and max (docs/architecture.md,
// pass "events"): unlike Modelica, which expands abs and sign with noEvent,
// each is an event, located by its root function, so that IDA integrates
// smooth pieces (no_event() keeps any of them literal). abs, min and max are
// continuous across their switch and are marked so; such a switch is no
// chattering (session.cpp), sign's jump can be.
TEST_CASE("abs, sign, min and max are events, those of abs, min and max are continuous switches", "[hybrid][events]") {
  struct Switches : Component {
    Variable s = variable("s", {.start = 0.0, .fixed = true});
    Variable a = variable("a", {.start = 0.0, .fixed = true});
    Variable b = variable("b", {.start = 0.0, .fixed = true});
    Variable c = variable("c", {.start = 0.0, .fixed = true});
    explicit Switches(std::string name) : Component(std::move(name)) {
      equation(der(s) == 1.0);
      equation(der(a) == abs(s - 0.25));
      equation(der(b) == min(s, 0.5) + max(s, 0.75));
      equation(der(c) == sign(s - 0.6));
    }
  };
  Model m("switches");
  m.add<Switches>("w");
  Simulator sim = m.compile();
  long continuous = 0, jumping = 0;
  for (const auto& note : sim.report().find("events")->notes) {
    if (note.rfind("root function: ", 0) != 0) continue;
    INFO(note);
    const bool marked = note.find("(continuous: abs, min or max)") != std::string::npos;
    (marked ? continuous : jumping) += 1;
    CHECK(marked == (note.find("0.6") == std::string::npos));  // all but sign's are continuous
  }
  CHECK(continuous == 3);
  CHECK(jumping == 2);  // sign(x) reads x > 0 and x < 0
  Result r = sim.simulate(test::run_for(1.0, 0.01, 1e-10));
  std::vector<double> expected{0.25, 0.5, 0.6, 0.75};
  REQUIRE(r.event_times().size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) CHECK(r.event_times()[i] == Approx(expected[i]).margin(1e-9));
  // The integrals of the piecewise-linear rates, to the integration tolerance.
  CHECK(r["w.a"].back() == Approx(0.25 * 0.25 / 2 + 0.75 * 0.75 / 2).margin(1e-8));
  CHECK(r["w.b"].back() == Approx((0.125 + 0.25) + (0.75 * 0.75 + (1 - 0.75 * 0.75) / 2)).margin(1e-8));
  CHECK(r["w.c"].back() == Approx(-0.6 + 0.4).margin(1e-8));
}

TEST_CASE("A chattering sign() ends in a SimulationError: its switch jumps", "[hybrid]") {
  struct SignChatter : Component {
    Variable x = variable("x", {.start = 1.0, .fixed = true});
    explicit SignChatter(std::string name) : Component(std::move(name)) { equation(der(x) == -sign(x)); }
  };
  Model m("sign_chatter");
  m.add<SignChatter>("c");
  Simulator sim = m.compile();
  CHECK_THROWS_WITH(sim.simulate(test::run_for(5.0, 0.01)), Catch::Contains("chattering"));
}

TEST_CASE("sample() timing that cannot run is refused before the run, naming the sample", "[hybrid][errors]") {
  // Issue 30: sample(-1e300, 0.1) ran forever, sample(0, 1e-9) over 1 s was
  // not refused, sample(0, 1e-6) over 10 s took 2 GB, and sample(0, 1e-12)
  // silently stopped after two ticks.
  struct Clocked : Component {
    Parameter start = parameter("start", 0.0, {.unit = "s"}), period = parameter("period", 0.01, {.unit = "s"});
    Variable y = variable("y", {.start = 0.0, .fixed = true});
    Discrete n = discrete("n");
    explicit Clocked(std::string name) : Component(std::move(name)) {
      when(sample(start, period), {n == pre(n) + 1.0});
      equation(der(y) == 1.0);
    }
  };
  Model m("clocked");
  m.add<Clocked>("c");
  Simulator sim = m.compile();
  struct Case {
    double start, period, t_end;
    const char* says;
  };
  for (const Case& c : {Case{-1e300, 0.1, 1.0, "resolution"}, Case{0.0, 1e-12, 1.0, "resolution"},
                        Case{0.0, 1e-9, 1.0, "ticks"}, Case{0.0, 1e-6, 10.0, "ticks"}}) {
    INFO("sample(" << c.start << ", " << c.period << ") over " << c.t_end << " s");
    sim.set_parameter("c.start", c.start);
    sim.set_parameter("c.period", c.period);
    const auto started = std::chrono::steady_clock::now();
    try {
      sim.simulate(test::run_for(c.t_end, c.t_end / 10));
      FAIL("not refused");
    } catch (const ModelError& e) {
      CHECK_THAT(e.what(), Catch::Contains("c.period") && Catch::Contains("sample(start, interval)") &&
                               Catch::Contains(c.says));
    }
    CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() < 2.0);
  }
  // A clock that fits runs, and ticks exactly as many times as it should.
  sim.set_parameter("c.start", 0.0);
  sim.set_parameter("c.period", 1e-3);
  Result r = sim.simulate(test::run_for(1.0, 0.1));
  CHECK(r["c.n"][r.size() - 1] == 1001.0);  // ticks at 0, 1 ms, ..., 1 s: the tick at t_end counts
}

namespace {

// A tank drained at 1 /s from level 1 that must stay above `low`.
struct AssertedTank : Component {
  Parameter low = parameter("low", 0.25);
  Variable level = variable("level", {.start = 1.0, .fixed = true});
  explicit AssertedTank(std::string name) : Component(std::move(name)) {
    equation(der(level) == -1.0);
    assertion(level > low, "the level must stay above low");
  }
};

}  // namespace

TEST_CASE("An assertion ends the run at the instant its condition stops holding, naming the component", "[hybrid]") {
  Model m("drain");
  auto& tank = m.add<AssertedTank>("tank");
  Simulator sim = m.compile();
  try {
    sim.simulate({.t_end = 2.0});
    FAIL("the run went past the assertion");
  } catch (const SimulationError& error) {
    const std::string message = error.what();
    INFO(message);
    CHECK(message.find("tank") != std::string::npos);
    CHECK(message.find("the level must stay above low") != std::string::npos);
    // The crossing is located by the event machinery, not stepped over.
    CHECK(error.time_reached() == Approx(0.75).margin(1e-8));
    CHECK(error.partial_result().size() > 0);
  }
  // Held the whole run: the run is unaffected.
  tank.set_parameter("low", -5.0);
  const Result r = m.compile().simulate({.t_end = 2.0});
  CHECK(r["tank.level"].back() == Approx(-1.0).margin(1e-9));
  // Violated at the start: refused before the first step.
  tank.set_parameter("low", 2.0);
  try {
    m.compile().simulate({.t_end = 2.0});
    FAIL("a run that starts outside its assertion went ahead");
  } catch (const SimulationError& error) {
    CHECK(error.time_reached() == 0.0);
    CHECK(std::string(error.what()).find("the level must stay above low") != std::string::npos);
  }
}

namespace {

// m·x'' + c·x' + k·x = level·F, with a monitor sampled every 10 ms that only
// the hybrid part reads (the largest |x| seen at the samples) and, when
// `steps`, a force level raised by one every 0.1 s from 0.05 s.
struct MonitoredOscillator : Component {
  Parameter mass = parameter("m", 1.0, {.unit = "kg"}), c = parameter("c", 0.4, {.unit = "N.s/m"});
  Parameter k = parameter("k", 40.0, {.unit = "N/m"}), F = parameter("F", 2.0, {.unit = "N"});
  Variable x = variable("x", {.unit = "m", .start = 1.0, .fixed = true});
  Variable v = variable("v", {.unit = "m/s", .start = 0.0, .fixed = true});
  Discrete peak = discrete("peak", {.unit = "m"}), level = discrete("level");
  MonitoredOscillator(std::string name, bool steps) : Component(std::move(name)) {
    when(sample(0.0, 0.01), {peak == max(pre(peak), abs(x))});
    if (steps)
      when(sample(0.05, 0.1), {level == pre(level) + 1.0});
    else
      equation(level == 0.0);
    equation(der(x) == v);
    equation(mass * der(v) == -k * x - c * v + level * F);
  }
};

}  // namespace

TEST_CASE("Sample ticks that change nothing the continuous equations read do not restart the integrator",
          "[hybrid][quiet_events]") {
  SimulationOptions o = test::run_for(1.0, 0.01, 1e-10);
  o.atol = 1e-12;
  Model quiet("quiet");
  quiet.add<MonitoredOscillator>("osc", ParameterValues{}, false);
  Result r = quiet.compile().simulate(o);
  // Every tick is an event (its row is recorded), none restarts IDA.
  CHECK(r.event_times().size() >= 101);  // the ticks at 0, 0.01, ..., 1 (and the start)
  CHECK(r.statistics().reinitializations == 0);
  // Closed form of the free damped oscillator from x = 1 at rest.
  const double wn = std::sqrt(40.0), zeta = 0.4 / (2 * wn), wd = wn * std::sqrt(1 - zeta * zeta);
  auto exact = [&](double t) { return std::exp(-zeta * wn * t) * (std::cos(wd * t) + zeta * wn / wd * std::sin(wd * t)); };
  double worst = 0.0, peak = 0.0;
  const auto x = r["osc.x"];
  for (std::size_t i = 0; i < r.size(); ++i) worst = std::max(worst, std::fabs(x[i] - exact(r.time()[i])));
  for (int tick = 0; tick <= 100; ++tick) peak = std::max(peak, std::fabs(exact(0.01 * tick)));
  CHECK(worst < 1e-8);
  CHECK(r["osc.peak"].back() == Approx(peak).margin(1e-8));

  // Ticks that move the force restart it; the monitor's still do not, and the
  // trajectory is the one without the monitor.
  Model stepped("stepped");
  stepped.add<MonitoredOscillator>("osc", ParameterValues{}, true);
  Result s = stepped.compile().simulate(o);
  CHECK(s.statistics().reinitializations == 10);
  CHECK(s["osc.level"].back() == 10.0);
  struct Unmonitored : Component {
    Variable x = variable("x", {.unit = "m", .start = 1.0, .fixed = true});
    Variable v = variable("v", {.unit = "m/s", .start = 0.0, .fixed = true});
    Discrete level = discrete("level");
    explicit Unmonitored(std::string name) : Component(std::move(name)) {
      when(sample(0.05, 0.1), {level == pre(level) + 1.0});
      equation(der(x) == v);
      equation(der(v) == -40.0 * x - 0.4 * v + level * 2.0);
    }
  };
  Model plain("plain");
  plain.add<Unmonitored>("osc");
  Result p = plain.compile().simulate(o);
  // Rows at the same instants (events have two: the later is the right limit).
  const auto xs = s["osc.x"], xp = p["osc.x"];
  double apart = 0.0;
  std::size_t compared = 0;
  for (std::size_t i = 0, j = 0; i < p.size(); ++i) {
    while (j + 1 < s.size() && s.time()[j + 1] <= p.time()[i] + 1e-12) ++j;
    if (std::fabs(s.time()[j] - p.time()[i]) > 1e-12) continue;
    apart = std::max(apart, std::fabs(xs[j] - xp[i]));
    ++compared;
  }
  CHECK(compared >= 100);
  CHECK(apart < 1e-8);
}

}  // namespace test_hybrid
