// Forward parameter sensitivities (IDAS): against closed forms, across the
// initialization and events whose time depends on a parameter, and against
// finite differences of full simulations of the car.
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>

#include <fmt/format.h>

#include <cmath>

#include "support.hpp"

namespace test_sensitivities {

using namespace acausal;
using Catch::Matchers::Contains;

namespace {

// m·v' = -d·v: v = v0·exp(-d·t/m).
struct Decay : Component {
  Parameter m = parameter("m", 2.0, {.unit = "kg", .min = 0});
  Parameter d = parameter("d", 3.0, {.unit = "N.s/m", .min = 0});
  Variable x = variable("x", {.unit = "m", .start = 0.0, .fixed = true});
  Variable v = variable("v", {.unit = "m/s", .start = 4.0, .fixed = true});
  Variable f = variable("f", {.unit = "N"});
  Variable a = variable("a", {.unit = "m/s2"});
  explicit Decay(std::string name) : Component(std::move(name)) {
    equation(der(x) == v);
    equation(a == der(v));
    equation(m * a == -f);
    equation(f == d * v);
  }
};

// A mass on a spring pushed by F, started at rest in equilibrium by initial equations: x = F/c for all t.
struct Preloaded : Component {
  Parameter m = parameter("m", 1.0, {.unit = "kg", .min = 0});
  Parameter c = parameter("c", 200.0, {.unit = "N/m", .min = 0});
  Parameter d = parameter("d", 5.0, {.unit = "N.s/m", .min = 0});
  Parameter F = parameter("F", 30.0, {.unit = "N"});
  Variable x = variable("x", {.unit = "m"});
  Variable v = variable("v", {.unit = "m/s"});
  explicit Preloaded(std::string name) : Component(std::move(name)) {
    equation(der(x) == v);
    equation(m * der(v) == F - c * x - d * v);
    initial_equation(der(v) == 0.0);
    initial_equation(v == 0.0);
  }
};

// Pushed by F1 from rest until x passes x_switch (a state event), then by F2.
struct SwitchedPush : Component {
  Parameter m = parameter("m", 2.0, {.unit = "kg", .min = 0});
  Parameter F1 = parameter("F1", 8.0, {.unit = "N"});
  Parameter F2 = parameter("F2", 2.0, {.unit = "N"});
  Parameter x_switch = parameter("x_switch", 1.0, {.unit = "m"});
  Variable x = variable("x", {.unit = "m", .start = 0.0, .fixed = true});
  Variable v = variable("v", {.unit = "m/s", .start = 0.0, .fixed = true});
  explicit SwitchedPush(std::string name) : Component(std::move(name)) {
    equation(der(x) == v);
    equation(m * der(v) == ifelse(x > x_switch, F2, F1));
  }
};

// Relative to b, absolute near zero.
double relative(double a, double b) { return std::fabs(a - b) / std::max(std::fabs(b), 1e-6); }

SimulationOptions tight(double t_end, std::vector<std::string> parameters) {
  SimulationOptions o = test::run_for(t_end, 0.05, 1e-10);
  o.sensitivities = std::move(parameters);
  return o;
}

}  // namespace

TEST_CASE("sensitivities of a decaying speed match the closed form, for states and an observed force",
          "[sensitivities]") {
  Model model("decay");
  model.add<Decay>("body");
  Result r = model.compile().simulate(tight(2.0, {"body.d", "body.m"}));
  REQUIRE(r.sensitivity_parameters() == std::vector<std::string>{"body.d", "body.m"});
  const double m = 2.0, d = 3.0, v0 = 4.0;
  auto dv_dd = r.sensitivity("body.v", "body.d"), dv_dm = r.sensitivity("body.v", "body.m");
  auto dx_dd = r.sensitivity("body.x", "body.d"), df_dd = r.sensitivity("body.f", "body.d");
  auto da_dm = r.sensitivity("body.a", "body.m");
  double worst = 0;
  for (std::size_t k = 1; k < r.size(); ++k) {
    const double t = r.time()[k], E = std::exp(-d * t / m), v = v0 * E;
    worst = std::max({worst, relative(dv_dd[k], -t / m * v), relative(dv_dm[k], d * t / (m * m) * v),
                      relative(dx_dd[k], -m * v0 / (d * d) * (1 - E) + v0 * t / d * E),
                      relative(df_dd[k], v * (1 - d * t / m))});
    // a = -d·v/m: da/dm = d·v/m² - (d/m)·dv/dm
    worst = std::max(worst, relative(da_dm[k], d * v / (m * m) - d / m * (d * t / (m * m) * v)));
  }
  INFO("worst relative error " << worst);
  CHECK(worst < 1e-6);
  // At t = 0 the start values are fixed: no sensitivity.
  CHECK(dv_dd[0] == 0.0);
  CHECK(dx_dd[0] == 0.0);
}

TEST_CASE("sensitivities of a start found by initial equations come from the initialization", "[sensitivities]") {
  Model model("preloaded");
  model.add<Preloaded>("spring");
  Result r = model.compile().simulate(tight(1.0, {"spring.c", "spring.F", "spring.m"}));
  const double c = 200.0, F = 30.0;
  auto dx_dc = r.sensitivity("spring.x", "spring.c"), dx_dF = r.sensitivity("spring.x", "spring.F");
  auto dx_dm = r.sensitivity("spring.x", "spring.m");
  for (std::size_t k = 0; k < r.size(); ++k) {
    INFO("t = " << r.time()[k]);
    REQUIRE(relative(dx_dc[k], -F / (c * c)) < 1e-8);
    REQUIRE(relative(dx_dF[k], 1 / c) < 1e-8);
    REQUIRE(std::fabs(dx_dm[k]) < 1e-12);
  }
}

TEST_CASE("a step at a parameter's time moves the speed's sensitivity by the jump of the acceleration",
          "[sensitivities]") {
  Model model("step");
  auto& step = model.add<rotational::TorqueStep>("step", {{"stepTorque", 6.0}, {"startTime", 0.3}});
  auto& inertia = model.add<rotational::Inertia>("inertia", {{"J", 2.0}});
  model.connect(step.flange, inertia.flange_a);
  model.set_start("inertia.phi", 0.0);
  model.set_start("inertia.w", 0.0);
  Result r = model.compile().simulate(tight(1.0, {"step.startTime", "inertia.J"}));
  auto dw_dt0 = r.sensitivity("inertia.w", "step.startTime"), dw_dJ = r.sensitivity("inertia.w", "inertia.J");
  auto dphi_dt0 = r.sensitivity("inertia.phi", "step.startTime");
  for (std::size_t k = 0; k < r.size(); ++k) {
    const double t = r.time()[k];
    INFO("t = " << t << ", row " << k);
    if (t < 0.3 || (t == 0.3 && k + 1 < r.size() && r.time()[k + 1] == 0.3)) {  // before, and the left limit
      REQUIRE(std::fabs(dw_dt0[k]) < 1e-12);
      continue;
    }
    REQUIRE(relative(dw_dt0[k], -6.0 / 2.0) < 1e-8);                     // w = (τ/J)(t - t0)
    REQUIRE(relative(dw_dJ[k], -6.0 / 4.0 * (t - 0.3)) < 1e-7 + (t == 0.3));  // dw/dJ = -(τ/J²)(t - t0)
    if (t > 0.3) REQUIRE(relative(dphi_dt0[k], -6.0 / 2.0 * (t - 0.3)) < 1e-7);
  }
}

TEST_CASE("a state event at a parameter's threshold: the crossing time's sensitivity carries over", "[sensitivities]") {
  Model model("switched");
  model.add<SwitchedPush>("mass");
  Result r = model.compile().simulate(tight(2.0, {"mass.x_switch", "mass.F2"}));
  REQUIRE(r.event_times().size() == 1);
  const double m = 2.0, F1 = 8.0, F2 = 2.0, xs = 1.0, tau = std::sqrt(2 * m * xs / F1);
  CHECK(std::fabs(r.event_times()[0] - tau) < 1e-8);
  auto dv = r.sensitivity("mass.v", "mass.x_switch"), dx = r.sensitivity("mass.x", "mass.x_switch");
  auto dv_dF2 = r.sensitivity("mass.v", "mass.F2");
  double worst = 0;
  for (std::size_t k = 0; k < r.size(); ++k) {
    const double t = r.time()[k];
    const bool left_limit = k + 1 < r.size() && r.time()[k + 1] == t;
    if (t < tau - 1e-9 || left_limit) {
      worst = std::max({worst, std::fabs(dv[k]), std::fabs(dx[k])});
      continue;
    }
    worst = std::max({worst, relative(dv[k], (F1 - F2) / (F1 * tau)),
                      relative(dx[k], (F1 - F2) * (t - tau) / (F1 * tau)), relative(dv_dF2[k], (t - tau) / m)});
  }
  INFO("worst " << worst);
  CHECK(worst < 1e-6);
}

TEST_CASE("sensitivities name what they cannot differentiate by", "[sensitivities]") {
  Model model("decay");
  model.add<Decay>("body");
  Simulator sim = model.compile();
  SimulationOptions o = test::run_for(1.0, 0.1);
  o.sensitivities = {"body.dd"};
  CHECK_THROWS_WITH(sim.simulate(o), Contains("body.dd") && Contains("body.d"));
  o.sensitivities = {"body.d", "body.d"};
  CHECK_THROWS_WITH(sim.simulate(o), Contains("body.d is named twice"));
  o.sensitivities = {"body.d"};
  CHECK_THROWS_WITH(sim.start(o), Contains("simulate()"));
  Result plain = sim.simulate(test::run_for(1.0, 0.1));
  CHECK_THROWS_WITH(plain.sensitivity("body.v", "body.d"), Contains("no sensitivities"));
  Result r = sim.simulate(o);
  CHECK_THROWS_WITH(r.sensitivity("body.v", "body.m"), Contains("body.m") && Contains("body.d"));
  CHECK_THROWS_WITH(r.sensitivity("body.vv", "body.d"), Contains("body.vv"));

  // The rows' memory counts the sensitivities (a defect: it did not, so max_output_bytes let a run past it).
  SimulationOptions small = test::run_for(1.0, 0.1);
  small.max_output_bytes = 700;  // 12 rows of 40 bytes fit, of 104 with two sensitivities not
  CHECK_NOTHROW(sim.simulate(small));
  small.sensitivities = {"body.d", "body.m"};
  CHECK_THROWS_WITH(sim.simulate(small), Contains("max_output_bytes"));

  Model ball("ball");
  ball.add<test::BouncingBall>("ball");
  o.sensitivities = {"ball.e"};
  CHECK_THROWS_WITH(ball.compile().simulate(o), Contains("reinit() of ball.v"));
}

namespace {

// The rear-drive car coasting from 25 m/s, clutch open: drag and rolling resistance slow it.
void build_coasting_car(Model& m) {
  auto& car = m.add<vehicle::RearDriveCar>("car");
  auto& throttle = m.add<blocks::Constant>("throttle", {{"k", 0.0}});
  auto& clutch = m.add<blocks::Constant>("clutch", {{"k", 0.0}});
  auto& brake = m.add<blocks::Constant>("brake", {{"k", 0.0}});
  m.connect(throttle.y, car.throttle);
  m.connect(clutch.y, car.clutch_pedal);
  m.connect(brake.y, car.brake_pedal);
  m.set_start("car.body.v", 25.0);
  for (const char* corner : {"fl", "fr", "rl", "rr"})
    m.set_start(fmt::format("car.wheel_{}.omega", corner), 25.0 / vehicle::radius_from_tire_size("205/55R16"));
}

// Central differences of full simulations against the sensitivities, at the output rows.
void check_against_finite_differences(Model& model, const std::vector<std::string>& parameters,
                                      const std::vector<std::string>& outputs, SimulationOptions o) {
  Simulator sim = model.compile();
  o.sensitivities = parameters;
  Result r = sim.simulate(o);
  o.sensitivities.clear();
  for (const auto& p : parameters) {
    const double p0 = sim.parameter(p), h = 1e-3 * std::fabs(p0);
    sim.set_parameter(p, p0 + h);
    Result up = sim.simulate(o);
    sim.set_parameter(p, p0 - h);
    Result down = sim.simulate(o);
    sim.set_parameter(p, p0);
    REQUIRE(up.size() == r.size());
    REQUIRE(down.size() == r.size());
    for (const auto& name : outputs) {
      auto s = r.sensitivity(name, p), a = up[name], b = down[name];
      double scale = 0, worst = 0;
      for (std::size_t k = 0; k < r.size(); ++k) {
        // An event's rows lie at its instant, which moves with p: a difference
        // there is the total derivative along the event, not dy/dp at one time.
        if (up.time()[k] != r.time()[k] || down.time()[k] != r.time()[k]) continue;
        const double central = (a[k] - b[k]) / (2 * h);
        scale = std::max(scale, std::fabs(central));
        worst = std::max(worst, std::fabs(s[k] - central));
      }
      INFO("d " << name << " / d " << p << ": worst difference " << worst << " of " << scale);
      CHECK(worst <= 1e-5 * scale);
    }
  }
}

}  // namespace

TEST_CASE("the car's sensitivities to drag, rolling resistance and mass match central differences of runs",
          "[sensitivities][car]") {
  Model model("coast");
  build_coasting_car(model);
  SimulationOptions o = test::run_for(10.0, 0.25, 1e-10);
  check_against_finite_differences(model, {"car.body.Cd", "car.body.Crr", "car.body.m"},
                                   {"car.body.v", "car.body.s", "car.body.N_rear", "car.wheel_rl.F_traction"}, o);
}

}  // namespace test_sensitivities
