// The shipped drive cycles against their published figures (data/cycles/SOURCE.md),
// and the DriveCycle source: speed, acceleration and look-ahead.
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>

#include <cmath>
#include <string>

#include "components/vehicle/road/drive_cycle.hpp"
#include "harness/cycle.hpp"
#include "support.hpp"

namespace test_drive_cycle {

using namespace acausal;

namespace {

struct Figures {
  const char* name;
  double duration;     // s
  double distance;     // km, the trapezoid over the file (SOURCE.md, "computed", 4 decimals)
  double published;    // km, the published distance
  double rounding;     // km, the published figure's last digit
  double max_speed;    // km/h
};

// SOURCE.md's summary: published by UN GTR 15, UNECE R83 and the EPA; computed from the files.
const Figures cycles[] = {
    {"wltc3b", 1800, 23.2663, 23.266, 0.001, 131.3}, {"nedc", 1180, 11.0132, 11.007, 0.007, 120.0},
    {"udds", 1369, 11.9902, 11.99, 0.01, 91.2498},   {"ftp75", 1874, 17.7694, 17.77, 0.01, 91.2498},
    {"hwfet", 765, 16.5065, 16.51, 0.01, 96.39971},  {"us06", 600, 12.8876, 12.8, 0.1, 129.2304}};

}  // namespace

TEST_CASE("Each shipped cycle has its published duration, distance and top speed", "[vehicle][cycle]") {
  for (const Figures& f : cycles) {
    INFO(f.name);
    Model m("cycle");
    auto& cycle = m.add<vehicle::DriveCycle>("cycle");
    cycle.set_cycle(f.name);
    auto& distance = m.add<blocks::Integrator>("distance");
    m.connect(cycle.v_ref, distance.u);
    Result r = m.compile().simulate(test::run_for(cycle.duration, 1.0, 1e-8));
    CHECK(cycle.duration == f.duration);
    // The speed is linear between the points, so its integral is the trapezoid sum.
    const double km = r["distance.y"].back() / 1000;
    CHECK(km == Approx(f.distance).margin(0.5e-4));
    CHECK(std::fabs(km - f.published) <= f.rounding);
    double top = 0;
    for (double v : r["cycle.v_ref"]) top = std::max(top, v * 3.6);
    CHECK(top == Approx(f.max_speed).margin(1e-4));
  }
  CHECK_THROWS_WITH(vehicle::drive_cycle_file("wltp"), Catch::Contains("the shipped cycles are wltc3b, nedc"));
}

TEST_CASE("DriveCycle: acceleration is the trace's slope, the preview reads ahead, the ends hold", "[vehicle][cycle]") {
  Model m("cycle");
  auto& cycle = m.add<vehicle::DriveCycle>("cycle", {{"preview", 2.0}});
  cycle.set_table({{0, 0}, {10, 20}, {20, 20}, {25, 0}});
  auto& distance = m.add<blocks::Integrator>("distance");
  m.connect(cycle.v_ref, distance.u);
  Result r = m.compile().simulate(test::run_for(30.0, 0.5, 1e-10));
  auto at = [&](const char* name, double t) {
    std::size_t k = 0;
    while (k + 1 < r.size() && r.time()[k + 1] <= t + 1e-12) ++k;
    return r[name][k];
  };
  CHECK(at("cycle.a_ref", 5.0) == Approx(2.0).epsilon(1e-12));
  CHECK(at("cycle.a_ref", 15.0) == Approx(0.0).margin(1e-12));
  CHECK(at("cycle.a_ref", 22.0) == Approx(-4.0).epsilon(1e-12));
  CHECK(at("cycle.a_ref", 28.0) == 0.0);
  CHECK(at("cycle.v_preview", 9.0) == Approx(20.0).epsilon(1e-12));  // 11 s: on the plateau
  CHECK(at("cycle.v_preview", 21.0) == Approx(8.0).epsilon(1e-12));  // 23 s: on the way down
  CHECK(at("cycle.v_ref", 28.0) == 0.0);
  CHECK(at("distance.y", 30.0) == Approx(100 + 200 + 50).epsilon(1e-9));
  CHECK_THROWS_WITH(m.add<vehicle::DriveCycle>("bad").load("no_such.csv"), Catch::Contains("no_such.csv"));
}

TEST_CASE("The WLTC run: the driver stays in the tolerance band, fuel is reported, the energy split closes",
          "[vehicle][cycle][integration][long]") {
  Model m("wltc");
  harness::CycleTest test = harness::cycle_test(m, "wltc3b");
  SimulationOptions options = test::run_for(test.cycle.duration, 0.1, 1e-6);
  options.atol = 1e-6;
  options.linear_solver = LinearSolver::klu;
  Result r = m.compile().simulate(options);
  const harness::CycleReport report = harness::cycle_report(r, test);
  INFO(report.line());
  // The regulation's band: ±2 km/h around the trace's extremes within ±1 s.
  CHECK(report.band.inside());
  CHECK(report.distance == Approx(23.2663).epsilon(0.002));
  // A 1250 kg compact with a 1.6 L-class map: measured 6.53 L/100 km; a
  // plausible range, not a fit to a car.
  CHECK(report.fuel_per_100km > 4.0);
  CHECK(report.fuel_per_100km < 9.0);
  CHECK(report.co2 == Approx(report.fuel * 1000 * 3.17 / report.distance).epsilon(1e-12));
  // Where the fuel went adds up to the fuel's energy (the energy books of every part).
  CHECK(report.split_closure < 1e-3);
  double engine = 0;
  for (const auto& [name, value] : report.energy_split)
    if (name == "engine") engine = value;
  CHECK(engine / report.fuel_energy > 0.6);  // most of it is heat in the engine
  CHECK(test.books.model_closes(1e-4).evaluate(r).passed);
}

}  // namespace test_drive_cycle
