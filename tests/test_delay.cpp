// delay(u, T), the delay blocks and the seed-002 actuators against closed forms.
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>

#include <cmath>
#include <functional>

#include "support.hpp"

namespace test_delay {

using namespace acausal;
using test::run_for;
using test::worst;

namespace {
constexpr double pi = 3.14159265358979323846;
}  // namespace

TEST_CASE("FixedDelay reproduces a sine shifted by the delay", "[delay][blocks]") {
  Model m("delayed_sine");
  auto& sine = m.add<blocks::Sine>("sine", {{"amplitude", 2.0}, {"f", 1.5}});
  auto& delayed = m.add<blocks::FixedDelay>("delayed", {{"delayTime", 0.3}});
  m.connect(sine.y, delayed.u);
  Result r = m.compile().simulate(run_for(3.0, 0.01, 1e-6));
  // Before start + delayTime the output holds u(start) = 0.
  CHECK(worst(r, "delayed.y", [](double t) { return t < 0.3 ? 0.0 : 2.0 * std::sin(2 * pi * 1.5 * (t - 0.3)); }) <
        1e-4);
}

TEST_CASE("delay of a solved signal reads its recorded past", "[delay]") {
  // A first-order lag driven by a sine, then delayed: the delayed output is the
  // lag's closed-form response T seconds earlier.
  Model m("delayed_lag");
  auto& sine = m.add<blocks::Sine>("sine", {{"amplitude", 1.0}, {"f", 1.0}});
  auto& lag = m.add<blocks::FirstOrder>("lag", {{"k", 1.0}, {"T", 0.2}});
  auto& delayed = m.add<blocks::DeadTime>("delayed", {{"dead_time", 0.25}});
  m.connect(sine.y, lag.u);
  m.connect(lag.y, delayed.u);
  const double w = 2 * pi, tau = 0.2, wt = w * tau;
  auto response = [&](double t) {
    return t <= 0 ? 0.0 : (std::sin(w * t) - wt * std::cos(w * t) + wt * std::exp(-t / tau)) / (1 + wt * wt);
  };
  for (double rtol : {1e-6, 1e-8}) {
    Result r = m.compile().simulate(run_for(4.0, 0.01, rtol));
    INFO("rtol " << rtol);
    CHECK(worst(r, "lag.y", response) < 1e-4);
    CHECK(worst(r, "delayed.y", [&](double t) { return response(t - 0.25); }) < 1e-4);
  }
}

TEST_CASE("a delay inside a feedback loop: x' = -x(t - 1) by the method of steps", "[delay]") {
  Model m("delayed_feedback");
  auto& x = m.add<blocks::Integrator>("x", {{"k", -1.0}, {"y_start", 1.0}});
  auto& late = m.add<blocks::FixedDelay>("late", {{"delayTime", 1.0}});
  m.connect(x.y, late.u);
  m.connect(late.y, x.u);
  Result r = m.compile().simulate(run_for(3.0, 0.01, 1e-8));
  // x = 1 on t <= 0; each interval of length 1 integrates the previous one.
  auto exact = [](double t) {
    if (t <= 1) return 1 - t;
    if (t <= 2) return 1 - t + (t - 1) * (t - 1) / 2;
    return 1 - t + (t - 1) * (t - 1) / 2 - std::pow(t - 2, 3) / 6;
  };
  CHECK(worst(r, "x.y", exact) < 1e-5);
}

TEST_CASE("delay() of a derivative is differentiated by index reduction", "[delay]") {
  // An exact speed source driven by a delayed signal needs der(delay(u, T)).
  Model m("delayed_speed");
  auto& sine = m.add<blocks::Sine>("sine", {{"amplitude", 1.0}, {"f", 0.5}});
  auto& late = m.add<blocks::FixedDelay>("late", {{"delayTime", 0.4}});
  auto& speed = m.add<rotational::Speed>("speed");
  auto& inertia = m.add<rotational::Inertia>("inertia", {{"J", 2.0}});
  m.connect(sine.y, late.u);
  m.connect(late.y, speed.w_ref);
  m.connect(speed.flange, inertia.flange_a);
  Result r = m.compile().simulate(run_for(3.0, 0.01, 1e-8));
  const double w = 2 * pi * 0.5;
  CHECK(worst(r, "inertia.w", [&](double t) { return t < 0.4 ? 0.0 : std::sin(w * (t - 0.4)); }) < 1e-6);
  // tau = J·der(w): the delayed derivative, 0 before the delay ends.
  auto tau = r["inertia.flange_a.tau"];
  for (std::size_t k = 0; k < r.size(); ++k) {
    double t = r.time()[k];
    if (std::fabs(t - 0.4) < 0.02) continue;  // the kink itself
    CHECK(tau[k] == Approx(t < 0.4 ? 0.0 : 2.0 * w * std::cos(w * (t - 0.4))).margin(1e-4));
  }
}

TEST_CASE("a delay time that is not positive is an error naming the delay", "[delay][errors]") {
  Model m("zero_delay");
  auto& x = m.add<blocks::Integrator>("x", {{"k", -1.0}, {"y_start", 1.0}});
  auto& late = m.add<blocks::FixedDelay>("late", {{"delayTime", 0.0}});
  m.connect(x.y, late.u);
  m.connect(late.y, x.u);
  Simulator sim = m.compile();
  REQUIRE_THROWS_AS(sim.simulate(), ModelError);
  try {
    sim.simulate();
  } catch (const ModelError& e) {
    CHECK_THAT(e.what(), Catch::Contains("late.delayTime") && Catch::Contains("must be positive"));
  }
  sim.set_parameter("late.delayTime", 0.5);
  CHECK_NOTHROW(sim.simulate());
}

TEST_CASE("VelocityActuator: dead time, saturation, lag and acceleration limit in a step response", "[actuator]") {
  // Seed 002's drive actuator: a 2 m/s command at t = 0.5 s, saturated to 1.5 m/s,
  // seen 0.3 s later, followed at most at 3 m/s² and otherwise with a 0.2 s lag.
  Model m("drive");
  auto& command = m.add<blocks::Step>("command", {{"height", 2.0}, {"startTime", 0.5}});
  auto& drive = m.add<blocks::VelocityActuator>(
      "drive", {{"dead_time", 0.3}, {"time_constant", 0.2}, {"max_velocity", 1.5}, {"max_acceleration", 3.0}});
  m.connect(command.y, drive.u);
  Result r = m.compile().simulate(run_for(3.0, 0.005, 1e-8));
  // Rate-limited while (1.5 - y)/0.2 > 3, i.e. up to y = 0.9 at t = 0.8 + 0.3; then the lag.
  auto exact = [](double t) {
    if (t <= 0.8) return 0.0;
    if (t <= 1.1) return 3.0 * (t - 0.8);
    return 1.5 - 0.6 * std::exp(-(t - 1.1) / 0.2);
  };
  CHECK(worst(r, "drive.y", exact) < 0.01 * 1.5);  // within 1 % of the final value
  auto y = r["drive.y"];
  double steepest = 0, highest = 0, moved_before_dead_time = 0;
  for (std::size_t k = 1; k < r.size(); ++k) {
    double dt = r.time()[k] - r.time()[k - 1];
    if (dt > 0) steepest = std::max(steepest, (y[k] - y[k - 1]) / dt);
    highest = std::max(highest, y[k]);
    if (r.time()[k] < 0.8) moved_before_dead_time = std::max(moved_before_dead_time, std::fabs(y[k]));
  }
  CHECK(moved_before_dead_time < 1e-9);       // the dead time
  CHECK(highest <= 1.5 * 1.01);               // the saturation
  CHECK(steepest == Approx(3.0).epsilon(0.01));  // the acceleration limit
}

TEST_CASE("SteeringActuator: angle saturation and angular velocity limit", "[actuator]") {
  Model m("steer");
  auto& command = m.add<blocks::Step>("command", {{"height", -1.0}, {"startTime", 0.2}});
  auto& steer = m.add<blocks::SteeringActuator>(
      "steer", {{"dead_time", 0.1}, {"time_constant", 0.2}, {"max_position", 0.5}, {"max_velocity", 0.8}});
  m.connect(command.y, steer.u);
  Simulator sim = m.compile();
  Result r = sim.simulate(run_for(3.0, 0.005, 1e-8));
  // Saturated to -0.5; rate-limited until |y| = 0.5 - 0.8·0.2 = 0.34 at t = 0.3 + 0.425.
  auto exact = [](double t) {
    if (t <= 0.3) return 0.0;
    if (t <= 0.725) return -0.8 * (t - 0.3);
    return -0.5 + 0.16 * std::exp(-(t - 0.725) / 0.2);
  };
  CHECK(worst(r, "steer.y", exact) < 0.01 * 0.5);
  // max_position = 0 lifts the angle limit: the full command arrives.
  sim.set_parameter("steer.max_position", 0.0);
  auto free = sim.simulate(run_for(6.0, 0.01, 1e-8))["steer.y"];
  CHECK(free.back() == Approx(-1.0).margin(0.01));
}

}  // namespace test_delay
