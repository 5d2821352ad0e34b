// Step-by-step simulation (Session): advancing in communication steps, a
// controller in C++ against the same controller in the model, save/restore and
// reset bit for bit, real-time pacing, events inside a step, and the errors.
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>

#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "tests/support.hpp"

namespace test_session {

using namespace acausal;
using Catch::Matchers::Contains;

namespace {

using test::BouncingBall;
constexpr double g = test::gravity;

// A PI speed controller sampled every `period`, its output held in between
// (zero-order hold): the in-model twin of the C++ controller of the tests.
struct SampledSpeedPI : Component {
  RealInput w{*this, "w"};
  RealOutput y{*this, "y"};
  Parameter kp = parameter("kp", 5.0), ki = parameter("ki", 50.0), period = parameter("period", 1e-3, {.unit = "s"});
  Parameter reference = parameter("reference", 10.0, {.unit = "rad/s"});
  Discrete u = discrete("u"), integral = discrete("integral");
  explicit SampledSpeedPI(std::string name) : Component(std::move(name)) {
    const Expr error = reference - w;
    when(sample(0.0, period),
         {integral == pre(integral) + error * period, u == kp * error + ki * (pre(integral) + error * period)});
    equation(y == u);
  }
};

// A drive: a torque step at 0.1 s on an inertia, a spring-damper to a second
// inertia, whose brake is applied at 0.6 s and holds it (stuck mode, a state event).
Simulator drive() {
  Model m("drive");
  auto& torque = m.add<rotational::TorqueStep>("torque", {{"stepTorque", 10.0}, {"startTime", 0.1}});
  auto& j1 = m.add<rotational::Inertia>("j1", {{"J", 1.0}});
  auto& spring = m.add<rotational::SpringDamper>("spring", {{"c", 100.0}, {"d", 2.0}});
  auto& j2 = m.add<rotational::Inertia>("j2", {{"J", 0.5}});
  auto& brake = m.add<rotational::Brake>("brake", {{"fn_max", 50.0}});
  auto& press = m.add<blocks::Step>("press", {{"startTime", 0.6}});
  m.connect(torque.flange, j1.flange_a);
  m.connect(j1.flange_b, spring.flange_a);
  m.connect(spring.flange_b, j2.flange_a);
  m.connect(j2.flange_b, brake.flange_a);
  m.connect(press.y, brake.f_normalized);
  for (const char* j : {"j1", "j2"}) {
    m.set_start(std::string(j) + ".phi", 0.0);
    m.set_start(std::string(j) + ".w", 0.0);
  }
  return m.compile();
}

Simulator ball(double e = 0.8) {
  Model m("ball");
  m.add<BouncingBall>("ball", {{"e", e}});
  return m.compile();
}

// A first-order lag driven by a sine, and its output 0.25 s later.
Simulator delayed_lag() {
  Model m("delayed_lag");
  auto& sine = m.add<blocks::Sine>("sine", {{"amplitude", 1.0}, {"f", 1.0}});
  auto& lag = m.add<blocks::FirstOrder>("lag", {{"k", 1.0}, {"T", 0.2}});
  auto& delayed = m.add<blocks::DeadTime>("delayed", {{"dead_time", 0.25}});
  m.connect(sine.y, lag.u);
  m.connect(lag.y, delayed.u);
  return m.compile();
}

// An inertia with viscous friction, driven by a motor torque and loaded by a
// torque step at 0.2 s; the motor's torque comes from blocks.Constant "u" (set
// from C++) or from the sampled PI in the model.
Simulator speed_loop(bool controller_in_model) {
  Model m(controller_in_model ? "speed_loop_in_model" : "speed_loop_in_cpp");
  auto& motor = m.add<rotational::Torque>("motor");
  auto& inertia = m.add<rotational::Inertia>("inertia", {{"J", 0.5}});
  auto& friction = m.add<rotational::Damper>("friction", {{"d", 0.2}});
  auto& ground = m.add<rotational::Fixed>("ground");
  auto& load = m.add<rotational::TorqueStep>("load", {{"stepTorque", -3.0}, {"startTime", 0.2}});
  m.connect(motor.flange, inertia.flange_a);
  m.connect(inertia.flange_b, friction.flange_a);
  m.connect(friction.flange_b, ground.flange);
  m.connect(load.flange, inertia.flange_b);
  if (controller_in_model) {
    auto& sensor = m.add<rotational::SpeedSensor>("sensor");
    auto& pi = m.add<SampledSpeedPI>("pi");
    m.connect(inertia.flange_b, sensor.flange);
    m.connect(sensor.w, pi.w);
    m.connect(pi.y, motor.tau);
  } else {
    auto& u = m.add<blocks::Constant>("u", {{"k", 0.0}});
    m.connect(u.y, motor.tau);
  }
  m.set_start("inertia.phi", 0.0);
  m.set_start("inertia.w", 0.0);
  return m.compile();
}

SimulationOptions tight(double t_end, double dt) {
  SimulationOptions o = test::run_for(t_end, dt, 1e-10);
  o.atol = 1e-12;
  return o;
}

// The row of `r` at time t (the last one there: an event's right limit).
std::size_t row_at(const Result& r, double t) {
  std::size_t found = r.size();
  for (std::size_t k = 0; k < r.size(); ++k)
    if (std::fabs(r.time()[k] - t) <= 1e-12 * (1 + std::fabs(t))) found = k;
  REQUIRE(found < r.size());
  return found;
}

// Rows from `first` on, every variable, as bit patterns.
std::vector<std::vector<std::uint64_t>> bits(const Result& r, std::size_t first = 0) {
  std::vector<std::vector<std::uint64_t>> out;
  const auto columns = r.columns(r.names());
  for (std::size_t k = first; k < r.size(); ++k) {
    auto& row = out.emplace_back();
    row.push_back(std::bit_cast<std::uint64_t>(r.time()[k]));
    for (const auto& column : columns) row.push_back(std::bit_cast<std::uint64_t>(column[k]));
  }
  return out;
}

}  // namespace

TEST_CASE("Advancing in 1 ms steps follows one simulate() to 1e-8 at the communication points", "[session]") {
  Simulator sim = drive();
  const double h = 1e-3, t_end = 1.5;
  // The session has its output grid (0.01) and a row at every communication
  // point; the reference, the same options with a row at each of those points.
  // The session's integrator stops at each point, the reference's interpolates
  // there: the two agree to the integration error, which the spring's stiffness
  // amplifies (3e-7 N.m in spring.tau at rtol = 1e-10, 3e-9 at 1e-12).
  SimulationOptions options = test::run_for(t_end, 0.01, 1e-12);
  options.atol = 1e-14;
  SimulationOptions every_point = options;
  for (int k = 1; k * h <= t_end + 1e-12; ++k) every_point.output_times.push_back(k * h);
  const Result reference = sim.simulate(every_point);
  Session session = sim.start(options);
  CHECK(session.time() == 0.0);
  REQUIRE(session.result().size() == 1);
  double worst = 0;
  for (int k = 1; k * h <= t_end + 1e-12; ++k) {
    session.advance(k * h);
    REQUIRE(session.time() == k * h);
    const std::size_t row = row_at(reference, k * h);
    for (const char* name : {"j1.w", "j2.w", "j1.phi", "spring.tau", "brake.tau"})
      worst = std::max(worst, std::fabs(session.get(name) - reference[name][row]));
  }
  CHECK(worst < 1e-8);
  // The same events, with the rows of both sides.
  const Result& r = session.result();
  REQUIRE(r.event_times().size() == reference.event_times().size());
  for (std::size_t k = 0; k < r.event_times().size(); ++k) {
    CHECK(r.event_times()[k] == Approx(reference.event_times()[k]).margin(1e-10));
    CHECK(r.event_causes()[k] == reference.event_causes()[k]);
  }
  // Rows: the initial one, one per communication point (the 0.01 grid is on
  // them), two per event (a time event on a communication point has its two
  // rows there); times never decrease.
  std::size_t expected = 1 + 1500;
  for (double te : r.event_times()) expected += std::fabs(te / h - std::round(te / h)) < 1e-9 ? 1 : 2;
  CHECK(r.size() == expected);
  for (std::size_t k = 1; k < r.size(); ++k) CHECK(r.time()[k] >= r.time()[k - 1]);
  CHECK(r.statistics().steps > 0);
}

TEST_CASE("Events inside a step: a bouncing ball advanced in 0.1 s steps bounces when simulate() says", "[session]") {
  Simulator sim = ball();
  const SimulationOptions options = tight(3.5, 0.01);
  const Result reference = sim.simulate(options);
  Session session = sim.start(options);
  for (int k = 1; k <= 35; ++k) session.advance(k * 0.1);
  const Result& r = session.result();
  REQUIRE(reference.event_times().size() >= 8);
  REQUIRE(r.event_times().size() == reference.event_times().size());
  for (std::size_t k = 0; k < r.event_times().size(); ++k) {
    INFO("bounce " << k);
    CHECK(r.event_times()[k] == Approx(reference.event_times()[k]).margin(1e-10));
  }
  CHECK(session.get("ball.bounces") == reference["ball.bounces"].back());
  CHECK(session.get("ball.h") == Approx(reference["ball.h"].back()).margin(1e-8));
}

TEST_CASE("A PI controller in C++ through get() and set_parameter() equals the sampled PI in the model",
          "[session][hybrid]") {
  const double h = 1e-3, kp = 5.0, ki = 50.0, reference_speed = 10.0, t_end = 1.0;
  const Result in_model = speed_loop(true).simulate(tight(t_end, h));
  Session session = speed_loop(false).start(tight(t_end, h));
  double integral = 0, worst_w = 0, worst_u = 0;
  std::vector<double> torques;
  const auto w_model = in_model["inertia.w"], u_model = in_model["pi.y"];
  for (int k = 0; k * h < t_end - 1e-12; ++k) {
    REQUIRE(session.time() == Approx(k * h).margin(1e-15));
    const double w = session.get("inertia.w");
    const double error = reference_speed - w;
    integral += error * h;
    const double u = kp * error + ki * integral;
    session.set_parameter("u.k", u);
    torques.push_back(u);
    CHECK(session.get("motor.tau") == u);
    // The model's sample at the same instant: its right-limit row holds u.
    const std::size_t row = row_at(in_model, k * h);
    worst_w = std::max(worst_w, std::fabs(w - w_model[row]));
    worst_u = std::max(worst_u, std::fabs(u - u_model[row]));
    session.advance((k + 1) * h);
  }
  INFO("worst speed difference " << worst_w << ", worst torque difference " << worst_u);
  CHECK(worst_w < 1e-8);
  CHECK(worst_u < 1e-8);
  CHECK(std::fabs(session.get("inertia.w") - reference_speed) < 0.1);  // it does control
  // Each row is read with the torque it was computed with: the left limit of a
  // change with the old value, the right limit with the new one.
  const Result& r = session.result();
  const auto tau = r["motor.tau"];
  for (std::size_t k = 1; k < torques.size(); ++k) {
    const std::size_t right = row_at(r, k * h);
    REQUIRE(r.time()[right - 1] == r.time()[right]);
    CHECK(tau[right - 1] == torques[k - 1]);
    CHECK(tau[right] == torques[k]);
  }
  CHECK(tau.front() == 0.0);
  CHECK(tau.back() == torques.back());
  // One event per change; the load step at 0.2 s and the change there are one.
  REQUIRE(r.event_times().size() == torques.size());
  CHECK_THAT(r.event_causes()[1], Contains("set_parameter(u.k = "));
  CHECK_THAT(r.event_causes()[200], Contains("load.startTime") && Contains("set_parameter(u.k = "));
}

TEST_CASE("set_parameter moves a time event and re-reads relations from time() on", "[session]") {
  Simulator sim = drive();
  Session session = sim.start(tight(1.0, 0.01));
  session.advance(0.05);
  session.set_parameter("torque.startTime", 0.3);  // the step moves later
  session.advance(0.2);
  CHECK(session.get("torque.tau") == 0.0);
  session.advance(0.35);
  CHECK(session.get("torque.tau") == 10.0);
  // The step's events: none at 0.1 any more, one at 0.3 (j2 then starts to turn: a state event).
  const auto& events = session.result().event_times();
  REQUIRE(events.size() >= 2);
  CHECK(events[0] == 0.05);
  CHECK(events[1] == Approx(0.3).margin(1e-12));
  // A start time already passed switches the step at once, at time().
  session.set_parameter("torque.startTime", 0.5);
  CHECK(session.get("torque.tau") == 0.0);
  CHECK(session.get("torque.startTime") == 0.5);
  session.set_parameter("torque.startTime", 0.1);
  CHECK(session.get("torque.tau") == 10.0);
  // Two changes at one instant are one event with both causes.
  const Result& r = session.result();
  CHECK(r.event_times().back() == Approx(0.35).margin(1e-12));
  CHECK_THAT(r.event_causes().back(), Contains("torque.startTime = 0.5") && Contains("torque.startTime = 0.1"));
  // parameters() are those the run started with; each row reads its own.
  for (const auto& p : r.parameters())
    if (p.name == "torque.startTime") CHECK(p.value == 0.1);
  const auto tau = r["torque.tau"];
  CHECK(tau[row_at(r, 0.2)] == 0.0);  // read with startTime = 0.3
  CHECK(tau.back() == 10.0);
}

TEST_CASE("state() and set_state(): the continuation from a saved state is the same bit for bit", "[session]") {
  struct Case {
    std::string name;
    Simulator sim;
    SimulationOptions options;
    double t1, t2, step;
  };
  std::vector<Case> cases;
  cases.push_back({"drive (friction, time and state events)", drive(), tight(1.5, 0.01), 0.55, 1.2, 0.05});
  cases.push_back({"bouncing ball (when, reinit)", ball(), tight(3.0, 0.01), 0.5, 2.5, 0.1});
  cases.push_back({"sampled PI (sample, discretes)", speed_loop(true), tight(0.3, 0.002), 0.1, 0.25, 0.01});
  cases.push_back({"delay of a solved signal", delayed_lag(), test::run_for(3.0, 0.01, 1e-8), 1.05, 2.5, 0.1});
  for (Case& c : cases) {
    INFO(c.name);
    Session session = c.sim.start(c.options);
    for (double t = c.step; t < c.t1 - 1e-12; t += c.step) session.advance(t);
    session.advance(c.t1);
    const std::size_t saved_row = session.result().size() - 1;
    const SessionState saved = session.state();
    CHECK(saved.time == c.t1);
    auto continue_to_t2 = [&](Session& s) {
      for (double t = c.t1 + c.step; t < c.t2 - 1e-12; t += c.step) s.advance(t);
      s.advance(c.t2);
    };
    continue_to_t2(session);
    const auto first = bits(session.result(), saved_row);
    const double end_value = session.get(session.result().names().front());
    session.set_state(saved);
    CHECK(session.time() == c.t1);
    REQUIRE(session.result().size() == 1);  // the result begins again at the saved point
    continue_to_t2(session);
    const auto second = bits(session.result());
    REQUIRE(second.size() == first.size());
    CHECK(second == first);
    CHECK(session.get(session.result().names().front()) == end_value);
    // Into another session of the same simulator: the same continuation.
    Session other = c.sim.start(c.options);
    other.set_state(saved);
    continue_to_t2(other);
    CHECK(bits(other.result()) == first);
  }
}

TEST_CASE("set_state() after set_parameter() restores the parameters and the rows they read", "[session]") {
  Session session = speed_loop(false).start(tight(0.2, 0.01));
  session.set_parameter("u.k", 1.0);
  session.advance(0.05);
  const std::size_t saved_row = session.result().size() - 1;
  const SessionState saved = session.state();
  session.advance(0.1);
  session.set_parameter("u.k", -2.0);
  session.advance(0.15);
  const auto first = bits(session.result(), saved_row);
  session.set_state(saved);
  CHECK(session.get("u.k") == 1.0);
  session.advance(0.1);
  session.set_parameter("u.k", -2.0);
  session.advance(0.15);
  CHECK(bits(session.result()) == first);
}

TEST_CASE("reset() goes back to the start: the same rows again, the parameters start() had", "[session]") {
  Simulator sim = speed_loop(false);
  Session session = sim.start(tight(0.3, 0.01));
  auto drive_it = [&] {
    for (int k = 1; k <= 30; ++k) {
      if (k % 10 == 0) session.set_parameter("u.k", 0.1 * k);
      session.advance(k * 0.01);
    }
  };
  drive_it();
  const auto first = bits(session.result());
  const SolverStatistics first_statistics = session.result().statistics();
  session.reset();
  CHECK(session.time() == 0.0);
  CHECK(session.result().size() == 1);
  CHECK(session.get("u.k") == 0.0);
  CHECK(session.get("inertia.w") == 0.0);
  drive_it();
  CHECK(bits(session.result()) == first);
  CHECK(session.result().statistics().steps == first_statistics.steps);
  // simulate() with the same options gives the rows of a session without changes.
  Session plain = sim.start(tight(0.3, 0.01));
  plain.advance(0.3);
  CHECK(bits(plain.result()) == bits(sim.simulate(tight(0.3, 0.01))));
}

TEST_CASE("A Session moves, and a moved-from one says so", "[session]") {
  Simulator sim = ball();
  Session a = sim.start(tight(1.0, 0.01));
  a.advance(0.5);
  Session b = std::move(a);
  CHECK(b.time() == 0.5);
  b.advance(0.6);
  CHECK_THROWS_WITH(a.advance(0.7), Contains("moved from"));  // NOLINT(bugprone-use-after-move)
  a = sim.start(tight(1.0, 0.01));
  CHECK(a.time() == 0.0);
}

TEST_CASE("realtime_factor = 1: a 2 s run advanced in 10 ms steps takes 2 s of wall time", "[session][realtime]") {
  SimulationOptions options = tight(2.0, 0.01);
  options.realtime_factor = 1.0;
  Session session = ball().start(options);
  const auto started = std::chrono::steady_clock::now();
  for (int k = 1; k <= 200; ++k) {
    session.advance(k * 0.01);
    // Never ahead of the wall clock.
    CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() >= k * 0.01 - 0.005);
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  CHECK(std::fabs(wall - 2.0) <= 0.05 * 2.0);
}

TEST_CASE("realtime_factor must be finite and at least 0", "[session][errors]") {
  Simulator sim = ball();
  for (double bad : {-1.0, std::numeric_limits<double>::infinity(), std::nan("")}) {
    SimulationOptions options;
    options.realtime_factor = bad;
    CHECK_THROWS_WITH(sim.start(options), Contains("realtime_factor"));
    CHECK_THROWS_WITH(sim.simulate(options), Contains("realtime_factor"));
  }
}

TEST_CASE("Session errors name what is wrong", "[session][errors]") {
  Simulator sim = drive();
  Session session = sim.start(tight(1.0, 0.01));
  session.advance(0.2);
  SECTION("advance() must go forward, not past t_end") {
    CHECK_THROWS_AS(session.advance(0.2), ModelError);
    CHECK_THROWS_WITH(session.advance(0.1), Contains("advance(0.1)") && Contains("time() = 0.2"));
    CHECK_THROWS_WITH(session.advance(1.5), Contains("advance(1.5)") && Contains("t_end = 1"));
    CHECK_THROWS_WITH(session.advance(std::nan("")), Contains("advance("));
    CHECK(session.time() == 0.2);
    session.advance(1.0);
    CHECK_THROWS_WITH(session.advance(1.0 + 1e-9), Contains("t_end"));
  }
  SECTION("get() of an unknown name suggests close ones") {
    try {
      session.get("j1.ww");
      FAIL("no error");
    } catch (const UnknownNameError& error) {
      CHECK_THAT(error.what(), Contains("j1.ww") && Contains("drive"));
      CHECK(std::find(error.suggestions().begin(), error.suggestions().end(), "j1.w") != error.suggestions().end());
    }
    CHECK(session.get("j1.J") == 1.0);                                      // a parameter
    CHECK(session.get("torque.flange.tau") == -session.get("torque.tau"));  // an alias
    CHECK(session.get("torque.tau") == 10.0);                               // observed
  }
  SECTION("set_parameter() refuses unknown, structural and out-of-bounds parameters, and delay times") {
    const std::size_t events = session.result().event_times().size();
    CHECK_THROWS_AS(session.set_parameter("j1.JJ", 1.0), UnknownNameError);
    CHECK_THROWS_WITH(session.set_parameter("j1.JJ", 1.0), Contains("j1.JJ") && Contains("j1.J"));
    CHECK_THROWS_WITH(session.set_parameter("brake.unit_force", 2.0),
                      Contains("brake.unit_force") && Contains("structural"));
    CHECK_THROWS_WITH(session.set_parameter("j1.J", -1.0), Contains("j1.J") && Contains("out of bounds"));
    CHECK_THROWS_WITH(session.set_parameter("j1.J", std::nan("")), Contains("j1.J") && Contains("finite"));
    CHECK(session.get("j1.J") == 1.0);
    CHECK(session.result().event_times().size() == events);  // a refused change is no event
    Session lag = delayed_lag().start();
    CHECK_THROWS_WITH(lag.set_parameter("delayed.dead_time", 0.5),
                      Contains("delayed.dead_time") && Contains("delay time"));
    lag.set_parameter("lag.T", 0.3);  // what the delayed signal reads may change
    lag.advance(0.5);
  }
  SECTION("set_state() refuses a state of another model or start") {
    Session other = ball().start(tight(1.0, 0.01));
    CHECK_THROWS_WITH(session.set_state(other.state()), Contains("'ball'") && Contains("'drive'"));
    SimulationOptions later = tight(1.0, 0.01);
    later.t_start = 0.1;
    Session late = sim.start(later);
    CHECK_THROWS_WITH(session.set_state(late.state()), Contains("t_start = 0.1"));
  }
}

TEST_CASE("A SimulationError inside advance() keeps the partial result, reset() goes on", "[session][errors]") {
  Simulator sim = ball(0.3);  // bounces ever faster: Zeno at about 0.84 s
  Session session = sim.start(test::run_for(3.0, 0.01));
  session.advance(0.5);
  try {
    session.advance(2.0);
    FAIL("the run went past the accumulation point");
  } catch (const SimulationError& error) {
    CHECK_THAT(error.what(), Contains("Zeno") && Contains("session(ball)"));
    CHECK(error.time_reached() == Approx(0.8385).margin(1e-3));
    CHECK(error.partial_result().size() == session.result().size());
    CHECK(error.partial_result().time().back() == session.result().time().back());
    CHECK(session.result().time().back() > 0.8);
  }
  CHECK_THROWS_WITH(session.advance(2.5), Contains("failed") && Contains("reset()"));
  CHECK_THROWS_WITH(session.state(), Contains("failed"));
  session.reset();
  session.advance(0.5);
  CHECK(session.get("ball.bounces") == 1.0);
}

TEST_CASE("A model without unknowns advances, changes parameters and restores too", "[session]") {
  Model m("signals");
  auto& sine = m.add<blocks::Sine>("sine", {{"amplitude", 2.0}, {"f", 1.5}});
  auto& late = m.add<blocks::FixedDelay>("late", {{"delayTime", 0.3}});
  m.connect(sine.y, late.u);
  Simulator sim = m.compile();
  const double pi = 3.14159265358979323846;
  Session session = sim.start(test::run_for(1.0, 0.1));
  REQUIRE(session.result().statistics().unknowns == 0);
  session.advance(0.25);
  CHECK(session.get("sine.y") == Approx(2 * std::sin(2 * pi * 1.5 * 0.25)).margin(1e-12));
  session.set_parameter("sine.amplitude", 3.0);
  CHECK(session.get("sine.y") == Approx(3 * std::sin(2 * pi * 1.5 * 0.25)).margin(1e-12));
  const std::size_t saved_row = session.result().size() - 1;
  const SessionState saved = session.state();
  session.advance(0.65);
  // A delay of a function of time reads it at t - T with the values now.
  CHECK(session.get("late.y") == Approx(3 * std::sin(2 * pi * 1.5 * 0.35)).margin(1e-12));
  const Result& r = session.result();
  REQUIRE(r.event_times().size() == 1);
  const std::size_t right = row_at(r, 0.25);
  CHECK(r["sine.y"][right - 1] == Approx(2 * std::sin(2 * pi * 1.5 * 0.25)).margin(1e-12));
  CHECK(r["sine.y"][right] == Approx(3 * std::sin(2 * pi * 1.5 * 0.25)).margin(1e-12));
  const auto first = bits(r, saved_row);
  session.set_state(saved);
  session.advance(0.65);
  CHECK(bits(session.result()) == first);
}

TEST_CASE("An interrupt stops advance() with SimulationInterrupted, reset() goes on", "[session][errors]") {
  std::atomic<bool> stop{false};
  SimulationOptions options = tight(1.0, 0.01);
  options.interrupt = &stop;
  Session session = drive().start(options);
  session.advance(0.3);
  stop = true;
  CHECK_THROWS_AS(session.advance(0.4), SimulationInterrupted);
  CHECK(session.time() == 0.3);
  stop = false;
  CHECK_THROWS_WITH(session.advance(0.4), Contains("interrupted") && Contains("reset()"));
  session.reset();
  session.advance(0.4);
  CHECK(session.time() == 0.4);
}

TEST_CASE("One session advanced from four threads: the calls take turns and the run stays consistent",
          "[session]") {
  // Issue 30: a Session advanced from 4 Python threads double-freed, crashed
  // or corrupted its state (t = 0.001 s with w = 4 where w = 2t).
  Model m("ramp");
  auto& inertia = m.add<rotational::Inertia>("inertia", {{"J", 0.5}});
  auto& torque = m.add<rotational::ConstantTorque>("torque", {{"tau_constant", 1.0}});
  m.connect(torque.flange, inertia.flange_a);
  m.set_start("inertia.phi", 0.0);
  m.set_start("inertia.w", 0.0);
  SimulationOptions options = test::run_for(4.0, 0.5);
  Session session = m.compile().start(options);
  std::atomic<int> done{0};
  std::atomic<bool> nonfinite{false};
  std::vector<std::thread> threads;
  for (int k = 0; k < 4; ++k)
    threads.emplace_back([&] {
      for (int step = 0; step < 10000 && session.time() < 4.0; ++step) {
        try {
          const double t = session.time();
          session.advance(std::min(4.0, t + 0.01));
        } catch (const ModelError&) {
          // another thread advanced first: this goal was no longer ahead of time()
        }
        if (!std::isfinite(session.get("inertia.w"))) nonfinite = true;  // Catch2 asserts on one thread only
      }
      ++done;
    });
  for (auto& t : threads) t.join();
  CHECK(done == 4);
  CHECK_FALSE(nonfinite);
  const double t = session.time();
  CHECK(t == Approx(4.0));
  CHECK(session.get("inertia.w") == Approx(2.0 * t).epsilon(1e-6));  // τ/J = 2 rad/s²
  const Result& r = session.result();
  auto w = r["inertia.w"];
  for (std::size_t k = 0; k < r.size(); ++k) CHECK(w[k] == Approx(2.0 * r.time()[k]).margin(1e-6));
}

TEST_CASE("A tiny realtime_factor paces instead of overflowing the clock, and an interrupt ends the wait",
          "[session][realtime]") {
  // Issue 30: realtime_factor = 1e-12 overflowed the wall-clock arithmetic
  // and silently disabled pacing: the step returned at once.
  std::atomic<bool> stop{false};
  SimulationOptions options = tight(2.0, 0.01);
  options.realtime_factor = 1e-12;
  options.interrupt = &stop;
  Session session = ball().start(options);
  std::thread interrupter([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    stop = true;
  });
  const auto started = std::chrono::steady_clock::now();
  CHECK_THROWS_AS(session.advance(0.01), SimulationInterrupted);
  const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  interrupter.join();
  CHECK(waited >= 0.25);  // it paced (it waited for the interrupt) ...
  CHECK(waited < 0.5);    // ... and answered the interrupt within a slice
}

TEST_CASE("set_state refuses the state of another compiled model of the same name", "[session][errors]") {
  // Issue 30: a model of the same name with its parts added in another order
  // took the state, and ran with the two parts' values swapped.
  auto build = [](bool spring_first) {
    Model m("pair");
    auto add_spring = [&] { return &m.add<rotational::Spring>("spring", {{"c", 100.0}}); };
    auto add_inertia = [&] { return &m.add<rotational::Inertia>("inertia", {{"J", 2.0}}); };
    rotational::Spring* spring = spring_first ? add_spring() : nullptr;
    rotational::Inertia* inertia = add_inertia();
    if (!spring) spring = add_spring();
    auto& fixed = m.add<rotational::Fixed>("fixed");
    m.connect(fixed.flange, spring->flange_a);
    m.connect(spring->flange_b, inertia->flange_a);
    m.set_start("inertia.phi", 0.1);
    m.set_start("inertia.w", 0.0);
    return m.compile();
  };
  const Simulator a = build(false), b = build(true);
  Session from_a = a.start(test::run_for(1.0, 0.1));
  from_a.advance(0.5);
  const SessionState saved = from_a.state();
  Session on_b = b.start(test::run_for(1.0, 0.1));
  CHECK_THROWS_WITH(on_b.set_state(saved), Contains("another compiled model named 'pair'"));
  // The same compiled model takes it.
  Session again = a.start(test::run_for(1.0, 0.1));
  CHECK_NOTHROW(again.set_state(saved));
  CHECK(again.get("inertia.phi") == from_a.get("inertia.phi"));
}

TEST_CASE("forget_rows keeps a session's memory flat and changes none of its values", "[session]") {
  const Simulator sim = speed_loop(false);
  SimulationOptions opt = test::run_for(2.0, 1e3, 1e-8);
  Session kept = sim.start(opt), forgetting = sim.start(opt);
  for (int k = 1; k <= 400; ++k) {
    const double t = 0.005 * k;
    if (k == 100) {  // a parameter change in a row that is forgotten later
      kept.set_parameter("u.k", 4.0);
      forgetting.set_parameter("u.k", 4.0);
    }
    kept.advance(t);
    forgetting.advance(t);
    forgetting.forget_rows();
    REQUIRE(forgetting.result().size() == 1);
    REQUIRE(forgetting.get("inertia.w") == kept.get("inertia.w"));
    REQUIRE(forgetting.get("motor.tau") == kept.get("motor.tau"));
  }
  CHECK(kept.result().size() > 400);
  CHECK(forgetting.get("u.k") == 4.0);
  CHECK(forgetting.result()["motor.tau"].back() == 4.0);
}

}  // namespace test_session
