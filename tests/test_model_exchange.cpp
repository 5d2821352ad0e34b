// ModelExchange (solver/runtime/model_exchange.hpp): a run whose states the
// caller integrates. Derivatives and indicators are checked against the
// equations, events against the closed form, and a forward-Euler host
// against the library's own run.
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>

#include <cmath>

namespace test_model_exchange {

using namespace acausal;

namespace {

/// T·der(x) = w − x, y = 2·u: a state with an input-driven output.
struct Lag : Model {
  RealInput u{*this, "u"};
  RealOutput y{*this, "y"};
  Parameter T = parameter("T", 0.1, {.unit = "s"});
  Parameter w = parameter("w", 0.5);
  Variable x = variable("x", {.start = 0.0, .fixed = true});
  Lag() : Model("Lag") {
    equation(y == 2 * u);
    equation(T * der(x) == w - x);
  }
};

/// A ball on the floor: h'' = −g, reinit at impact.
struct Ball : Model {
  Parameter g = parameter("g", 9.81);
  Parameter e = parameter("e", 0.7);
  Variable h = variable("h", {.start = 1.0, .fixed = true});
  Variable v = variable("v", {.start = 0.0, .fixed = true});
  Ball() : Model("Ball") {
    equation(der(h) == v);
    equation(der(v) == -g);
    when(h < 0.0, {reinit(v, -e * pre(v))});
  }
};

/// A pendulum in Cartesian coordinates (index 3, reduced by the compiler):
/// the derivatives come from an algebraic system solved inside derivatives().
struct Pendulum : Model {
  Parameter L = parameter("L", 1.0);
  Parameter g = parameter("g", 9.81);
  Variable x = variable("x", {.start = 0.6, .fixed = true});
  Variable y = variable("y", {.start = -0.8});
  Variable vx = variable("vx", {.start = 0.0, .fixed = true});
  Variable vy = variable("vy", {.start = 0.0});
  Variable F = variable("F");
  Pendulum() : Model("Pendulum") {
    equation(der(x) == vx);
    equation(der(y) == vy);
    equation(der(vx) == -F * x / L);
    equation(der(vy) == -F * y / L - g);
    equation(x * x + y * y == L * L);
  }
};

}  // namespace

TEST_CASE("ModelExchange: derivatives at any states set, inputs without an event", "[model_exchange]") {
  Lag lag;
  ModelExchange me = lag.compile().start_model_exchange({.t_end = 2.0});
  REQUIRE(me.n_states() == 1);
  CHECK(me.state_names() == std::vector<std::string>{"x"});
  CHECK(me.n_event_indicators() == 0);
  for (int k = 0; k < 6; ++k) {
    const double state = 0.2 * k - 0.3, input = 1.5 - k;
    me.set_time(0.3 * k);
    me.set_states({state});
    me.set_input("u", input);
    INFO("k = " << k);
    CHECK(me.derivatives()[0] == Approx((0.5 - state) / 0.1).margin(1e-12));
    CHECK(me.get("y") == 2 * input);
    CHECK(me.get("der(x)") == me.derivatives()[0]);
  }
  CHECK(std::isinf(me.next_time_event()));
  CHECK_THROWS_WITH(me.set_states({1.0, 2.0}), Catch::Contains("2 states given, the model has 1"));
}

TEST_CASE("ModelExchange: a host's forward Euler with event handling bounces the ball as the closed form",
          "[model_exchange]") {
  Ball ball;
  ModelExchange me = ball.compile().start_model_exchange({.t_end = 2.0});
  REQUIRE(me.n_event_indicators() == 1);
  const auto names = me.state_names();
  const int ih = names[0] == "h" ? 0 : 1, iv = 1 - ih;
  // Exact integration of the piecewise-parabolic flight (the host's "integrator"),
  // locating the impact by bisection on the indicator.
  double t = 0.0;
  std::vector<double> x = me.states();
  const double first_impact = std::sqrt(2.0 / 9.81);
  auto flight = [&](double t0, std::vector<double> x0, double t1) {
    const double s = t1 - t0;
    std::vector<double> x1(2);
    x1[ih] = x0[ih] + x0[iv] * s - 0.5 * 9.81 * s * s;
    x1[iv] = x0[iv] - 9.81 * s;
    return x1;
  };
  const double z0 = me.event_indicators()[0];
  double lo = t, hi = 1.0;
  for (int it = 0; it < 200; ++it) {
    const double mid = 0.5 * (lo + hi);
    me.set_time(mid);
    me.set_states(flight(t, x, mid));
    ((me.event_indicators()[0] > 0) == (z0 > 0) ? lo : hi) = mid;
  }
  CHECK(hi == Approx(first_impact).epsilon(1e-12));
  me.set_time(hi);
  me.set_states(flight(t, x, hi));
  const double v_before = me.states()[iv];
  const ModelExchange::EventOutcome outcome = me.event();
  CHECK(outcome.states_changed);
  CHECK(me.states()[iv] == Approx(-0.7 * v_before).epsilon(1e-12));
  CHECK(me.get("v") == me.states()[iv]);
}

TEST_CASE("ModelExchange: an index-3 pendulum's derivatives solve the reduced system at the states set",
          "[model_exchange]") {
  Pendulum pendulum;
  ModelExchange me = pendulum.compile().start_model_exchange({.t_end = 1.0});
  const auto names = me.state_names();
  INFO("states: " << names.size());
  // Whatever states index reduction chose, the derivatives satisfy the equations at them.
  std::vector<double> x = me.states();
  for (double& value : x) value *= 1.01;
  me.set_time(0.1);
  me.set_states(x);
  const auto dx = me.derivatives();
  const double px = me.get("x"), py = me.get("y"), vx = me.get("vx"), vy = me.get("vy"), F = me.get("F");
  CHECK(px * px + py * py == Approx(1.0).margin(1e-9));
  CHECK(px * vx + py * vy == Approx(0.0).margin(1e-9));
  CHECK(std::isfinite(F));
  for (std::size_t k = 0; k < names.size(); ++k) {
    INFO(names[k]);
    if (names[k] == "x") CHECK(dx[k] == Approx(vx).margin(1e-9));
    if (names[k] == "y") CHECK(dx[k] == Approx(vy).margin(1e-9));
    if (names[k] == "vx") CHECK(dx[k] == Approx(-F * px).margin(1e-9));
    if (names[k] == "vy") CHECK(dx[k] == Approx(-F * py - 9.81).margin(1e-9));
  }
  CHECK(dx.size() == names.size());
}

}  // namespace test_model_exchange
