// Interpolation tables inside expressions (solver/symbolic/table.hpp) and the table
// blocks: values and derivatives against hand formulas, the monotone cubic's
// shape, jumps in time tables hit exactly, a table in a constraint that index
// reduction differentiates, native code, and the 2-D table.
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <vector>

#include "components/blocks/tables/combi_table_1d.hpp"
#include "components/blocks/tables/combi_table_2d.hpp"
#include "components/blocks/continuous/first_order.hpp"
#include "components/blocks/sources/combi_time_table.hpp"
#include "support.hpp"

namespace test_tables {

using namespace acausal;
using test::run_for;

namespace {

double at(const Expr& x, const Table1D& t, double u, int derivative = 0) {
  Expr e = table(x, t);
  for (int k = 0; k < derivative; ++k) e = diff(e, x);
  return evaluate(e, [&](const Node*) { return u; });
}

// The value at the last output row at or before t (after an event at t).
double value_at(const Result& r, const std::string& name, double t) {
  const auto& time = r.time();
  std::size_t k = 0;
  while (k + 1 < r.size() && time[k + 1] <= t + 1e-12) ++k;
  return r[name][k];
}

Table1D column(std::vector<double> x, std::vector<double> y, TableSmoothness s = TableSmoothness::linear,
               TableExtrapolation e = TableExtrapolation::hold) {
  return Table1D{std::move(x), std::move(y), s, e};
}

}  // namespace

TEST_CASE("A linear table interpolates, extrapolates as chosen and differentiates by segment", "[tables]") {
  const Expr x = make_variable_symbol("x");
  Table1D t = column({0, 1, 3}, {1, 3, 2});
  CHECK(at(x, t, 0.5) == Approx(2.0).epsilon(1e-15));
  CHECK(at(x, t, 2.0) == Approx(2.5).epsilon(1e-15));
  CHECK(at(x, t, 0.5, 1) == 2.0);
  CHECK(at(x, t, 2.0, 1) == -0.5);
  CHECK(at(x, t, 2.0, 2) == 0.0);
  CHECK(at(x, t, -1.0) == 1.0);  // hold
  CHECK(at(x, t, 5.0) == 2.0);
  CHECK(at(x, t, 5.0, 1) == 0.0);
  t.extrapolation = TableExtrapolation::linear;
  CHECK(at(x, t, -1.0) == Approx(-1.0).epsilon(1e-15));
  CHECK(at(x, t, 5.0) == Approx(1.0).epsilon(1e-15));
  CHECK(at(x, t, 5.0, 1) == -0.5);
  t.extrapolation = TableExtrapolation::periodic;  // period 3
  CHECK(at(x, t, 3.5) == Approx(at(x, t, 0.5)).epsilon(1e-15));
  CHECK(at(x, t, -2.5) == Approx(at(x, t, 0.5)).epsilon(1e-15));
  CHECK(at(x, t, 8.0, 1) == -0.5);
  t.extrapolation = TableExtrapolation::error;
  CHECK(std::isnan(at(x, t, 3.5)));
  CHECK(at(x, t, 3.0) == 2.0);  // the end itself is inside
  t.smoothness = TableSmoothness::constant;
  t.extrapolation = TableExtrapolation::hold;
  CHECK(at(x, t, 0.99) == 1.0);
  CHECK(at(x, t, 1.0) == 3.0);
  CHECK(at(x, t, 0.5, 1) == 0.0);
}

TEST_CASE("A jump in a table: the later value from the jump on", "[tables]") {
  const Expr x = make_variable_symbol("x");
  const Table1D t = column({0, 1, 1, 2}, {0, 0, 5, 5});
  CHECK(at(x, t, 1.0 - 1e-12) == 0.0);
  CHECK(at(x, t, 1.0) == 5.0);
  CHECK(at(x, t, 1.5) == 5.0);
  CHECK_THROWS_WITH(table(x, column({0, 1, 1, 1}, {0, 1, 2, 3})), Catch::Contains("appears three times"));
  CHECK_THROWS_WITH(table(x, column({0, 2, 1}, {0, 1, 2})), Catch::Contains("must not decrease (row 3"));
  CHECK_THROWS_WITH(table(x, column({0, NAN}, {0, 1})), Catch::Contains("row 2"));
}

TEST_CASE("The monotone cubic passes through the points, keeps monotone data monotone and does not overshoot",
          "[tables]") {
  const Expr x = make_variable_symbol("x");
  // A step-like data set, where a plain cubic spline overshoots.
  const std::vector<double> xs{0, 1, 2, 3, 4, 5, 6}, ys{0, 0, 0.1, 1, 1, 1, 0.5};
  const Table1D t = column(xs, ys, TableSmoothness::monotone_cubic);
  for (std::size_t i = 0; i < xs.size(); ++i) CHECK(at(x, t, xs[i]) == Approx(ys[i]).margin(1e-15));
  double previous = at(x, t, 0.0);
  for (int k = 1; k <= 5000; ++k) {
    const double u = 5.0 * k / 5000, y = at(x, t, u);
    INFO("x = " << u);
    REQUIRE(y >= -1e-15);
    REQUIRE(y <= 1.0 + 1e-15);
    REQUIRE(y >= previous - 1e-15);  // non-decreasing where the data are
    previous = y;
  }
  // Derivatives up to the third against central differences.
  for (double u : {0.3, 1.7, 2.5, 5.4}) {
    for (int k = 0; k < 3; ++k) {
      const double h = 1e-5, fd = (at(x, t, u + h, k) - at(x, t, u - h, k)) / (2 * h);
      INFO("x = " << u << ", derivative " << k + 1);
      CHECK(at(x, t, u, k + 1) == Approx(fd).epsilon(1e-6).margin(1e-8));
    }
  }
  // C1: the slope is continuous across each point.
  for (std::size_t i = 1; i + 1 < xs.size(); ++i)
    CHECK(at(x, t, xs[i] - 1e-9, 1) == Approx(at(x, t, xs[i] + 1e-9, 1)).margin(1e-7));
}

TEST_CASE("A 2-D table is bilinear in each cell, with its partial derivatives", "[tables]") {
  const Expr u = make_variable_symbol("u"), v = make_variable_symbol("v");
  const Table2D t{.u1 = {0, 1, 3}, .u2 = {0, 2}, .y = {0, 2, 1, 5, 3, 3}};
  auto value = [&](const Expr& e, double a, double b) {
    return evaluate(e, [&](const Node* n) { return n == u.node() ? a : b; });
  };
  const Expr f = table(u, v, t);
  // Cell [1, 3] x [0, 2] at (2, 1): s = r = 0.5.
  const double y00 = 1, y01 = 5, y10 = 3, y11 = 3;
  CHECK(value(f, 2, 1) == Approx(0.25 * (y00 + y01 + y10 + y11)).epsilon(1e-15));
  CHECK(value(diff(f, u), 2, 1) == Approx((0.5 * (y10 - y00) + 0.5 * (y11 - y01)) / 2.0).epsilon(1e-15));
  CHECK(value(diff(f, v), 2, 1) == Approx((0.5 * (y01 - y00) + 0.5 * (y11 - y10)) / 2.0).epsilon(1e-15));
  CHECK(value(diff(diff(f, u), v), 2, 1) == Approx((y11 - y10 - y01 + y00) / 4.0).epsilon(1e-15));
  CHECK(value(f, 5, 1) == value(f, 3, 1));  // hold
  CHECK(value(diff(f, u), 5, 1) == 0.0);
  CHECK_THROWS_WITH(table(u, v, Table2D{.u1 = {0, 1}, .u2 = {0, 2}, .y = {1, 2, 3}}),
                    Catch::Contains("3 values for a 2 x 2 grid"));
}

namespace {

// A cam: the follower's angle is a table of the driver's, phi_b = f(phi_a).
// Index reduction differentiates the constraint twice, so the table's first
// and second derivatives enter the equations.
struct Cam : Component {
  rotational::Flange flange_a{*this, "flange_a"}, flange_b{*this, "flange_b"};
  explicit Cam(std::string name, const Table1D& profile) : Component(std::move(name)) {
    equation(flange_b.phi == table(flange_a.phi, profile));
    // Ideal and lossless: the power in is the power out.
    equation(flange_a.tau * der(flange_a.phi) + flange_b.tau * der(flange_b.phi) == 0.0);
  }
};

}  // namespace

TEST_CASE("A table in a constraint that index reduction differentiates: a cam conserves energy", "[tables][index]") {
  // phi_b = phi_a + 0.3·sin(phi_a) sampled every 0.5 rad: the monotone cubic is C1, so the follower's speed
  // f'(phi_a)·w_a is continuous and the kinetic energy is conserved.
  Table1D profile = column({}, {}, TableSmoothness::monotone_cubic, TableExtrapolation::linear);
  for (int i = 0; i <= 20; ++i) profile.x.push_back(0.5 * i), profile.y.push_back(0.5 * i + 0.3 * std::sin(0.5 * i));
  Model m("cam");
  auto& driver = m.add<rotational::Inertia>("driver", {{"J", 1.0}});
  auto& follower = m.add<rotational::Inertia>("follower", {{"J", 0.5}});
  auto& cam = static_cast<Cam&>(m.add_component(std::make_unique<Cam>("cam", profile)));
  m.connect(driver.flange_b, cam.flange_a);
  m.connect(cam.flange_b, follower.flange_a);
  m.set_start("driver.phi", 0.2);
  m.set_start("driver.w", 3.0);
  Simulator sim = m.compile();
  CHECK(sim.report().count("index_reduction", "differentiated_equations") > 0);
  Result r = sim.simulate(run_for(2.5, 0.01, 1e-9));
  auto w_a = r["driver.w"], w_b = r["follower.w"], phi_a = r["driver.phi"], phi_b = r["follower.phi"];
  const Expr x = make_variable_symbol("x");
  const double E0 = 0.5 * 1.0 * w_a[0] * w_a[0] + 0.5 * 0.5 * w_b[0] * w_b[0];
  double worst_energy = 0, worst_constraint = 0;
  for (std::size_t k = 0; k < r.size(); ++k) {
    worst_energy = std::max(worst_energy, std::fabs(0.5 * w_a[k] * w_a[k] + 0.25 * w_b[k] * w_b[k] - E0) / E0);
    worst_constraint = std::max(worst_constraint, std::fabs(phi_b[k] - at(x, profile, phi_a[k])));
  }
  CHECK(phi_a.back() > 6.0);  // across a dozen of the profile's points
  CHECK(worst_energy < 1e-6);
  CHECK(worst_constraint < 1e-9);
}

TEST_CASE("CombiTimeTable: jumps are events at their exact time, every smoothness and extrapolation", "[tables]") {
  auto run = [](int smoothness, int extrapolation, double shift = 0.0, double t_end = 4.0) {
    Model m("time_table");
    auto& table = m.add<blocks::CombiTimeTable>(
        "table", {{"smoothness", smoothness}, {"extrapolation", extrapolation}, {"shiftTime", shift}, {"offset", 0.5}});
    table.set_table({{0, 0, 1}, {1, 2, 1}, {1, 4, 3}, {2, 4, 3}, {3, 1, 0}});
    auto& integral = m.add<blocks::Integrator>("integral");
    m.connect(*table.y[0], integral.u);
    SimulationOptions o = run_for(t_end, 0.25, 1e-10);
    return m.compile().simulate(o);
  };
  using blocks::Extrapolation, blocks::Smoothness;
  // Linear: ∫0..3 = 1 + 4 + 2.5 = 7.5, plus the offset 0.5·3; at the jump (t = 1) the later value.
  Result r = run(Smoothness::LinearSegments, Extrapolation::HoldLastPoint);
  CHECK(value_at(r, "integral.y", 3.0) == Approx(7.5 + 1.5).epsilon(1e-9));  // t = 3
  CHECK(value_at(r, "table.y1", 1.0) == Approx(4.5).epsilon(1e-15));         // t = 1: 4 + offset
  CHECK(value_at(r, "table.y2", 0.5) == Approx(1.5).epsilon(1e-15));         // t = 0.5
  CHECK(value_at(r, "table.y1", 4.0) == Approx(1.5).epsilon(1e-15));        // t = 4: held
  CHECK(r.event_times().size() >= 3);
  // Constant segments: ∫0..3 = 0 + 4 + 4 = 8.
  r = run(Smoothness::ConstantSegments, Extrapolation::HoldLastPoint);
  CHECK(value_at(r, "integral.y", 3.0) == Approx(8.0 + 1.5).epsilon(1e-9));
  // Last two points: the slope -3 continues past t = 3; ∫3..4 = 1 - 1.5 = -0.5.
  r = run(Smoothness::LinearSegments, Extrapolation::LastTwoPoints);
  CHECK(value_at(r, "table.y1", 4.0) == Approx(-2.0 + 0.5).epsilon(1e-12));
  CHECK(value_at(r, "integral.y", 4.0) == Approx(7.5 - 0.5 + 2.0).epsilon(1e-9));
  // Periodic (period 3): t = 3.5 reads t = 0.5; shifted by 1 s, t = 1.5 reads 0.5.
  r = run(Smoothness::LinearSegments, Extrapolation::Periodic, 0.0, 7.0);
  CHECK(value_at(r, "table.y1", 3.5) == Approx(1.0 + 0.5).epsilon(1e-12));
  CHECK(value_at(r, "integral.y", 6.0) == Approx(2 * (7.5 + 1.5)).epsilon(1e-9));
  r = run(Smoothness::LinearSegments, Extrapolation::HoldLastPoint, 1.0);
  CHECK(value_at(r, "table.y1", 1.5) == Approx(1.0 + 0.5).epsilon(1e-12));
  // The monotone cubic through the same points: the integral of the cubic
  // Hermite pieces is (y0 + y1)·h/2 + (m0 - m1)·h²/12 per segment.
  r = run(Smoothness::MonotoneContinuousDerivative1, Extrapolation::HoldLastPoint);
  CHECK(value_at(r, "table.y1", 1.0) == Approx(4.5).epsilon(1e-12));
}

TEST_CASE("CombiTimeTable: breakpoints are time events, hit exactly without a root function", "[tables]") {
  // A lag T·y' = u - y behind a 1 Hz trace. Linear segments kink y' at each
  // breakpoint; constant segments make it jump. Closed form per segment, with
  // u = a + b·s (s from the segment's start):
  // y = a + b·(s - T) + (y_k - a + b·T)·e^(-s/T).
  const std::vector<std::vector<double>> trace = {{0, 0}, {1, 2}, {2, -1}, {3, 3}, {4, 0.5}, {5, 1}, {6, 1}, {7, -2}};
  constexpr double T = 0.4;
  auto closed_form = [&](double t, bool linear) {
    double y = 0.0;
    for (std::size_t k = 0; k + 1 < trace.size(); ++k) {
      const double t0 = trace[k][0], a = trace[k][1];
      const double b = linear ? (trace[k + 1][1] - a) / (trace[k + 1][0] - t0) : 0.0;
      const double s = std::min(t, trace[k + 1][0]) - t0;
      y = a + b * (s - T) + (y - a + b * T) * std::exp(-s / T);
      if (t <= trace[k + 1][0]) break;
    }
    return y;
  };
  for (const int smoothness : {blocks::Smoothness::LinearSegments, blocks::Smoothness::ConstantSegments}) {
    const bool linear = smoothness == blocks::Smoothness::LinearSegments;
    CAPTURE(linear);
    Model m("traced_lag");
    auto& table = m.add<blocks::CombiTimeTable>("trace", {{"smoothness", smoothness}});
    table.set_table(trace);
    auto& lag = m.add<blocks::FirstOrder>("lag", {{"T", T}});
    m.connect(*table.y[0], lag.u);
    Result r = m.compile().simulate(run_for(7.0, 0.01, 1e-8));
    // Before: the breakpoint (time >= pre(next_breakpoint)) was a root
    // function, located after a step past it.
    CHECK(r.statistics().root_functions == 0);
    for (int k = 1; k <= 6; ++k)
      CHECK(std::count(r.event_times().begin(), r.event_times().end(), static_cast<double>(k)) == 1);
    double worst = 0.0;
    const auto y = r["lag.y"];
    for (std::size_t i = 0; i < r.size(); ++i) worst = std::max(worst, std::fabs(y[i] - closed_form(r.time()[i], linear)));
    CHECK(worst < 1e-6);  // of values up to 2.5, at rtol 1e-8
  }
}

TEST_CASE("CombiTable1D of a state: a spring with a tabulated characteristic oscillates at constant energy",
          "[tables]") {
  // Force table f(s) = -k·s·(1 + s²) sampled finely, monotone cubic: the
  // potential energy is the integral of the interpolant, so check the
  // energy with the same table's integral by the trapezoid on a fine grid.
  Model m("spring");
  auto& mass = m.add<translational::Mass>("mass", {{"m", 2.0}});
  auto& characteristic = m.add<blocks::CombiTable1D>("characteristic", {{"smoothness", 2}});
  std::vector<std::vector<double>> rows;
  for (int i = -20; i <= 20; ++i) {
    const double s = 0.1 * i;
    rows.push_back({s, -100.0 * s * (1 + s * s)});
  }
  characteristic.set_table(rows);
  auto& sensor = m.add<translational::PositionSensor>("sensor");
  auto& force = m.add<translational::Force>("force");
  m.connect(mass.flange_b, sensor.flange);
  m.connect(sensor.s, characteristic.u);
  m.connect(*characteristic.y[0], force.f);
  m.connect(force.flange, mass.flange_a);
  m.set_start("mass.s", 1.0);
  m.set_start("mass.v", 0.0);
  Result r = m.compile().simulate(run_for(3.0, 0.001, 1e-10));
  auto s = r["mass.s"], v = r["mass.v"];
  CHECK(*std::min_element(s.begin(), s.end()) == Approx(-1.0).margin(1e-6));  // symmetric force: back to -1
  const double max_speed = *std::max_element(v.begin(), v.end());
  // ½·m·v_max² = ∫0..1 of the interpolated force; Simpson on the cubic pieces is exact.
  const Expr x = make_variable_symbol("x");
  Table1D t;
  for (const auto& row : rows) t.x.push_back(row[0]), t.y.push_back(-row[1]);
  t.smoothness = TableSmoothness::monotone_cubic;
  double work = 0;
  for (int i = 0; i < 10; ++i) {
    const double a = 0.1 * i, b = a + 0.1;
    work += (b - a) / 6 * (at(x, t, a) + 4 * at(x, t, 0.5 * (a + b)) + at(x, t, b));
  }
  CHECK(0.5 * 2.0 * max_speed * max_speed == Approx(work).epsilon(1e-5));
}

TEST_CASE("Tables in native code evaluate as in the tape", "[tables][native]") {
  Model m("tables");
  auto& cycle = m.add<blocks::CombiTimeTable>("cycle", {{"smoothness", 2}});
  cycle.set_table({{0, 0}, {1, 1}, {2, 0.5}, {2, 3}, {3, 0}});
  auto& integral = m.add<blocks::Integrator>("integral");
  m.connect(*cycle.y[0], integral.u);
  CompileOptions native;
  native.native_code = true;
  native.native.cache_directory = (std::filesystem::temp_directory_path() / "acausal-test-tables").string();
  const Result a = m.compile().simulate(run_for(3.0, 0.1)), b = m.compile(native).simulate(run_for(3.0, 0.1));
  REQUIRE(a.size() == b.size());
  CHECK(a["integral.y"] == b["integral.y"]);
  CHECK(a["cycle.y1"] == b["cycle.y1"]);
  std::filesystem::remove_all(native.native.cache_directory);
}

TEST_CASE("The smooth 2-D table passes through the grid, is C1 and reproduces a quadratic surface inside",
          "[tables]") {
  const Expr u = make_variable_symbol("u"), v = make_variable_symbol("v");
  // f = u² + u·v on a uniform grid: centred differences give the exact slopes of a
  // quadratic inside, so the interpolant reproduces f in the interior cells.
  Table2D t{.u1 = {0, 1, 2, 3, 4}, .u2 = {0, 1, 2, 3}, .smoothness = TableSmoothness::monotone_cubic};
  for (double a : t.u1)
    for (double b : t.u2) t.y.push_back(a * a + a * b);
  const Expr f = table(u, v, t);
  auto value = [&](const Expr& e, double a, double b) {
    return evaluate(e, [&](const Node* n) { return n == u.node() ? a : b; });
  };
  for (double a : t.u1)
    for (double b : t.u2) CHECK(value(f, a, b) == Approx(a * a + a * b).margin(1e-12));
  CHECK(value(f, 1.5, 1.5) == Approx(1.5 * 1.5 + 1.5 * 1.5).epsilon(1e-12));
  CHECK(value(diff(f, u), 1.5, 1.5) == Approx(2 * 1.5 + 1.5).epsilon(1e-12));
  CHECK(value(diff(f, v), 1.5, 1.5) == Approx(1.5).epsilon(1e-12));
  CHECK(value(diff(diff(f, u), v), 1.5, 1.5) == Approx(1.0).epsilon(1e-12));
  // C1 across a grid line, and partials against central differences.
  const double h = 1e-6;
  CHECK(value(diff(f, u), 2.0 - 1e-9, 0.7) == Approx(value(diff(f, u), 2.0 + 1e-9, 0.7)).epsilon(1e-7));
  for (auto [a, b] : {std::pair{0.3, 2.6}, std::pair{3.7, 0.2}})
    CHECK(value(diff(f, u), a, b) == Approx((value(f, a + h, b) - value(f, a - h, b)) / (2 * h)).epsilon(1e-6));
  CHECK_THROWS_WITH(table(u, v, Table2D{.u1 = {0, 1}, .u2 = {0, 1}, .y = {0, 0, 0, 0},
                                        .smoothness = TableSmoothness::constant}),
                    Catch::Contains("not constant"));
}

TEST_CASE("Tables from files: an abscissa out of order is named by file and line", "[tables]") {
  const std::string file = (std::filesystem::path(__FILE__).parent_path() / "data" / "tables" / "unsorted.csv").string();
  Model m("maps");
  CHECK_THROWS_WITH(m.add<blocks::CombiTable1D>("curve").load(file, "", "rpm"),
                    Catch::Contains("unsorted.csv:5: rpm 1500 does not increase on the row above's (2000)"));
  CHECK_THROWS_WITH(m.add<blocks::CombiTimeTable>("trace").load(file),
                    Catch::Contains("unsorted.csv:5: rpm 1500 is below the row above's (2000)"));
}

TEST_CASE("CombiTimeTable: rows all at one time are refused, naming the table", "[tables]") {
  // Two rows at t = 0 have no segment and no two points to extrapolate from;
  // they gave a NaN that the solver blamed on the Integrator reading the table.
  Model m("time_table");
  auto& table = m.add<blocks::CombiTimeTable>("trace");
  CHECK_THROWS_WITH(table.set_table({{0, 1}, {0, 2}}),
                    Catch::Contains("CombiTimeTable 'trace'") && Catch::Contains("all 2 rows are at time 0") &&
                        Catch::Contains("needs a second, different time"));
  const auto file = std::filesystem::temp_directory_path() / "acausal_one_time.csv";
  std::ofstream(file) << "time,y\n2.5,1\n2.5,2\n";
  CHECK_THROWS_WITH(m.add<blocks::CombiTimeTable>("from_file").load(file.string()),
                    Catch::Contains("CombiTimeTable 'from_file'") && Catch::Contains("all 2 rows are at time 2.5"));
  std::filesystem::remove(file);
}

TEST_CASE("CombiTimeTable: a jump at the table's first time, every smoothness", "[tables]") {
  // The segment before the first event named the jump's segment of no length,
  // whose slope is 0/0: the linear and cubic tables did not initialize.
  using blocks::Smoothness;
  for (int smoothness :
       {Smoothness::LinearSegments, Smoothness::ConstantSegments, Smoothness::MonotoneContinuousDerivative1}) {
    INFO("smoothness " << smoothness);
    Model m("time_table");
    auto& table = m.add<blocks::CombiTimeTable>("table", {{"smoothness", smoothness}});
    table.set_table({{0, 1}, {0, 2}, {1, 3}});
    auto& integral = m.add<blocks::Integrator>("integral");
    m.connect(*table.y[0], integral.u);
    const Result r = m.compile().simulate(run_for(1.0, 0.25, 1e-10));
    CHECK(value_at(r, "table.y1", 0.0) == Approx(2.0).epsilon(1e-12));  // the jump's later value
    // Linear and the cubic (one segment: its slopes are the secant's) ∫0..1 = 2.5; constant: 2.
    const double area = smoothness == Smoothness::ConstantSegments ? 2.0 : 2.5;
    CHECK(value_at(r, "integral.y", 1.0) == Approx(area).epsilon(1e-9));
  }
}

}  // namespace test_tables
