// The standard components against closed forms, with stated tolerances.
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>

#include <cmath>
#include <functional>

#include "support.hpp"

namespace test_standard_library {

using namespace acausal;
using test::run_for;
using test::worst;

TEST_CASE("FirstOrder and SecondOrder step responses", "[library][blocks]") {
  Model m("lags");
  auto& step = m.add<blocks::Step>("step", {{"height", 1.0}});
  auto& lag = m.add<blocks::FirstOrder>("lag", {{"k", 2.0}, {"T", 0.5}});
  auto& second = m.add<blocks::SecondOrder>("second", {{"k", 1.0}, {"w", 2.0}, {"D", 0.5}});
  m.connect(step.y, lag.u);
  m.connect(step.y, second.u);
  Result r = m.compile().simulate(run_for(5.0, 0.01, 1e-10));
  CHECK(worst(r, "lag.y", [](double t, std::size_t) { return 2.0 * (1.0 - std::exp(-t / 0.5)); }) < 1e-6);
  const double D = 0.5, w = 2.0, wd = w * std::sqrt(1 - D * D);
  CHECK(worst(r, "second.y", [&](double t, std::size_t) {
          return 1.0 - std::exp(-D * w * t) * (std::cos(wd * t) + D / std::sqrt(1 - D * D) * std::sin(wd * t));
        }) < 1e-6);
}

TEST_CASE("Ramp kinks are time events, the Integrator integrates them", "[library][blocks]") {
  Model m("ramp");
  auto& ramp = m.add<blocks::Ramp>("ramp", {{"height", 2.0}, {"duration", 1.0}, {"startTime", 0.5}});
  auto& integral = m.add<blocks::Integrator>("integral", {{"k", 1.0}, {"y_start", 0.25}});
  m.connect(ramp.y, integral.u);
  Result r = m.compile().simulate(run_for(2.0, 0.1, 1e-10));
  CHECK(r.event_times() == std::vector<double>{0.5, 1.5});
  auto area = [](double t) {
    if (t < 0.5) return 0.0;
    if (t < 1.5) return (t - 0.5) * (t - 0.5);
    return 1.0 + 2.0 * (t - 1.5);
  };
  CHECK(worst(r, "integral.y", [&](double t, std::size_t) { return 0.25 + area(t); }) < 1e-7);
  CHECK(worst(r, "ramp.y", [](double t, std::size_t) { return t < 0.5 ? 0.0 : t < 1.5 ? 2.0 * (t - 0.5) : 2.0; }) <
        1e-12);
}

TEST_CASE("Gain, Add, Product, Feedback, Limiter and DeadZone compute what they say", "[library][blocks]") {
  Model m("signals");
  auto& sine = m.add<blocks::Sine>("sine", {{"amplitude", 2.0}, {"f", 0.5}});
  auto& c = m.add<blocks::Constant>("c", {{"k", 0.5}});
  auto& gain = m.add<blocks::Gain>("gain", {{"k", 3.0}});
  auto& add = m.add<blocks::Add>("add", {{"k1", 2.0}, {"k2", -1.0}});
  auto& product = m.add<blocks::Product>("product");
  auto& feedback = m.add<blocks::Feedback>("feedback");
  auto& limiter = m.add<blocks::Limiter>("limiter", {{"uMax", 1.0}, {"uMin", -1.5}});
  auto& dead = m.add<blocks::DeadZone>("dead", {{"uMax", 0.5}, {"uMin", -0.5}});
  auto& integral = m.add<blocks::Integrator>("integral");  // a state, so IDA has something to integrate
  for (RealInput* in : {&gain.u, &add.u1, &product.u1, &feedback.u1, &limiter.u, &dead.u, &integral.u})
    m.connect(sine.y, *in);
  for (RealInput* in : {&add.u2, &product.u2, &feedback.u2}) m.connect(c.y, *in);
  Result r = m.compile().simulate(run_for(4.0, 0.01, 1e-10));
  auto u = r["sine.y"];
  CHECK(worst(r, "gain.y", [&](double, std::size_t k) { return 3.0 * u[k]; }) < 1e-12);
  CHECK(worst(r, "add.y", [&](double, std::size_t k) { return 2.0 * u[k] - 0.5; }) < 1e-12);
  CHECK(worst(r, "product.y", [&](double, std::size_t k) { return 0.5 * u[k]; }) < 1e-12);
  CHECK(worst(r, "feedback.y", [&](double, std::size_t k) { return u[k] - 0.5; }) < 1e-12);
  CHECK(worst(r, "limiter.y", [&](double, std::size_t k) { return std::clamp(u[k], -1.5, 1.0); }) < 1e-9);
  CHECK(worst(r, "dead.y", [&](double, std::size_t k) {
          return u[k] > 0.5 ? u[k] - 0.5 : u[k] < -0.5 ? u[k] + 0.5 : 0.0;
        }) < 1e-9);
  CHECK(r.event_times().size() >= 8);  // limiter and dead-zone switches are located
}

TEST_CASE("rotational Speed imposes w = w_ref, sensors read what they measure", "[library][rotational]") {
  Model m("rig");
  auto& sine = m.add<blocks::Sine>("sine", {{"amplitude", 3.0}, {"f", 1.0}, {"offset", 1.0}});
  auto& speed = m.add<rotational::Speed>("speed");
  auto& torque_sensor = m.add<rotational::TorqueSensor>("torque_sensor");
  auto& power_sensor = m.add<rotational::PowerSensor>("power_sensor");
  auto& load = m.add<rotational::Inertia>("load", {{"J", 2.0}});
  auto& angle = m.add<rotational::AngleSensor>("angle");
  auto& w_sensor = m.add<rotational::SpeedSensor>("w_sensor");
  auto& rel = m.add<rotational::RelSpeedSensor>("rel");
  auto& brake = m.add<rotational::LinearSpeedDependentTorque>("brake",
                                                              {{"tau_nominal", -0.5}, {"w_nominal", 1.0}, {"TorqueDirection", 0.0}});
  auto& ground = m.add<rotational::Fixed>("ground");
  m.connect(sine.y, speed.w_ref);
  m.connect(speed.flange, torque_sensor.flange_a);
  m.connect(torque_sensor.flange_b, power_sensor.flange_a);
  m.connect(power_sensor.flange_b, load.flange_a);
  m.connect(load.flange_b, brake.flange);
  m.connect(load.flange_b, angle.flange);
  m.connect(load.flange_b, w_sensor.flange);
  m.connect(ground.flange, rel.flange_a);
  m.connect(load.flange_b, rel.flange_b);
  m.set_start("speed.phi", 0.0);
  Result r = m.compile().simulate(run_for(2.0, 0.01, 1e-10));
  auto w_ref = r["sine.y"], w = r["load.w"], a = r["load.a"];
  CHECK(worst(r, "load.w", [&](double, std::size_t k) { return w_ref[k]; }) < 1e-10);
  CHECK(worst(r, "w_sensor.w", [&](double, std::size_t k) { return w[k]; }) < 1e-10);
  CHECK(worst(r, "rel.w_rel", [&](double, std::size_t k) { return w[k]; }) < 1e-10);
  CHECK(worst(r, "angle.phi", [&](double t, std::size_t) {
          return t - 3.0 / (2 * M_PI) * (std::cos(2 * M_PI * t) - 1.0);  // integral of the speed
        }) < 1e-7);
  // The shaft torque accelerates the inertia and overcomes the linear brake (0.5 N.m.s/rad).
  auto tau = r["torque_sensor.tau"];
  CHECK(worst(r, "torque_sensor.tau", [&](double, std::size_t k) { return 2.0 * a[k] + 0.5 * w[k]; }) < 1e-8);
  // Outputs between steps come from IDA's interpolating polynomial, whose
  // derivative (der(phi) in the sensor) is less exact than its value: 1e-7 relative.
  double peak = 0;
  for (std::size_t k = 0; k < r.size(); ++k) peak = std::max(peak, std::fabs(tau[k] * w[k]));
  CHECK(worst(r, "power_sensor.power", [&](double, std::size_t k) { return tau[k] * w[k]; }) < 1e-7 * peak);
}

TEST_CASE("ConstantTorque spins up an inertia against quadratic drag to the terminal speed", "[library][rotational]") {
  Model m("spin");
  auto& motor = m.add<rotational::ConstantTorque>("motor", {{"tau_constant", 8.0}});
  auto& rotor = m.add<rotational::Inertia>("rotor", {{"J", 0.5}});
  auto& drag = m.add<rotational::QuadraticSpeedDependentTorque>(
      "drag", {{"tau_nominal", -2.0}, {"w_nominal", 10.0}, {"TorqueDirection", 0.0}});
  m.connect(motor.flange, rotor.flange_a);
  m.connect(rotor.flange_b, drag.flange);
  m.set_start("rotor.phi", 0.0);
  m.set_start("rotor.w", 0.0);
  Result r = m.compile().simulate(run_for(5.0, 0.01, 1e-10));
  // 8 = 2 (w/10)^2 at w = 20; J dw/dt = 8 - 0.02 w^2 gives w = 20 tanh(0.8 t).
  CHECK(worst(r, "rotor.w", [](double t, std::size_t) { return 20.0 * std::tanh(0.8 * t); }) < 1e-6);
}

TEST_CASE("speed-dependent forces and torques have the right sign in both directions", "[library]") {
  for (double v : {2.0, -2.0}) {
    for (double direction : {1.0, 0.0}) {
      Model m("sign");
      auto& ref = m.add<blocks::Constant>("ref", {{"k", v}});
      auto& source = m.add<translational::Speed>("source");
      auto& drag = m.add<translational::QuadraticSpeedDependentForce>(
          "drag", {{"f_nominal", -10.0}, {"v_nominal", 4.0}, {"ForceDirection", direction}});
      auto& wref = m.add<blocks::Constant>("wref", {{"k", v}});
      auto& spin = m.add<rotational::Speed>("spin");
      auto& tdrag = m.add<rotational::QuadraticSpeedDependentTorque>(
          "tdrag", {{"tau_nominal", -10.0}, {"w_nominal", 4.0}, {"TorqueDirection", direction}});
      m.connect(ref.y, source.v_ref);
      m.connect(source.flange, drag.flange);
      m.connect(wref.y, spin.w_ref);
      m.connect(spin.flange, tdrag.flange);
      m.set_start("source.s", 0.0);
      m.set_start("spin.phi", 0.0);
      Result r = m.compile().simulate(run_for(0.5, 0.1, 1e-10));
      double magnitude = 10.0 * (v / 4.0) * (v / 4.0);
      double expected = direction > 0.5 ? -magnitude : (v > 0 ? -magnitude : magnitude);  // a load opposes motion
      INFO("v = " << v << ", direction = " << direction);
      CHECK(r["drag.f"].back() == Approx(expected).epsilon(1e-12));
      CHECK(r["tdrag.tau"].back() == Approx(expected).epsilon(1e-12));
    }
  }
}

TEST_CASE("translational sources and sensors", "[library][translational]") {
  Model m("slider");
  auto& sine = m.add<blocks::Sine>("sine", {{"amplitude", 0.2}, {"f", 1.0}});
  auto& position = m.add<translational::Position>("position");
  auto& force_sensor = m.add<translational::ForceSensor>("force_sensor");
  auto& power_sensor = m.add<translational::PowerSensor>("power_sensor");
  auto& body = m.add<translational::Mass>("body", {{"m", 3.0}});
  auto& s_sensor = m.add<translational::PositionSensor>("s_sensor");
  auto& v_sensor = m.add<translational::SpeedSensor>("v_sensor");
  auto& a_sensor = m.add<translational::AccSensor>("a_sensor");
  m.connect(sine.y, position.s_ref);
  m.connect(position.flange, force_sensor.flange_a);
  m.connect(force_sensor.flange_b, power_sensor.flange_a);
  m.connect(power_sensor.flange_b, body.flange_a);
  for (Connector* k : std::initializer_list<Connector*>{&s_sensor.flange, &v_sensor.flange, &a_sensor.flange})
    m.connect(body.flange_b, *k);
  Result r = m.compile().simulate(run_for(1.0, 0.01, 1e-10));
  const double w = 2 * M_PI;
  CHECK(worst(r, "s_sensor.s", [&](double t, std::size_t) { return 0.2 * std::sin(w * t); }) < 1e-10);
  CHECK(worst(r, "v_sensor.v", [&](double t, std::size_t) { return 0.2 * w * std::cos(w * t); }) < 1e-7);
  CHECK(worst(r, "a_sensor.a", [&](double t, std::size_t) { return -0.2 * w * w * std::sin(w * t); }) < 1e-6);
  auto v = r["body.v"], f = r["force_sensor.f"];
  CHECK(worst(r, "force_sensor.f", [&](double t, std::size_t) { return -3.0 * 0.2 * w * w * std::sin(w * t); }) < 1e-5);
  CHECK(worst(r, "power_sensor.power", [&](double, std::size_t k) { return f[k] * v[k]; }) < 1e-8);
}

TEST_CASE("SpringDamper, ConstantForce and ForceStep on a mass", "[library][translational]") {
  const double m_ = 2.0, c = 50.0, d = 3.0, F = 10.0;
  Model m("oscillator");
  auto& wall = m.add<translational::Fixed>("wall");
  auto& sd = m.add<translational::SpringDamper>("sd", {{"c", c}, {"d", d}});
  auto& mass = m.add<translational::Mass>("mass", {{"m", m_}});
  auto& push = m.add<translational::ConstantForce>("push", {{"f_constant", F}});
  auto& kick = m.add<translational::ForceStep>("kick", {{"stepForce", 5.0}, {"startTime", 20.0}});
  m.connect(wall.flange, sd.flange_a);
  m.connect(sd.flange_b, mass.flange_a);
  m.connect(push.flange, mass.flange_b);
  m.connect(kick.flange, mass.flange_b);
  m.set_start("mass.s", 0.0);
  m.set_start("mass.v", 0.0);
  Result r = m.compile().simulate(run_for(10.0, 0.01, 1e-10));
  const double wn = std::sqrt(c / m_), zeta = d / (2 * std::sqrt(c * m_)), root = std::sqrt(1 - zeta * zeta);
  CHECK(worst(r, "mass.s", [&](double t, std::size_t) {
          return F / c * (1 - std::exp(-zeta * wn * t) * (std::cos(wn * root * t) + zeta / root * std::sin(wn * root * t)));
        }) < 1e-6);
  CHECK(r.event_times().empty());  // the step comes after t_end
  SimulationOptions later = run_for(40.0, 0.5, 1e-10);
  Result r2 = m.compile().simulate(later);
  REQUIRE(r2.event_times() == std::vector<double>{20.0});
  CHECK(r2["mass.s"].back() == Approx((F + 5.0) / c).epsilon(1e-4));  // settled at the new static deflection
}

TEST_CASE("TimeTable interpolates as MSL's: continued ends, jumps at a repeated time, offset and startTime",
          "[library][blocks]") {
  // MSL Blocks.Sources.TimeTable: linear in each interval, the first and the last interval continued
  // beyond the table, a time given twice a jump, y = offset before startTime.
  Model m("table");
  auto& table = m.add<blocks::TimeTable>("table");
  table.set_table({{0.0, 0.0}, {1.0, 2.0}, {2.0, 2.0}, {3.0, -1.0}});
  auto& integral = m.add<blocks::Integrator>("integral");
  m.connect(table.y, integral.u);
  Result r = m.compile().simulate(run_for(4.0, 0.25, 1e-10));
  CHECK(r.event_times() == std::vector<double>{1.0, 2.0});  // no kink at the last row's time
  auto expected = [](double t) {
    if (t < 1.0) return 2.0 * t;
    if (t < 2.0) return 2.0;
    return 2.0 - 3.0 * (t - 2.0);
  };
  CHECK(worst(r, "table.y", [&](double t, std::size_t) { return expected(t); }) < 1e-12);
  CHECK(r["integral.y"].back() == Approx(1.0 + 2.0 + 0.5 - 2.5).epsilon(1e-8));  // areas 1, 2, 0.5, -2.5

  Model shifted("shifted");
  auto& jump = shifted.add<blocks::TimeTable>("jump", {{"offset", 10.0}, {"startTime", 0.5}});
  jump.set_table({{0.0, 1.0}, {1.0, 1.0}, {1.0, 3.0}, {2.0, 5.0}});
  auto& area = shifted.add<blocks::Integrator>("area");
  shifted.connect(jump.y, area.u);
  Result s = shifted.compile().simulate(run_for(3.0, 0.25, 1e-10));
  CHECK(s.event_times() == std::vector<double>{0.5, 1.5});
  const auto& ts = s.time();
  auto shifted_expected = [&](double t, std::size_t k) {
    const bool left = k + 1 < ts.size() && ts[k + 1] == t;  // an event's first row holds the value before it
    if (t < 0.5 || (t == 0.5 && left)) return 10.0;
    if (t < 1.5 || (t == 1.5 && left)) return 11.0;
    return 13.0 + 2.0 * (t - 1.5);  // from the jump on, the last interval continued past its end at 2.5 s
  };
  CHECK(worst(s, "jump.y", shifted_expected) < 1e-12);
  CHECK(s["area.y"].back() == Approx(0.5 * 10.0 + 1.0 * 11.0 + 1.5 * 13.0 + 1.5 * 1.5).epsilon(1e-8));

  Model single("single");
  auto& constant = single.add<blocks::TimeTable>("constant", {{"offset", -1.0}});
  constant.set_table({{4.0, 7.0}});
  Result c = single.compile().simulate(run_for(1.0, 0.5));
  CHECK(worst(c, "constant.y", [](double, std::size_t) { return 6.0; }) < 1e-15);

  CHECK_THROWS_WITH(m.add<blocks::TimeTable>("bad").set_table({{1.0, 0.0}, {0.5, 1.0}}),
                    Catch::Matchers::Contains("TimeTable 'bad': times must not decrease (row 1)"));
  CHECK_THROWS_WITH(m.add<blocks::TimeTable>("empty").set_table({}),
                    Catch::Matchers::Contains("TimeTable 'empty': the table is empty"));
  CHECK_THROWS_WITH(m.add<blocks::TimeTable>("nan").set_table({{0.0, 1.0}, {1.0, std::nan("")}}),
                    Catch::Matchers::Contains("TimeTable 'nan': row 1 is not finite"));
}

TEST_CASE("SlewRateLimiter follows a step at the rising rate", "[library][blocks]") {
  Model m("slew");
  auto& step = m.add<blocks::Step>("step", {{"height", 1.0}, {"startTime", 0.5}});
  auto& slew = m.add<blocks::SlewRateLimiter>("slew", {{"Rising", 2.0}, {"Falling", -1.0}});
  m.connect(step.y, slew.u);
  Result r = m.compile().simulate(run_for(2.0, 0.05, 1e-10));
  auto y = r["slew.y"];
  for (std::size_t k = 0; k < r.size(); ++k) {
    double t = r.time()[k];
    if (t <= 0.5) CHECK(std::fabs(y[k]) < 1e-12);
    if (t > 0.5 && t < 0.99) CHECK(std::fabs(y[k] - 2.0 * (t - 0.5)) < 1e-6);  // the rate limit, exactly
  }
  CHECK(y.back() == Approx(1.0).epsilon(1e-6));
}

namespace {
// A PI(D) loop around a first-order plant with a saturating actuator.
template <class Controller>
Result control_loop(double Ni, ParameterValues extra = {}) {
  Model m("loop");
  auto& setpoint = m.add<blocks::Step>("setpoint", {{"height", 1.0}});
  ParameterValues values{{"k", 2.0}, {"Ti", 0.5}, {"Ni", Ni}, {"yMax", 1.5}, {"yMin", -1.5}};
  values.insert(values.end(), extra.begin(), extra.end());
  auto& controller = m.add<Controller>("controller", values);
  auto& plant = m.add<blocks::FirstOrder>("plant", {{"k", 1.0}, {"T", 1.0}});
  m.connect(setpoint.y, controller.u_s);
  m.connect(plant.y, controller.u_m);
  m.connect(controller.y, plant.u);
  return m.compile().simulate(run_for(20.0, 0.01, 1e-10));
}
}  // namespace

TEST_CASE("PI tracks a setpoint, anti-windup limits overshoot while saturated", "[library][blocks]") {
  Result with = control_loop<blocks::PI>(0.9);
  Result without = control_loop<blocks::PI>(1e9);  // back-calculation effectively off
  auto peak = [](const std::vector<double>& v) { return *std::max_element(v.begin(), v.end()); };
  CHECK(with["plant.y"].back() == Approx(1.0).epsilon(1e-4));
  CHECK(without["plant.y"].back() == Approx(1.0).epsilon(1e-4));
  for (double u : with["controller.y"]) CHECK(u <= 1.5 + 1e-12);
  CHECK(peak(with["controller.I"]) < peak(without["controller.I"]));  // the integrator did not wind up
  CHECK(peak(with["plant.y"]) < peak(without["plant.y"]));            // hence less overshoot
}

TEST_CASE("PID tracks a setpoint within its output limits", "[library][blocks]") {
  Result r = control_loop<blocks::PID>(0.9, {{"Td", 0.1}, {"Nd", 10.0}});
  CHECK(r["plant.y"].back() == Approx(1.0).epsilon(1e-4));
  for (double u : r["controller.y"]) CHECK((u <= 1.5 + 1e-12 && u >= -1.5 - 1e-12));
}

}  // namespace test_standard_library
