// FMUComponent: an FMU exported by this library imported back into another
// model, against the original equations run in the same model.
#include "tests/fmi/fmi_support.hpp"
#include "tests/fmi/reference_models.hpp"

#include <thread>

namespace test_fmi_import {

using namespace acausal;
using namespace acausal::test;

namespace {

/// A mass on a spring and damper driven by a force input: the plant exported.
struct SpringMass : Component {
  RealInput F{*this, "F"};
  RealOutput x{*this, "x"};
  RealOutput v{*this, "v"};
  Parameter m = parameter("m", 1.0, {.unit = "kg", .min = 1e-6});
  Parameter k = parameter("k", 40.0, {.unit = "N/m"});
  Parameter d = parameter("d", 0.8, {.unit = "N.s/m"});
  Variable s = variable("s", {.unit = "m", .start = 0.1, .fixed = true});
  Variable w = variable("w", {.unit = "m/s", .start = 0.0, .fixed = true});
  explicit SpringMass(std::string name) : Component(std::move(name)) {
    equation(der(s) == w);
    equation(m * der(w) == F - k * s - d * w);
    equation(x == s);
    equation(v == w);
  }
};

/// The plant as a model of its own: its top-level input and outputs are the FMU's.
struct SpringMassModel : Model {
  RealInput F{*this, "F"};
  RealOutput x{*this, "x"};
  RealOutput v{*this, "v"};
  SpringMassModel() : Model("SpringMass") {
    auto& plant = add<SpringMass>("plant");
    connect(F, plant.F);
    connect(plant.x, x);
    connect(plant.v, v);
  }
};

constexpr double kStep = 0.01;

const TemporaryFmu& spring_mass_fmu() {
  static const SpringMassModel model;
  static const TemporaryFmu fmu(model.compile(), "spring_mass_import", {.tolerance = 1e-10});
  return fmu;
}

/// The FMU and the same plant side by side, one force step driving both; the
/// original's x and v sampled at the FMU's communication points.
Simulator round_trip(FmuInterface interface = FmuInterface::automatic) {
  Model m("RoundTrip");
  auto& force = m.add<blocks::Step>("force", {{"height", 10.0}, {"startTime", 0.5}});
  auto& fmu = m.add<FMUComponent>("fmu", {}, spring_mass_fmu().path(),
                                  FmuImportOptions{.step_size = kStep, .interface = interface});
  auto& original = m.add<SpringMass>("original");
  auto& x_sampled = m.add<blocks::Sampler>("x_sampled", {{"samplePeriod", kStep}});
  auto& v_sampled = m.add<blocks::Sampler>("v_sampled", {{"samplePeriod", kStep}});
  m.connect(force.y, fmu.port_of("F"));
  m.connect(force.y, original.F);
  m.connect(original.x, x_sampled.u);
  m.connect(original.v, v_sampled.u);
  return m.compile();
}

SimulationOptions tight(double t_end) {
  SimulationOptions options;
  options.t_end = t_end;
  options.rtol = 1e-10;
  options.atol = 1e-12;
  options.output_interval = 0.0137;  // off the communication points: rows inside the hold intervals
  return options;
}

/// The largest difference between columns a and b, relative to the range of b.
double largest_difference(const Result& r, const std::string& a, const std::string& b) {
  const auto& x = r[a];
  const auto& y = r[b];
  double largest = 0;
  for (std::size_t i = 0; i < x.size(); ++i) largest = std::max(largest, std::fabs(x[i] - y[i]));
  const double range = *std::max_element(y.begin(), y.end()) - *std::min_element(y.begin(), y.end());
  REQUIRE(range > 0.1);  // the plant moves: not a comparison of two constants
  return largest / range;
}

}  // namespace

TEST_CASE("FMUComponent: the exported plant imported back holds the original's values at every communication point",
          "[fmi][import]") {
  // Co-Simulation: the FMU's IDA; Model Exchange: the importer's CVODE, both at the FMU's tolerance 1e-10.
  const FmuInterface interface = GENERATE(FmuInterface::co_simulation, FmuInterface::model_exchange);
  INFO((interface == FmuInterface::co_simulation ? "Co-Simulation" : "Model Exchange"));
  Simulator sim = round_trip(interface);
  Result r = sim.simulate(tight(2.0));
  REQUIRE(r.time().size() > 100);
  // Inputs are set before outputs are read and the FMU steps: with the force
  // stepping at a communication point, the zero-order hold the FMU sees is
  // exact, and what remains is the two integrators' error (the FMU's atol is its default 1e-8).
  CHECK(largest_difference(r, "fmu.x", "x_sampled.y") < 1e-6);
  CHECK(largest_difference(r, "fmu.v", "v_sampled.y") < 1e-6);

  SECTION("the component's parameters reach the FMU") {
    sim.set_parameter("fmu.plant_k", 20.0);
    sim.set_parameter("original.k", 20.0);
    Result softer = sim.simulate(tight(2.0));
    CHECK(largest_difference(softer, "fmu.x", "x_sampled.y") < 1e-6);
    CHECK(largest_difference(softer, "fmu.v", "v_sampled.y") < 1e-6);
    CHECK(std::fabs(softer["fmu.x"].back() - r["fmu.x"].back()) > 1e-3);
  }
  SECTION("each run instantiates the FMU afresh, also from two threads at once") {
    Result again = sim.simulate(tight(2.0));
    CHECK(again["fmu.x"] == r["fmu.x"]);
    Result first, second;
    std::thread a([&] { first = sim.simulate(tight(2.0)); });
    std::thread b([&] { second = sim.simulate(tight(2.0)); });
    a.join();
    b.join();
    CHECK(first["fmu.x"] == r["fmu.x"]);
    CHECK(second["fmu.x"] == r["fmu.x"]);
  }
}

TEST_CASE("FMUComponent: an output that depends directly on an input sees the input at the communication point",
          "[fmi][import]") {
  const TemporaryFmu file(Feedthrough().compile(), "feedthrough_import");
  Model host("Host");
  auto& ramp = host.add<blocks::Ramp>("ramp", {{"height", 3.0}, {"duration", 1.0}});
  auto& w = host.add<blocks::Constant>("w");
  auto& fmu = host.add<FMUComponent>("fmu", {}, file.path(), FmuImportOptions{.step_size = 0.1});
  host.connect(ramp.y, fmu.port_of("u"));
  host.connect(w.y, fmu.port_of("w"));
  SimulationOptions options;
  options.t_end = 1.0;
  options.output_interval = 0.05;
  Result r = host.compile().simulate(options);
  const auto& t = r.time();
  const auto& y = r["fmu.y"];
  int held_rows = 0;
  for (std::size_t i = 0; i < t.size(); ++i) {
    // Rows between communication points hold 2·u(t_k), t_k = 0.1·floor(t/0.1).
    if (std::fabs(t[i] / 0.1 - std::round(t[i] / 0.1)) < 1e-6) continue;
    const double t_k = 0.1 * std::floor(t[i] / 0.1);
    INFO("t = " << t[i]);
    CHECK(y[i] == Approx(2 * 3.0 * std::min(t_k, 1.0)).margin(1e-9));
    ++held_rows;
  }
  CHECK(held_rows >= 9);
}

TEST_CASE("FMUComponent: a bouncing ball's impacts are handled inside the FMU, in either interface",
          "[fmi][import]") {
  const double g = 9.81, e = 0.7, h0 = 1.0, step = 0.01;
  const TemporaryFmu file(BouncingBallFmu().compile(), "bouncing_ball_import", {.tolerance = 1e-10});
  const FmuInterface interface = GENERATE(FmuInterface::co_simulation, FmuInterface::model_exchange);
  INFO((interface == FmuInterface::co_simulation ? "Co-Simulation" : "Model Exchange"));
  Model host("BallHost");
  host.add<FMUComponent>("ball", {}, file.path(), FmuImportOptions{.step_size = step, .interface = interface});
  SimulationOptions options;
  // Before the eighth impact (2.386 s): the impacts accumulate at 2.558 s, which
  // the FMU's Zeno detector foresees once it has seen nine of them.
  options.t_end = 2.35;
  options.output_interval = 0.0137;
  Result r = host.compile().simulate(options);
  const auto& t = r.time();
  const auto height = r["ball.height"];
  double worst = 0;
  int rows = 0;
  for (std::size_t i = 0; i < t.size(); ++i) {
    const double k = std::floor(t[i] / step + 1e-9);
    if (std::fabs(t[i] / step - std::round(t[i] / step)) < 1e-6) continue;  // both sides of a communication point
    worst = std::max(worst, std::fabs(height[i] - bouncing_ball_height(k * step, g, e, h0)));
    ++rows;
  }
  CHECK(rows > 150);
  CHECK(worst < 1e-5);
  // Five bounces inside the run: the held speed changes sign upward five times.
  const auto v = r["ball.speed"];
  int bounces = 0;
  for (std::size_t i = 1; i < v.size(); ++i) bounces += v[i - 1] < 0 && v[i] > 0;
  CHECK(bounces >= 5);
}

TEST_CASE("FMUComponent: Integer and Boolean outputs become Integer and Boolean connectors", "[fmi][import]") {
  const TemporaryFmu file(Stair().compile(), "stair_import");
  Model host("StairHost");
  auto& stair = host.add<FMUComponent>("stair", {}, file.path(), FmuImportOptions{.step_size = 0.25});
  CHECK(stair.port_of("n").type() == "signal.Integer");
  CHECK(stair.port_of("odd").type() == "signal.Boolean");
  CHECK(stair.port_of("y").type() == "signal.Real");
  // An Integer output drives a library block's Integer input.
  auto& as_real = host.add<blocks::IntegerToReal>("as_real");
  host.connect(stair.port_of("n"), as_real.u);
  SimulationOptions options;
  options.t_end = 5.0;
  options.output_interval = 0.1;
  Result r = host.compile().simulate(options);
  const auto& t = r.time();
  const auto n = r["stair.n"], odd = r["stair.odd"], y = r["as_real.y"];
  int rows = 0;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (std::fabs(t[i] / 0.25 - std::round(t[i] / 0.25)) < 1e-6) continue;
    const double t_k = 0.25 * std::floor(t[i] / 0.25);
    INFO("t = " << t[i]);
    CHECK(n[i] == std::floor(t_k));
    CHECK(y[i] == std::floor(t_k));
    CHECK(odd[i] == static_cast<double>(static_cast<long>(std::floor(t_k)) % 2));
    ++rows;
  }
  CHECK(rows >= 30);
}

TEST_CASE("FMUComponent: what cannot be imported or done is refused with the component named", "[fmi][import]") {
  CHECK_THROWS_WITH(FMUComponent("engine", "/nonexistent/engine.fmu"),
                    Catch::Contains("FMUComponent 'engine'") && Catch::Contains("/nonexistent/engine.fmu"));
  CHECK_THROWS_WITH(FMUComponent("engine", spring_mass_fmu().path(), {.step_size = 0}),
                    Catch::Contains("FMUComponent 'engine'") && Catch::Contains("step_size"));
  FMUComponent fmu("engine", spring_mass_fmu().path());
  CHECK_THROWS_WITH(fmu.port_of("G"), Catch::Contains("'G'") && Catch::Contains("'F'"));

  Simulator sim = round_trip();
  const std::string path = (std::filesystem::temp_directory_path() / "nested_import.fmu").string();
  CHECK_THROWS_WITH(export_fmu(sim, path), Catch::Contains("imported FMU"));
  SimulationOptions options;
  options.t_end = 0.1;
  Session session = sim.start(options);
  session.advance(0.05);
  const SessionState state = session.state();
  CHECK_THROWS_WITH(session.set_state(state), Catch::Contains("imported FMU"));
  options.sensitivities = {"original.k"};
  CHECK_THROWS_WITH(sim.simulate(options), Catch::Contains("external call"));
}

}  // namespace test_fmi_import
