// Inputs, outputs and linearization (DESIGN section 5, "Analysis beyond simulation").
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>
#include <acausal/solver/lower/evaluation.hpp>  // the compiled model: a state's derivative by name

#include <cmath>
#include <complex>
#include <numbers>

#include "linear_response.hpp"

namespace test_analysis {

using namespace acausal;
using test::transfer;
using Catch::Matchers::Contains;

namespace {

/// Two inertias coupled by a spring-damper, driven by the model's input torque `tau`.
struct TwoInertias : Model {
  RealInput tau{*this, "tau", {.unit = "N.m"}};
  RealOutput w2{*this, "w2", {.unit = "rad/s"}};
  static constexpr double J1 = 2.0, J2 = 0.5, c = 400.0, d = 3.0;

  TwoInertias() : Model("two_inertias") {
    auto& source = add<rotational::Torque>("source");
    auto& inertia1 = add<rotational::Inertia>("inertia1", {{"J", J1}});
    auto& coupling = add<rotational::SpringDamper>("coupling", {{"c", c}, {"d", d}});
    auto& inertia2 = add<rotational::Inertia>("inertia2", {{"J", J2}});
    connect(tau, source.tau);
    connect(source.flange, inertia1.flange_a);
    connect(inertia1.flange_b, coupling.flange_a);
    connect(coupling.flange_b, inertia2.flange_a);
    equation(w2 == inertia2.w);
    set_start("inertia1.phi", 0.0);
    set_start("inertia1.w", 0.0);
    set_start("inertia2.phi", 0.0);
    set_start("inertia2.w", 0.0);
  }
};


}  // namespace

TEST_CASE("an unconnected top-level RealInput is an input set like a parameter", "[analysis]") {
  TwoInertias m;
  Simulator sim = m.compile();
  CHECK(sim.inputs() == std::vector<std::string>{"tau"});
  CHECK(sim.outputs() == std::vector<std::string>{"w2"});
  sim.set_parameter("tau", 5.0);
  SimulationOptions o;
  o.t_end = 2.0;
  Result r = sim.simulate(o);
  // Momentum: (J1 w1 + J2 w2)' = tau.
  const double momentum = TwoInertias::J1 * r["inertia1.w"].back() + TwoInertias::J2 * r["w2"].back();
  CHECK(momentum == Approx(5.0 * 2.0).epsilon(1e-6));
  CHECK(r["tau"].back() == 5.0);
}

TEST_CASE("linearizing two inertias on a spring-damper gives the closed-form modes and transfer function",
          "[analysis]") {
  TwoInertias m;
  Simulator sim = m.compile();
  sim.set_parameter("tau", 2.0);
  SimulationOptions o;
  o.t_end = 1.0;
  Result r = sim.simulate(o);
  LinearModel lin = linearize(r, 1.0);
  REQUIRE(lin.inputs == std::vector<std::string>{"tau"});
  REQUIRE(lin.outputs == std::vector<std::string>{"w2"});
  REQUIRE(lin.A.rows == 4);
  constexpr double J1 = TwoInertias::J1, J2 = TwoInertias::J2, c = TwoInertias::c, d = TwoInertias::d;
  // Relative motion: J_eff·φ'' + d·φ' + c·φ = 0; the pair rotates freely (a double zero).
  const double J_eff = J1 * J2 / (J1 + J2);
  const std::complex<double> expected =
      (-d + std::sqrt(std::complex<double>(d * d - 4 * J_eff * c))) / (2 * J_eff);
  auto found = modes(lin);
  REQUIRE(found.size() == 3);  // two zero eigenvalues and the oscillation (one entry per pair)
  const LinearMode& oscillation = found.back();
  CHECK(std::abs(oscillation.eigenvalue - expected) < 1e-9 * std::abs(expected));
  CHECK(oscillation.natural_frequency == Approx(std::sqrt(c / J_eff)).epsilon(1e-9));
  CHECK(oscillation.damping_ratio == Approx(d / (2 * std::sqrt(c * J_eff))).epsilon(1e-9));
  CHECK(oscillation.time_constant == Approx(2 * J_eff / d).epsilon(1e-9));
  CHECK(std::abs(found[0].eigenvalue) < 1e-9);
  // w2/tau = (d s + c) / (s (J1 J2 s² + (J1 + J2)(d s + c)))
  for (double w : {0.3, 5.0, std::sqrt(c / J_eff), 80.0}) {
    const std::complex<double> s(0.0, w);
    const std::complex<double> closed = (d * s + c) / (s * (J1 * J2 * s * s + (J1 + J2) * (d * s + c)));
    CHECK(std::abs(transfer(lin, s) - closed) < 1e-9 * std::abs(closed));
  }
}

TEST_CASE("modes: a free rigid-body mode is a zero mode, not unstable or oscillating (issue 36)", "[analysis]") {
  // Two inertias on a spring, nothing fixed: a double zero (the pair turns freely) and an undamped oscillation.
  constexpr double J1 = 2.0, J2 = 0.5, c = 400.0;
  Model m("free_pair");
  auto& inertia1 = m.add<rotational::Inertia>("inertia1", {{"J", J1}});
  auto& spring = m.add<rotational::Spring>("spring", {{"c", c}});
  auto& inertia2 = m.add<rotational::Inertia>("inertia2", {{"J", J2}});
  m.connect(inertia1.flange_b, spring.flange_a);
  m.connect(spring.flange_b, inertia2.flange_a);
  m.set_start("inertia1.phi", 0.0);
  m.set_start("inertia1.w", 1.0);
  m.set_start("inertia2.phi", 0.1);
  m.set_start("inertia2.w", 0.0);
  Simulator sim = m.compile();
  SimulationOptions o;
  o.t_end = 0.3;
  LinearModel lin = linearize(sim.simulate(o), 0.3);
  REQUIRE(lin.A.rows == 4);
  auto found = modes(lin);
  REQUIRE(found.size() == 3);  // two zeros, one pair
  for (int i : {0, 1}) {
    CHECK(found[i].kind == ModeKind::zero);
    CHECK(found[i].eigenvalue == std::complex<double>(0.0, 0.0));
    CHECK_FALSE(found[i].unstable);
    CHECK(std::isnan(found[i].damping_ratio));
    CHECK(std::isnan(found[i].time_constant));
    CHECK(std::string(to_string(found[i].kind)) == "zero");
  }
  const LinearMode& oscillation = found[2];
  CHECK(oscillation.kind == ModeKind::oscillating);
  CHECK_FALSE(oscillation.unstable);  // Re λ is round-off (about 1e-15): classified 0, undamped
  CHECK(oscillation.eigenvalue.real() == 0.0);
  CHECK(oscillation.damping_ratio == 0.0);
  CHECK(std::isinf(oscillation.time_constant));
  const double expected = std::sqrt(c * (1 / J1 + 1 / J2)) / (2 * std::numbers::pi);
  CHECK(std::abs(oscillation.frequency_hz - expected) < 1e-9 * expected);

  // The tolerance is relative to the largest |λ|, with an absolute floor; a pair whose imaginary part is below it is
  // two real poles.
  LinearModel tiny = lin;
  tiny.A = DenseMatrix(2, 2);
  tiny.states = {"x1", "x2"};
  tiny.A(0, 0) = -1.0;
  tiny.A(0, 1) = 1e-10;
  tiny.A(1, 0) = -1e-10;
  tiny.A(1, 1) = -1.0;  // λ = -1 ± 1e-10 i
  auto real = modes(tiny);
  REQUIRE(real.size() == 2);
  for (const LinearMode& mode : real) {
    CHECK(mode.kind == ModeKind::real);
    CHECK(mode.eigenvalue == std::complex<double>(-1.0, 0.0));
    CHECK(mode.damping_ratio == 1.0);
  }
  auto loose = modes(tiny, 3, {.relative = 1e-12, .absolute = 1e-14});
  REQUIRE(loose.size() == 1);
  CHECK(loose[0].kind == ModeKind::oscillating);
}

TEST_CASE("linearization matches finite differences of simulations where a dummy derivative chose the states",
          "[analysis]") {
  // An ideal gear between two inertias: index reduction keeps one of the two
  // speeds as a state. Spring to ground and damper make A full.
  auto build = [](const std::vector<std::pair<std::string, double>>& starts, double u) {
    auto m = std::make_unique<Model>("geared");
    auto& input = m->keep_connector(std::make_unique<RealInput>(*m, "u"));
    auto& source = m->add<rotational::Torque>("source");
    auto& motor = m->add<rotational::Inertia>("motor", {{"J", 0.02}});
    auto& gear = m->add<rotational::IdealGear>("gear", {{"ratio", 4.0}});
    auto& load = m->add<rotational::Inertia>("load", {{"J", 1.5}});
    auto& spring = m->add<rotational::Spring>("spring", {{"c", 90.0}});
    auto& damper = m->add<rotational::Damper>("damper", {{"d", 0.7}});
    auto& drag = m->add<rotational::QuadraticSpeedDependentTorque>("drag", {{"tau_nominal", -2.0}, {"w_nominal", 3.0}});
    auto& ground = m->add<rotational::Fixed>("ground");
    m->connect(input, source.tau);
    m->connect(source.flange, motor.flange_a);
    m->connect(motor.flange_b, gear.flange_a);
    m->connect(gear.flange_b, load.flange_a);
    m->connect(load.flange_b, spring.flange_b);
    m->connect(spring.flange_a, ground.flange);
    m->connect(load.flange_b, damper.flange_b);
    m->connect(damper.flange_a, ground.flange);
    m->connect(load.flange_b, drag.flange);
    for (const auto& [name, value] : starts) m->set_start(name, value);
    Simulator sim = m->compile();
    sim.set_parameter("u", u);
    return sim;
  };
  const std::vector<std::pair<std::string, double>> point{{"load.phi", 0.3}, {"load.w", 1.2}};
  SimulationOptions at_start;
  at_start.t_end = 1e-6;
  at_start.output_times = {0.0};
  Simulator sim = build(point, 1.5);
  const Result base = sim.simulate(at_start);
  const LinearModel lin = linearize(sim, base.point(0.0), {}, {"motor.w", "spring.tau"});
  REQUIRE(lin.states.size() == 2);
  INFO("states " << lin.states[0] << ", " << lin.states[1]);
  // State derivatives and outputs at the first row of a run started with the
  // states index reduction chose perturbed (or the input).
  auto first_row = [&](int state, double dx, double du) {
    std::vector<std::pair<std::string, double>> starts;
    for (std::size_t i = 0; i < lin.states.size(); ++i)
      starts.emplace_back(lin.states[i], base[lin.states[i]][0] + (static_cast<int>(i) == state ? dx : 0.0));
    const Result r = build(starts, 1.5 + du).simulate(at_start);
    const CompiledModel& m = *r.model();
    std::vector<double> values;
    for (const auto& x : lin.states)
      values.push_back(r.evaluate(der(Expr(m.dae.variables[m.variable_by_name.at(x)].symbol)))[0]);
    for (const auto& y : lin.outputs) values.push_back(r[y][0]);
    return values;
  };
  const double h = 1e-6;
  for (int j = 0; j <= 2; ++j) {
    const bool input = j == 2;
    const auto plus = first_row(input ? -1 : j, input ? 0.0 : h, input ? h : 0.0);
    const auto minus = first_row(input ? -1 : j, input ? 0.0 : -h, input ? -h : 0.0);
    for (int i = 0; i < 4; ++i) {
      const double fd = (plus[i] - minus[i]) / (2 * h);
      const double exact = i < 2 ? (input ? lin.B(i, 0) : lin.A(i, j)) : (input ? lin.D(i - 2, 0) : lin.C(i - 2, j));
      INFO("row " << i << ", column " << j);
      CHECK(exact == Approx(fd).epsilon(1e-5).margin(1e-7));
    }
  }
}

TEST_CASE("linearize names what it cannot use", "[analysis]") {
  TwoInertias m;
  Simulator sim = m.compile();
  SimulationOptions o;
  o.t_end = 0.5;
  o.output_interval = 0.1;
  Result r = sim.simulate(o);
  CHECK_THROWS_WITH(linearize(r, 0.25), Contains("no row at t = 0.25") && Contains("t_eval"));
  CHECK_THROWS_WITH(linearize(r, 0.5, {"tauu"}), Contains("no input or parameter 'tauu'; did you mean 'tau'"));
  CHECK_THROWS_WITH(linearize(r, 0.5, {}, {"inertia2.ww"}), Contains("did you mean 'inertia2.w'"));
}

namespace {

/// A mass pushed by the model's input force `F` against a quadratic drag.
struct PushedMass : Model {
  RealInput F{*this, "F", {.unit = "N"}};
  PushedMass() : Model("pushed_mass") {
    auto& force = add<translational::Force>("force");
    auto& mass = add<translational::Mass>("mass", {{"m", 2.0}});
    auto& drag = add<translational::QuadraticSpeedDependentForce>("drag", {{"f_nominal", -10.0}, {"v_nominal", 5.0}});
    connect(F, force.f);
    connect(force.flange, mass.flange_a);
    connect(mass.flange_b, drag.flange);
    set_start("mass.s", 0.0);
    set_start("mass.v", 3.0);
  }
};

OperatingPoint initial_point(const Simulator& sim) {
  SimulationOptions o;
  o.t_end = 1e-9;
  o.output_times = {0.0};
  return sim.simulate(o).point(0.0);
}

}  // namespace

TEST_CASE("trim: the force that holds a speed against quadratic drag, the position moving", "[analysis]") {
  PushedMass model;
  Simulator sim = model.compile();
  SteadyStateOptions o;
  o.free = {"F"};
  o.conditions = {{"mass.v", 10.0}};
  SteadyState trim = steady_state(sim, initial_point(sim), o);
  // 10 N at 5 m/s, quadratic: 40 N at 10 m/s.
  REQUIRE(trim.free_values.size() == 1);
  CHECK(trim.free_values[0].second == Approx(40.0).epsilon(1e-10));
  CHECK(trim.moving == std::vector<std::string>{"mass.s"});  // found: no equation reads the position
  CHECK(trim.iterations <= 8);
  // Linearized there: m·dv' = -(2·10·v/5²)·dv + dF.
  LinearModel lin = linearize(sim, trim.point, {}, {"mass.v"});
  const int v = lin.states[0] == "mass.v" ? 0 : 1;
  CHECK(lin.A(v, v) == Approx(-2.0 * 10.0 * 10.0 / 25.0 / 2.0).epsilon(1e-9));
  CHECK(lin.B(v, 0) == Approx(1.0 / 2.0).epsilon(1e-12));
}

TEST_CASE("steady_state names what it cannot solve", "[analysis]") {
  PushedMass model;
  Simulator sim = model.compile();
  const OperatingPoint guess = initial_point(sim);
  SteadyStateOptions wrong_count;
  wrong_count.free = {"F"};
  CHECK_THROWS_WITH(steady_state(sim, guess, wrong_count), Contains("1 free parameter(s) and 0 condition(s)"));
  SteadyStateOptions mass_cannot_set_speed;  // m multiplies an acceleration that is 0 at a steady state
  mass_cannot_set_speed.free = {"mass.m"};
  mass_cannot_set_speed.conditions = {{"mass.v", 10.0}};
  CHECK_THROWS_WITH(steady_state(sim, guess, mass_cannot_set_speed),
                    Contains("singular") && Contains("nothing fixes") && Contains("mass.m"));
  SteadyStateOptions unknown;
  unknown.free = {"FF"};
  unknown.conditions = {{"mass.v", 10.0}};
  CHECK_THROWS_WITH(steady_state(sim, guess, unknown), Contains("no parameter 'FF'; did you mean 'F'"));
  SteadyStateOptions not_a_state;
  not_a_state.moving = {"drag.f"};
  CHECK_THROWS_WITH(steady_state(sim, guess, not_a_state), Contains("'drag.f' in moving is not a state"));
  SteadyStateOptions one_iteration;  // far from the trim: one Newton step is not enough
  one_iteration.free = {"F"};
  one_iteration.conditions = {{"mass.v", 1000.0}};
  one_iteration.max_iterations = 1;
  CHECK_THROWS_WITH(steady_state(sim, guess, one_iteration),
                    Contains("no steady state found after 1 Newton iterations") && Contains("mass.v = 1000"));
  // Issue 30: a NaN condition returned NaN as the answer.
  SteadyStateOptions not_a_number;
  not_a_number.free = {"F"};
  not_a_number.conditions = {{"mass.v", std::nan("")}};
  CHECK_THROWS_WITH(steady_state(sim, guess, not_a_number), Contains("mass.v = nan") && Contains("not finite"));
}

}  // namespace test_analysis
