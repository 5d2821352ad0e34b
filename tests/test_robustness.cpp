// Robustness: valid models compile whatever their construction order, bad
// options and runaway requests are refused, non-finite values never reach a
// result silently, and outputs satisfy the model's own equations to rounding.
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <limits>
#include <cmath>
#include <functional>
#include <string>

#include "solver/lower/evaluation.hpp"
#include "tests/flat_car.hpp"
#include "examples/rolling_wheel_model.hpp"
#include "support.hpp"

namespace test_robustness {

using namespace acausal;
using test::run_for;

namespace {

// Sine -> delay block -> FirstOrder, the three components added in the order `order`.
Result delayed_lag(const std::array<int, 3>& order, bool dead_time) {
  Model m("delayed_lag");
  std::function<void()> add[3] = {
      [&] { m.add<blocks::Sine>("sine", {{"amplitude", 1.0}, {"f", 1.0}}); },
      [&] {
        if (dead_time)
          m.add<blocks::DeadTime>("delay", {{"dead_time", 0.2}});
        else
          m.add<blocks::FixedDelay>("delay", {{"delayTime", 0.2}});
      },
      [&] { m.add<blocks::FirstOrder>("lag", {{"T", 0.1}}); },
  };
  for (int k : order) add[k]();
  auto* sine = static_cast<blocks::Sine*>(m.child("sine"));
  auto* lag = static_cast<blocks::FirstOrder*>(m.child("lag"));
  Component* delay = m.child("delay");
  auto& u = *delay->connectors()[0];
  auto& y = *delay->connectors()[1];
  m.connect(sine->y, u);
  m.connect(y, lag->u);
  return m.compile().simulate(run_for(1.0, 0.01, 1e-8));
}

}  // namespace

TEST_CASE("a delay model compiles and gives one result in every construction order", "[robustness][delay]") {
  for (bool dead_time : {false, true}) {
    std::array<int, 3> order{0, 1, 2};
    Result reference = delayed_lag(order, dead_time);
    auto expected = reference["lag.y"];
    do {
      INFO("order " << order[0] << order[1] << order[2] << (dead_time ? " DeadTime" : " FixedDelay"));
      Result r = delayed_lag(order, dead_time);
      auto y = r["lag.y"];
      REQUIRE(y.size() == expected.size());
      double worst = 0;
      for (std::size_t k = 0; k < y.size(); ++k) worst = std::max(worst, std::fabs(y[k] - expected[k]));
      CHECK(worst < 1e-9);
    } while (std::next_permutation(order.begin(), order.end()));
  }
}

TEST_CASE("a delay fed back to itself without a state is refused, naming the variable", "[robustness][delay]") {
  Model m("delay_loop");
  auto& delay = m.add<blocks::FixedDelay>("delay", {{"delayTime", 0.2}});
  auto& gain = m.add<blocks::Gain>("gain", {{"k", 0.5}});
  m.connect(delay.y, gain.u);
  m.connect(gain.y, delay.u);
  CHECK_THROWS_WITH(m.compile(), Catch::Contains("delay() of itself") && Catch::Contains("needs a state"));
}

namespace {

// max over rows of |a - b| / max(1, |a|, |b|), with the worst row's time.
struct RowError {
  double error = 0, time = 0;
};
RowError worst_relative(const Result& r, const std::vector<double>& a, const std::vector<double>& b) {
  RowError worst;
  for (std::size_t k = 0; k < a.size(); ++k) {
    double e = std::fabs(a[k] - b[k]) / std::max({1.0, std::fabs(a[k]), std::fabs(b[k])});
    if (e > worst.error) worst = {e, r.time()[k]};
  }
  return worst;
}

}  // namespace

TEST_CASE("outputs satisfy an ideal rolling constraint to rounding at every row", "[robustness][exact]") {
  Model m("rolling_wheel");
  examples::build_rolling_wheel(m);
  Simulator sim = m.compile();
  sim.set_parameter("wheel.radius", 0.3);  // v = 0.3·w: not an alias in disguise
  Result r = sim.simulate(run_for(5.0, 1e-3, 1e-6));
  auto v = r["mass.v"], w = r["inertia.w"], a = r["mass.a"], alpha = r["inertia.a"];
  std::vector<double> w_r(w.size()), alpha_r(w.size());
  for (std::size_t k = 0; k < w.size(); ++k) w_r[k] = w[k] * 0.3, alpha_r[k] = alpha[k] * 0.3;
  RowError velocity = worst_relative(r, v, w_r), acceleration = worst_relative(r, a, alpha_r);
  INFO("worst |v - w r| at t = " << velocity.time << ", |a - alpha r| at t = " << acceleration.time);
  CHECK(velocity.error < 1e-12);
  CHECK(acceleration.error < 1e-12);
}

namespace {

// x falls at unit speed from 1.005 (zero between two output rows); y is an observed function of x.
struct FallingProbe : Component {
  Variable x = variable("x", {.start = 1.005, .fixed = true});
  Variable y = variable("y");
  FallingProbe(std::string name, const std::function<Expr(const Expr&)>& law) : Component(std::move(name)) {
    equation(der(x) == -1.0);
    equation(y == law(x));
  }
  explicit FallingProbe(std::string name) : FallingProbe(std::move(name), [](const Expr& x) { return x; }) {}
};

void expect_nonfinite_named(const std::function<Expr(const Expr&)>& law, double t_expected) {
  Model m("probe_model");
  m.add_component(std::make_unique<FallingProbe>("probe", law));
  try {
    m.compile().simulate(run_for(2.0, 0.01));
    FAIL("no SimulationError");
  } catch (const SimulationError& e) {
    INFO(e.what());
    CHECK_THAT(e.what(), Catch::Contains("probe.y = ") && Catch::Contains("[probe (") &&
                             Catch::Contains("at t = " + format_number(t_expected)));
    CHECK(e.time_reached() == Approx(t_expected));
    CHECK(e.partial_result().size() == static_cast<std::size_t>(std::lround(t_expected / 0.01)));  // the rows before stay
    auto y = e.partial_result()["probe.y"];
    for (double v : y) CHECK(std::isfinite(v));
  }
}

}  // namespace

TEST_CASE("a non-finite observed variable ends the run naming the variable, its equation and the time",
          "[robustness][nonfinite]") {
  expect_nonfinite_named([](const Expr& x) { return sqrt(x); }, 1.01);
  expect_nonfinite_named([](const Expr& x) { return 1.0 / sqrt(x); }, 1.01);
  expect_nonfinite_named([](const Expr& x) { return log(x); }, 1.01);
  expect_nonfinite_named([](const Expr& x) { return exp(1000.0 * (1.005 - x)); }, 0.71);  // overflows to inf
}

TEST_CASE("a saturated launch keeps traction within mu N to rounding, per wheel and per axle", "[robustness][exact]") {
  Model m("launch");
  test::build_rear_drive_car(m);
  Simulator sim = m.compile();
  auto excess = [&](bool exact) {
    SimulationOptions opt = run_for(8.0, 1e-3, 1e-6);
    opt.exact_outputs = exact;
    Result r = sim.simulate(opt);
    auto c = r.columns({"wheel_rl.F_traction", "wheel_rr.F_traction", "wheel_rl.F_max", "wheel_rr.F_max",
                        "wheel_rl.mu_road", "body.N_rear"});
    double worst = 0;  // the largest excess over the bound, relative to the bound
    for (std::size_t k = 0; k < r.size(); ++k) {
      for (int w : {0, 1}) worst = std::max(worst, (std::fabs(c[w][k]) - c[2 + w][k]) / c[2 + w][k]);
      double axle = c[4][k] * c[5][k];  // mu N_rear, from the body's axle load
      worst = std::max(worst, (std::fabs(c[0][k] + c[1][k]) - axle) / axle);
    }
    return worst;
  };
  CHECK(excess(true) <= 1e-12);
  // Interpolated values break a wheel's balance J·der(ω) = τ - r·F - τ_roll
  // (der(ω) is interpolated apart from the forces); exact outputs restore it.
  // With smooth brakes der(ω) is a state derivative IDA interpolates (with
  // locking ones the brake's path parameter, an algebraic, carries it).
  Model smooth("launch");
  test::build_rear_drive_car(smooth, {.friction = vehicle::FrictionLaw::smooth});
  Simulator smooth_sim = smooth.compile();
  auto& wheel = static_cast<vehicle::Wheel&>(*smooth.child("wheel_rl"));
  auto imbalance = [&](bool exact) {
    SimulationOptions opt = run_for(8.0, 1e-3, 1e-6);
    opt.exact_outputs = exact;
    Result r = smooth_sim.simulate(opt);
    auto rest = r.evaluate(wheel.J * der(wheel.omega) -
                           (wheel.flange_rot.tau - wheel.radius * wheel.F_traction - wheel.tau_roll));
    auto torque = r["wheel_rl.flange_rot.tau"];
    double worst = 0, scale = 1.0;
    for (std::size_t k = 0; k < r.size(); ++k) {
      worst = std::max(worst, std::fabs(rest[k]));
      scale = std::max(scale, std::fabs(torque[k]));
    }
    return worst / scale;
  };
  CHECK(imbalance(true) <= 1e-12);
  CHECK(imbalance(false) > 1e-10);
}

TEST_CASE("every SimulationOptions field is validated, naming it", "[robustness][options]") {
  Model m("probe_model");
  m.add_component(std::make_unique<FallingProbe>("probe"));
  Simulator sim = m.compile();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<std::pair<std::string, std::function<void(SimulationOptions&)>>> bad = {
      {"t_start", [&](SimulationOptions& o) { o.t_start = nan; }},
      {"t_end", [](SimulationOptions& o) { o.t_end = -1; }},
      {"t_end", [](SimulationOptions& o) { o.t_end = std::numeric_limits<double>::infinity(); }},
      {"output_interval", [](SimulationOptions& o) { o.output_interval = 0; }},
      {"output_interval", [&](SimulationOptions& o) { o.output_interval = nan; }},
      {"rtol", [](SimulationOptions& o) { o.rtol = 0; }},
      {"rtol", [](SimulationOptions& o) { o.rtol = 2; }},
      {"atol", [](SimulationOptions& o) { o.atol = -1e-8; }},
      {"dense_threshold", [](SimulationOptions& o) { o.dense_threshold = -1; }},
      {"max_steps", [](SimulationOptions& o) { o.max_steps = 0; }},
      {"max_step", [](SimulationOptions& o) { o.max_step = -0.1; }},
      {"max_output_bytes", [](SimulationOptions& o) { o.max_output_bytes = 0; }},
  };
  for (const auto& [field, spoil] : bad) {
    SimulationOptions o = run_for(1.0, 0.01);
    spoil(o);
    INFO(field);
    CHECK_THROWS_WITH(sim.simulate(o), Catch::Contains("simulate(probe_model): " + field + " = "));
  }
}

TEST_CASE("a run whose output would not fit in memory is refused at once, naming output_interval",
          "[robustness][options]") {
  Model m("probe_model");
  m.add_component(std::make_unique<FallingProbe>("probe"));
  Simulator sim = m.compile();
  auto started = std::chrono::steady_clock::now();
  CHECK_THROWS_WITH(sim.simulate(run_for(1.0, 1e-12)),
                    Catch::Contains("output_interval = 1e-12") && Catch::Contains("max_output_bytes"));
  CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() < 1.0);
  // The budget is an option: a small one stops a run that fits the default.
  SimulationOptions o = run_for(1.0, 1e-3);
  o.max_output_bytes = 1e4;
  CHECK_THROWS_WITH(sim.simulate(o), Catch::Contains("max_output_bytes = 10000"));
}

TEST_CASE("chattering ends the run naming the relation, never a hang", "[robustness][events]") {
  struct Chatter : Component {
    Variable x = variable("x", {.start = 1.0, .fixed = true});
    explicit Chatter(std::string name) : Component(std::move(name)) { equation(der(x) == ifelse(x > 0, -1.0, 1.0)); }
  };
  Model m("zeno");
  m.add_component(std::make_unique<Chatter>("c"));
  try {
    m.compile().simulate(run_for(2.0, 0.01));
    FAIL("no SimulationError");
  } catch (const SimulationError& e) {
    CHECK_THAT(e.what(), Catch::Contains("chattering at t = 1") && Catch::Contains("c.x > 0"));
    CHECK(e.time_reached() == Approx(1.0));
    CHECK(e.partial_result().size() > 100);  // the rows up to the chattering instant
  }
}

namespace {
// Three small systems whose initialization fails numerically, and z' = -z.
struct Unsolvable : Component {
  Variable x = variable("x"), y = variable("y"), z = variable("z", {.start = 1.0, .fixed = true});
  Unsolvable(std::string name, int which) : Component(std::move(name)) {
    if (which == 0) equation(x == x + 1.0), equation(y == 2.0);              // x appears, but cannot be solved for
    if (which == 1) equation(x + y == z), equation(2.0 * x + 2.0 * y == 3.0);  // a singular loop
    if (which == 2) equation(x == z), equation(y == 1.0 / time_symbol());    // infinite at t = 0
    equation(der(z) == -z);
  }
};
}  // namespace

TEST_CASE("a numeric initialization failure names the equation that fails", "[robustness][init]") {
  const std::vector<std::string> named = {"(residual -1, with e.x = 0)", "2 * e.y + 2 * e.x = 3  [e (", "e.y = inf"};
  for (int which = 0; which < 3; ++which) {
    Model m("unsolvable");
    m.add_component(std::make_unique<Unsolvable>("e", which));
    INFO(which);
    CHECK_THROWS_WITH(m.compile().simulate(run_for(1.0, 0.1)), Catch::Contains(named[which]));
  }
}

TEST_CASE("a start value at the edge of the floating-point range is named, not a tstop message", "[robustness]") {
  Model m("second_order");
  auto& one = m.add<blocks::Constant>("one");
  auto& system = m.add<blocks::SecondOrder>("system", {{"y_start", -1e300}});
  m.connect(one.y, system.u);
  CHECK_THROWS_WITH(m.compile().simulate(run_for(1.0, 0.1)),
                    Catch::Contains("system.y = -1e+300") && Catch::Contains("check the start values"));
}

TEST_CASE("time events closer together than the solver can step are taken, not looped on", "[robustness][events]") {
  for (double duration : {1e-13, 5e-324}) {
    Model m("short_ramp");
    auto& ramp = m.add<blocks::Ramp>("ramp", {{"height", 2.0}, {"duration", duration}, {"startTime", 0.5}});
    auto& lag = m.add<blocks::FirstOrder>("lag", {{"T", 0.1}});
    m.connect(ramp.y, lag.u);
    INFO("duration " << duration);
    Result r = m.compile().simulate(run_for(1.0, 0.01, 1e-8));
    auto y = r["ramp.y"], lagged = r["lag.y"];
    CHECK(y.back() == 2.0);  // the far side of the ramp, not height·t/duration
    CHECK(lagged.back() == Approx(2.0 * (1.0 - std::exp(-0.5 / 0.1))).epsilon(1e-6));
  }
}

TEST_CASE("max_steps bounds a run with delays too (step by step), so a blow-up ends quickly", "[robustness][delay]") {
  struct BlowUp : Component {  // x' = 1/(1 - x) from 0: x reaches 1 at t = 0.5 with an infinite slope
    Variable x = variable("x", {.start = 0.0, .fixed = true});
    explicit BlowUp(std::string name) : Component(std::move(name)) { equation(der(x) == 1.0 / (1.0 - x)); }
  };
  Model m("blow_up");
  auto& probe = dynamic_cast<BlowUp&>(m.add_component(std::make_unique<BlowUp>("probe")));
  auto& late = m.add<blocks::FixedDelay>("late", {{"delayTime", 0.1}});
  m.add<blocks::Gain>("gain");
  m.connect(late.y, static_cast<blocks::Gain*>(m.child("gain"))->u);
  (void)probe;
  struct Reader : Component {  // feeds x into the delay
    RealOutput y{*this, "y"};
    Reader(std::string name, const Expr& x) : Component(std::move(name)) { equation(y == x); }
  };
  auto& reader = m.add_component(std::make_unique<Reader>("reader", probe.x));
  m.connect(*reader.connectors()[0], late.u);
  SimulationOptions o = run_for(1.0, 0.01);
  o.max_steps = 20000;
  auto started = std::chrono::steady_clock::now();
  CHECK_THROWS_WITH(m.compile().simulate(o), Catch::Contains("max_steps = 20000"));
  CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() < 5.0);
}

TEST_CASE("a relation on a delayed time signal that starts on its threshold still switches at the delayed jump",
          "[robustness][delay][events]") {
  // Saturation at ±0 sits on its threshold from t0, where root finding ignores
  // it; the delayed step is a time event, so the saturation holds u at 0.
  for (double dead_time : {0.0, 0.05}) {
    Model m("actuator");
    auto& step = m.add<blocks::Step>("step", {{"height", 1.0}, {"startTime", 0.2}});
    auto& actuator = m.add<blocks::VelocityActuator>("act", {{"max_velocity", 0.0}, {"dead_time", dead_time}});
    m.connect(step.y, actuator.u);
    Result r = m.compile().simulate(run_for(0.5, 0.1));
    INFO("dead_time " << dead_time);
    auto delayed = r["act.u_delayed"], saturated = r["act.u_saturated"], y = r["act.y"];
    CHECK(delayed.back() == 1.0);
    CHECK(saturated.back() == 0.0);
    CHECK(std::fabs(y.back()) < 1e-9);  // it would lag toward 1 if the saturation missed the step
    CHECK(r.event_times().size() == 1);
    CHECK(r.event_times().front() == Approx(0.2 + dead_time));
  }
}

TEST_CASE("A coasting car runs at rtol 1e-12: the consistent start does not hinge on IDACalcIC's line search",
          "[robustness]") {
  // Issue 30: at rtol 1e-12 IDACalcIC's line search failed at t = 0.
  const double v0 = 100 / 3.6, radius = vehicle::radius_from_tire_size("205/55R16");
  Model m("coast_tight");
  auto& body = m.add<vehicle::VehicleBody>("body");
  for (const char* name : {"wheel_fl", "wheel_fr", "wheel_rl", "wheel_rr"}) {
    auto& wheel = m.add<vehicle::Wheel>(name, {{"radius", radius}, {"J", 1e-3}, {"mu", 0.9}});
    m.connect(wheel.contact, name[6] == 'f' ? body.contact_front : body.contact_rear);
    m.set_start(std::string(name) + ".omega", v0 / radius);
  }
  m.set_start("body.s", 0.0);
  m.set_start("body.v", v0);
  Simulator sim = m.compile();
  for (double rtol : {1e-6, 1e-12}) {
    SimulationOptions opt = test::run_for(2.0, 0.1, rtol);
    opt.atol = rtol * 1e-2;
    INFO("rtol " << rtol);
    Result r = sim.simulate(opt);
    // Coasting: drag and rolling resistance decelerate the car, a_x = -(F_drag + F_roll)/m at every row.
    auto v = r["body.v"], a = r["body.a_x"], drag = r["body.F_drag"], front = r["body.F_roll_front"],
         rear = r["body.F_roll_rear"];
    for (std::size_t k = 0; k < r.size(); ++k)
      CHECK(a[k] * 1500.0 == Approx(-(drag[k] + front[k] + rear[k])).epsilon(1e-3));
    CHECK(v[r.size() - 1] < v0);
    CHECK(v[r.size() - 1] > v0 - 2.0);
  }
}

TEST_CASE("compiling a model again makes no new expression nodes", "[robustness][memory]") {
  // Nodes are interned for the whole process. The compiler's own symbols (event modes, derivatives of index
  // reduction, discrete readouts, model inputs, the event clock) used to be new on every compile, and with them
  // every expression that read them: a structural sweep that recompiled one model grew without bound.
  Model wheel("rolling_wheel");
  examples::build_rolling_wheel(wheel);
  Model car("car");
  test::build_rear_drive_car(car);
  for (Model* m : {&wheel, &car}) {
    const Simulator first = m->compile();
    INFO(first.report().str());
    REQUIRE(first.compiled().dae.modes.size() > 0);
    const std::size_t before = interned_node_count();
    for (int k = 0; k < 3; ++k) m->compile();
    CHECK(interned_node_count() <= before);  // fewer when a collection freed the first compile's temporaries
  }
}

}  // namespace test_robustness
