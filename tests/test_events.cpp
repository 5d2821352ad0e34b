// Time events hit exactly, state events located by root finding, both sides recorded.
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>

#include <cmath>

#include "examples/rolling_wheel_model.hpp"
#include "support.hpp"

namespace test_events {

using namespace acausal;

TEST_CASE("torque step through an ideal rolling wheel against quadratic drag: v = 5 tanh(t - 0.1)", "[events]") {
  Model m("rolling_wheel");
  examples::build_rolling_wheel(m);
  Simulator sim = m.compile();
  INFO(sim.report().str());
  CHECK(sim.report().count("events", "time_events") == 1);
  SimulationOptions opt;
  opt.t_end = 5.0;
  opt.output_interval = 1e-3;
  opt.rtol = 1e-9;
  opt.atol = 1e-11;
  Result r = sim.simulate(opt);
  REQUIRE(r.event_times().size() == 1);
  CHECK(r.event_times()[0] == 0.1);  // exactly: the solver stops there
  auto v = r["mass.v"];
  double worst = 0;
  for (std::size_t k = 0; k < r.size(); ++k) {
    double t = r.time()[k];
    if (t < 0.1 || (t == 0.1 && k + 1 < r.size() && r.time()[k + 1] == 0.1)) {
      CHECK(v[k] == 0.0);  // exactly at rest before the step (and at its left limit)
    } else {
      worst = std::max(worst, std::fabs(v[k] - 5.0 * std::tanh(t - 0.1)));
    }
  }
  CHECK(worst < 1e-5);
  // Both sides of the event are in the output.
  auto tau = r["torqueStep.tau"];
  std::size_t at = 0;
  while (r.time()[at] < 0.1) ++at;
  CHECK(tau[at] == 0.0);
  CHECK(r.time()[at + 1] == 0.1);
  CHECK(tau[at + 1] == 10.0);
}

namespace {
// A spring-damper that pushes only while the body is below the ground (s < 0).
struct Ground : Component {
  translational::Flange flange{*this, "flange"};
  Parameter c = parameter("c", 1e5, {.unit = "N/m", .min = 0});
  Parameter d = parameter("d", 50.0, {.unit = "N.s/m", .min = 0});
  Variable f = variable("f", {.unit = "N"});
  explicit Ground(std::string name) : Component(std::move(name)) {
    Expr s = flange.s;
    equation(f == ifelse(s < 0.0, -c * s - d * der(flange.s), 0.0));  // f pushes the body up
    equation(flange.f == -f);
  }
};
}  // namespace

TEST_CASE("a falling mass meets a contact spring at the closed-form time (state event)", "[events]") {
  const double g = 9.81, h = 1.0, mass_kg = 2.0;
  Model m("drop");
  auto& body = m.add<translational::Mass>("body", {{"m", mass_kg}});
  auto& weight = m.add<blocks::Constant>("weight", {{"k", -mass_kg * g}});
  auto& force = m.add<translational::Force>("gravity");
  auto& ground = m.add<Ground>("ground");
  m.connect(weight.y, force.f);
  m.connect(force.flange, body.flange_a);
  m.connect(body.flange_b, ground.flange);
  m.set_start("body.s", h);
  m.set_start("body.v", 0.0);
  Simulator sim = m.compile();
  CHECK(sim.report().count("events", "state_events") == 1);
  SimulationOptions opt;
  opt.t_end = 0.6;
  opt.output_interval = 0.01;
  opt.rtol = 1e-10;
  opt.atol = 1e-12;
  Result r = sim.simulate(opt);
  REQUIRE(r.event_times().size() >= 2);  // touch down, lift off
  const double t_contact = std::sqrt(2 * h / g);
  CHECK(std::fabs(r.event_times()[0] - t_contact) < 1e-6);
  CHECK(r.event_times()[1] > t_contact);
  CHECK(r.event_times()[1] < t_contact + 0.05);  // a stiff contact is brief
  // During contact the ground pushes up; it bounces back, losing energy in the damper.
  auto s = r["body.s"], v = r["body.v"], f = r["ground.f"];
  double deepest = 0, peak_force = 0;
  for (std::size_t k = 0; k < r.size(); ++k) {
    deepest = std::min(deepest, s[k]);
    peak_force = std::max(peak_force, f[k]);
    if (r.time()[k] < t_contact) CHECK(f[k] == 0.0);
  }
  CHECK(deepest < 0.0);
  CHECK(deepest > -0.05);
  CHECK(peak_force > mass_kg * g);
  CHECK(v.back() < std::sqrt(2 * g * h));
  CHECK(s.back() > 0.0);
}

TEST_CASE("a strict relation on time switches at its instant: time > 0.5 is true after 0.5", "[events]") {
  // Read at t = 0.5 itself, `time > 0.5` is false; it was kept false for the
  // rest of the run (no later event read it again), a silent wrong answer.
  Model m("strict_time");
  auto& clock = m.add<blocks::Integrator>("clock");
  auto& one = m.add<blocks::Constant>("one", {{"k", 1.0}});
  m.connect(one.y, clock.u);
  struct Strict : Component {
    Variable above = variable("above"), at_most = variable("at_most");
    explicit Strict(std::string name) : Component(std::move(name)) {
      equation(above == ifelse(time_symbol() > 0.5, 1.0, 0.0));
      equation(at_most == ifelse(time_symbol() <= 0.5, 1.0, 0.0));
    }
  };
  m.add<Strict>("strict");
  Result r = m.compile().simulate(test::run_for(1.0, 0.1));
  auto above = r["strict.above"], at_most = r["strict.at_most"];
  for (std::size_t k = 0; k < r.size(); ++k) {
    const double t = r.time()[k];
    INFO("t = " << t);
    if (t < 0.5 - 1e-9) CHECK((above[k] == 0.0 && at_most[k] == 1.0));
    if (t > 0.5 + 1e-9) CHECK((above[k] == 1.0 && at_most[k] == 0.0));
  }
  CHECK(r["strict.above"][r.size() - 1] == 1.0);
}

TEST_CASE("a time relation stays a time event when its node is also read under no_event", "[events]") {
  // Nodes are shared by content: the Step's `time < startTime` sat both in
  // its output and, through alias elimination, under a no_event() elsewhere.
  // It was left without a mode everywhere, so the integrator stepped across
  // the step (issue 31: the sine with dwell's corners were missed).
  Model m("quiet_time_relation");
  auto& step = m.add<blocks::Step>("step", {{"height", 1.0}, {"startTime", 0.3}});
  struct Reader : Component {
    RealInput u{*this, "u"};
    Variable x = variable("x", {.start = 0.0, .fixed = true});
    Variable quiet = variable("quiet");
    explicit Reader(std::string name) : Component(std::move(name)) {
      equation(der(x) == u);
      equation(quiet == no_event(abs(u - 0.25)));
    }
  };
  auto& reader = m.add<Reader>("reader");
  m.connect(step.y, reader.u);
  Simulator sim = m.compile();
  INFO(sim.report().str());
  CHECK(sim.report().count("events", "time_events") == 1);
  Result r = sim.simulate(test::run_for(1.0, 0.1));
  REQUIRE(r.event_times().size() == 1);
  CHECK(r.event_times()[0] == 0.3);
  // x = max(t - 0.3, 0): exact once the solver stops at the step (rtol 1e-6 otherwise smears it).
  CHECK(r["reader.x"].back() == Approx(0.7).epsilon(1e-9));
}

namespace {
// A signal that steps at x = 0.5 (x = time, integrated), written with events.
struct Stepper : Component {
  RealOutput y{*this, "y"};
  Variable x = variable("x");
  explicit Stepper(std::string name) : Component(std::move(name)) {
    equation(der(x) == 1.0);
    initial_equation(x == 0.0);
    equation(y == ifelse(x > 0.5, 1.0, 0.0));
  }
};
// Reads its input only inside no_event(): a clamp integrated, and a flag
// computed at events, as a pedal map and a brake's "free" test do.
struct QuietReader : Component {
  RealInput u{*this, "u"};
  Variable s = variable("s");
  Discrete pressed = discrete("pressed", {.kind = DiscreteKind::boolean});
  explicit QuietReader(std::string name) : Component(std::move(name)) {
    equation(der(s) == no_event(min(max(u, 0.0), 1.0)));
    initial_equation(s == 0.0);
    equation(pressed == no_event(u > 0.25));
  }
};
}  // namespace

// no_event() quiets the relations written in it, not those of the equations
// that define what it reads: once the compiler substituted the stepper's
// definition into the reader (its discrete equation is evaluated on the
// definitions), the stepper's own relation lost its event, the integrator
// met the step unannounced, and a battery-electric car's WLTC run died where
// its driver's standing brake came on (IDA_TOO_MUCH_WORK at 98.48 s).
TEST_CASE("a relation read through another component's no_event() keeps its event", "[events]") {
  Model m("quiet_reader");
  auto& stepper = m.add<Stepper>("stepper");
  auto& reader = m.add<QuietReader>("reader");
  m.connect(stepper.y, reader.u);
  SimulationOptions opt;
  opt.t_end = 1.0;
  opt.output_interval = 0.1;
  Result r = m.compile().simulate(opt);
  REQUIRE(r.event_times().size() == 1);
  CHECK(r.event_times()[0] == Approx(0.5).margin(1e-9));
  // s = ∫ y dt = t - 0.5 past the step: exact to the root's location.
  CHECK(r["reader.s"].back() == Approx(0.5).margin(1e-8));
  CHECK(r["reader.pressed"].back() == 1.0);
}

}  // namespace test_events
