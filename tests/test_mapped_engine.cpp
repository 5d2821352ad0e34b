// vehicle::MappedEngine: torque from its curves, fuel from its BSFC map (by a
// hand bilinear interpolation), closed energy books, the idle governor, the
// rev limiter and the errors of bad maps.
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include <acausal/harness/energy.hpp>

#include "components/vehicle/engines/mapped_engine.hpp"
#include "support.hpp"

namespace test_mapped_engine {

using namespace acausal;
using vehicle::MappedEngine;
using test::run_for;

namespace {

constexpr double kRpm = 30.0 / std::numbers::pi;  // rpm per rad/s

double relative_error(double value, double expected) { return std::fabs(value - expected) / std::fabs(expected); }

// A small map with uneven cells, all above the thermodynamic limit (83.7 g/kWh).
const std::vector<double> kMapRpm{1000, 2000, 3500};
const std::vector<double> kMapTorque{0, 40, 100, 180};
const std::vector<std::vector<double>> kMap{{400, 300, 260, 280}, {380, 280, 240, 255}, {420, 310, 265, 290}};

double interpolate(const std::vector<double>& axis, double x, std::size_t& i) {
  i = std::min<std::size_t>(std::upper_bound(axis.begin(), axis.end(), x) - axis.begin() - 1, axis.size() - 2);
  return (x - axis[i]) / (axis[i + 1] - axis[i]);
}

// The map's value by hand, bilinear (inside the grid).
double map_by_hand(double rpm, double torque) {
  std::size_t i, j;
  const double s = interpolate(kMapRpm, rpm, i), r = interpolate(kMapTorque, torque, j);
  return (1 - s) * (1 - r) * kMap[i][j] + s * (1 - r) * kMap[i + 1][j] + (1 - s) * r * kMap[i][j + 1] +
         s * r * kMap[i + 1][j + 1];
}

// Linear curves, so the torque is known by hand between the points.
const std::vector<std::pair<double, double>> kFullLoad{{1000, 100}, {3000, 150}, {5000, 140}};
const std::vector<std::pair<double, double>> kMotoring{{0, -5}, {6000, -35}};
double full_by_hand(double rpm) {
  return rpm <= 3000 ? 100 + 50 * (rpm - 1000) / 2000 : 150 - 10 * (rpm - 3000) / 2000;
}
double motoring_by_hand(double rpm) { return -5 - 30 * rpm / 6000; }

/// The engine held at speed w by a speed source, at a constant throttle.
struct FixedSpeed {
  Model m{"fixed_speed"};
  MappedEngine& engine = m.add<MappedEngine>("engine");
  FixedSpeed(double w, double throttle) {
    auto& source = m.add<rotational::Speed>("source");
    auto& speed = m.add<blocks::Constant>("speed", {{"k", w}});
    auto& pedal = m.add<blocks::Constant>("pedal", {{"k", throttle}});
    m.connect(speed.y, source.w_ref);
    m.connect(source.flange, engine.flange);
    m.connect(pedal.y, engine.throttle_input);
    m.set_start("engine.phi", 0.0);
  }
};

/// The engine alone (or against a damper d to ground), at a constant throttle, from speed w0.
struct FreeEngine {
  Model m{"free_engine"};
  MappedEngine& engine = m.add<MappedEngine>("engine");
  FreeEngine(double throttle, double w0, double d = 0.0, const ParameterValues& p = {}) {
    for (const auto& [name, value] : p) engine.set_parameter(name, value);
    auto& pedal = m.add<blocks::Constant>("pedal", {{"k", throttle}});
    m.connect(pedal.y, engine.throttle_input);
    if (d > 0) {
      auto& load = m.add<rotational::Damper>("load", {{"d", d}});
      auto& ground = m.add<rotational::Fixed>("ground");
      m.connect(engine.flange, load.flange_a);
      m.connect(load.flange_b, ground.flange);
    }
    m.set_start("engine.phi", 0.0);
    m.set_start("engine.w", w0);
  }
};

}  // namespace

TEST_CASE("MappedEngine: fuel flow is the BSFC map times the power, fuel mass its integral",
          "[vehicle][engine][mapped_engine]") {
  const double rpm = 2200.0, w = rpm / kRpm, throttle = 0.4;
  FixedSpeed rig(w, throttle);
  rig.engine.set_full_load_curve(kFullLoad, TableSmoothness::linear);
  rig.engine.set_motoring_curve(kMotoring, TableSmoothness::linear);
  rig.engine.set_bsfc_map(kMapRpm, kMapTorque, kMap);
  Simulator sim = rig.m.compile();
  CHECK(sim.report().unit_errors.empty());
  Result r = sim.simulate(run_for(2.0, 0.1, 1e-10));
  const double tau = throttle * full_by_hand(rpm) + (1 - throttle) * motoring_by_hand(rpm);  // 42.4 N.m
  const double flow = map_by_hand(rpm, tau) * tau * w / 3.6e9;
  auto t = r.time();
  auto fuel_flow = r["engine.fuel_flow"], fuel_mass = r["engine.fuel_mass"], torque = r["engine.tau"];
  auto bsfc = r["engine.bsfc"], P_fuel = r["engine.P_fuel"], volume = r["engine.fuel_volume"];
  double worst_flow = 0, worst_mass = 0, worst_torque = 0;
  for (std::size_t k = 0; k < r.size(); ++k) {
    worst_torque = std::max(worst_torque, relative_error(torque[k], tau));
    worst_flow = std::max(worst_flow, relative_error(fuel_flow[k], flow));
    if (t[k] > 0) worst_mass = std::max(worst_mass, relative_error(fuel_mass[k], flow * t[k]));
  }
  INFO("tau " << tau << " N.m, bsfc " << map_by_hand(rpm, tau) << " g/kWh, fuel flow " << flow << " kg/s");
  CHECK(worst_torque < 1e-12);
  CHECK(worst_flow < 1e-9);
  CHECK(worst_mass < 1e-6);
  CHECK(relative_error(bsfc.back(), map_by_hand(rpm, tau)) < 1e-9);
  CHECK(relative_error(P_fuel.back(), flow * 43e6) < 1e-9);
  CHECK(relative_error(volume.back(), 1000 * flow * t.back() / 745.0) < 1e-6);
  CHECK(r["engine.fuel_volume_flow"].back() == Approx(3.6e6 * flow / 745.0).epsilon(1e-9));
}

TEST_CASE("MappedEngine: no fuel while motoring", "[vehicle][engine][mapped_engine]") {
  FixedSpeed rig(3000.0 / kRpm, 0.0);
  Result r = rig.m.compile().simulate(run_for(1.0, 0.1));
  CHECK(r["engine.tau"].back() < -10.0);
  CHECK(r["engine.fuel_flow"].back() == 0.0);
  CHECK(r["engine.fuel_mass"].back() == 0.0);
  CHECK(r["engine.P_loss"].back() == Approx(-r["engine.tau"].back() * 3000.0 / kRpm).epsilon(1e-12));
}

TEST_CASE("MappedEngine: full-load and motoring torque follow their curves at fixed speed",
          "[vehicle][engine][mapped_engine]") {
  SECTION("linear curves between their points") {
    for (double rpm : {1500.0, 4200.0}) {
      FixedSpeed full(rpm / kRpm, 1.0), closed(rpm / kRpm, 0.0);
      for (FixedSpeed* rig : {&full, &closed}) {
        rig->engine.set_full_load_curve(kFullLoad, TableSmoothness::linear);
        rig->engine.set_motoring_curve(kMotoring, TableSmoothness::linear);
      }
      Result rf = full.m.compile().simulate(run_for(0.5, 0.1));
      Result rc = closed.m.compile().simulate(run_for(0.5, 0.1));
      INFO(rpm << " rpm");
      CHECK(std::fabs(rf["engine.tau"].back() - full_by_hand(rpm)) < 1e-12 * full_by_hand(rpm));
      CHECK(std::fabs(rc["engine.tau"].back() - motoring_by_hand(rpm)) < 1e-12 * std::fabs(motoring_by_hand(rpm)));
      // The flange carries the whole torque at constant speed.
      CHECK(rf["engine.P_out"].back() == Approx(full_by_hand(rpm) * rpm / kRpm).epsilon(1e-9));
    }
  }
  SECTION("the default curves through their points") {
    FixedSpeed full(4000.0 / kRpm, 1.0), closed(2000.0 / kRpm, 0.0);
    Result rf = full.m.compile().simulate(run_for(0.5, 0.1));
    Result rc = closed.m.compile().simulate(run_for(0.5, 0.1));
    CHECK(std::fabs(rf["engine.tau"].back() - 155.0) < 1e-12 * 155.0);
    CHECK(std::fabs(rc["engine.tau"].back() - -13.6) < 1e-12 * 13.6);
  }
}

TEST_CASE("MappedEngine: the default BSFC map is best near 2500 rpm and 70-80 % load, steep at light load",
          "[vehicle][engine][mapped_engine]") {
  // The map read at the operating point a throttle gives: (bsfc, load tau/tau_full).
  auto probe = [](double rpm, double throttle) {
    FixedSpeed rig(rpm / kRpm, throttle);
    Result r = rig.m.compile().simulate(run_for(0.1, 0.1));
    return std::pair{r["engine.bsfc"].back(), r["engine.tau"].back() / r["engine.tau_full"].back()};
  };
  const auto [best, best_load] = probe(2500.0, 0.8);
  const auto [light, light_load] = probe(2500.0, 0.2);
  INFO("2500 rpm: " << best << " g/kWh at load " << best_load << ", " << light << " g/kWh at load " << light_load);
  CHECK(best_load > 0.7);
  CHECK(best_load < 0.85);
  CHECK(best > 235.0);
  CHECK(best < 250.0);
  CHECK(light_load > 0.05);
  CHECK(light_load < 0.15);
  CHECK(light > 600.0);
  for (auto [rpm, throttle] : {std::pair{2500.0, 1.0}, {2500.0, 0.6}, {1000.0, 0.8}, {5500.0, 0.8}}) {
    INFO(rpm << " rpm, throttle " << throttle);
    CHECK(probe(rpm, throttle).first > best);
  }
}

TEST_CASE("MappedEngine: the energy books close with the fuel energy supplied", "[vehicle][engine][mapped_engine]") {
  // The engine runs up a flywheel against a damper at part throttle.
  Model m("engine_load");
  auto& engine = m.add<MappedEngine>("engine");
  auto& pedal = m.add<blocks::Constant>("pedal", {{"k", 0.3}});
  auto& flywheel = m.add<rotational::Inertia>("flywheel", {{"J", 0.5}});
  auto& load = m.add<rotational::Damper>("load", {{"d", 0.05}});
  auto& ground = m.add<rotational::Fixed>("ground");
  m.connect(pedal.y, engine.throttle_input);
  m.connect(engine.flange, flywheel.flange_a);
  m.connect(flywheel.flange_b, load.flange_a);
  m.connect(load.flange_b, ground.flange);
  m.set_start("engine.phi", 0.0);
  m.set_start("engine.w", 100.0);
  harness::EnergyBooks books(m);
  Result r = m.compile().simulate(run_for(10.0, 0.01, 1e-8));
  const auto components = books.components_close(1e-4).evaluate(r), whole = books.model_closes(1e-4).evaluate(r);
  INFO(components.message << "\n" << whole.message);
  CHECK(components.passed);
  CHECK(whole.passed);
  // What the books call supplied is the fuel's energy, and it is most of what went through.
  const double fuel_energy = r["engine.fuel_mass"].back() * 43e6;
  CHECK(relative_error(r["engine.energy.W_supplied"].back(), fuel_energy) < 1e-4);
  CHECK(fuel_energy > 1e5);
  CHECK(r["engine.w"].back() > 300.0);
  auto P_loss = r["engine.P_loss"];
  CHECK(*std::min_element(P_loss.begin(), P_loss.end()) >= 0.0);
}

TEST_CASE("MappedEngine: the idle governor holds w_idle without load and catches a coast-down",
          "[vehicle][engine][mapped_engine]") {
  const double w_idle = 800.0 / kRpm;
  SECTION("no load, started at idle: PI, so no droop") {
    FreeEngine rig(0.0, w_idle);
    Result r = rig.m.compile().simulate(run_for(5.0, 0.01));
    auto w = r["engine.w"];
    CHECK(*std::min_element(w.begin(), w.end()) > 0.9 * w_idle);
    CHECK(std::fabs(w.back() - w_idle) < 1e-3);
    // It holds idle against the drag with a part throttle (about 0.1).
    CHECK(r["engine.throttle_eff"].back() > 0.05);
    CHECK(r["engine.throttle_eff"].back() < 0.2);
  }
  SECTION("a small damper load, started at standstill") {
    FreeEngine rig(0.0, 0.0, 0.05);
    Result r = rig.m.compile().simulate(run_for(5.0, 0.01));
    CHECK(std::fabs(r["engine.w"].back() - w_idle) < 1e-3);
  }
  SECTION("coast-down from 4000 rpm settles at idle without stalling") {
    FreeEngine rig(0.0, 4000.0 / kRpm);
    Result r = rig.m.compile().simulate(run_for(8.0, 0.01));
    auto w = r["engine.w"];
    CHECK(*std::min_element(w.begin(), w.end()) > 0.9 * w_idle);
    CHECK(std::fabs(w.back() - w_idle) < 1e-3);
    CHECK(r["engine.fuel_mass"].back() >= 0.0);
  }
  SECTION("a proportional-only governor (Ti_idle huge) droops by throttle/k_idle") {
    FreeEngine rig(0.0, w_idle, 0.0, {{"Ti_idle", 1e12}});
    Result r = rig.m.compile().simulate(run_for(5.0, 0.01));
    const double droop = w_idle - r["engine.w"].back();
    CHECK(droop == Approx(r["engine.throttle_eff"].back() / 0.05).epsilon(1e-3));
    CHECK(droop > 1.0);
    CHECK(droop < 4.0);
  }
}

TEST_CASE("MappedEngine: the rev limiter keeps a free engine at full throttle below w_limit + band",
          "[vehicle][engine][mapped_engine]") {
  for (double limit_rpm : {4000.0, 6200.0}) {
    const double w_limit = limit_rpm / kRpm, band = 10.0;
    FreeEngine rig(1.0, 100.0, 0.0, {{"w_limit", w_limit}, {"w_limit_band", band}});
    Result r = rig.m.compile().simulate(run_for(5.0, 0.001));
    auto w = r["engine.w"];
    INFO(limit_rpm << " rpm");
    CHECK(*std::max_element(w.begin(), w.end()) < w_limit + band);
    CHECK(w.back() > w_limit);  // the limiter, not the torque curve, stops it
  }
}

TEST_CASE("MappedEngine: bad maps and curves are errors naming the engine and the problem",
          "[vehicle][engine][mapped_engine][errors]") {
  Model m("errors");
  auto& engine = m.add<MappedEngine>("engine");
  using Catch::Contains;
  SECTION("a BSFC below the thermodynamic limit") {
    auto low = kMap;
    low[1][2] = 80.0;
    REQUIRE_THROWS_WITH(engine.set_bsfc_map(kMapRpm, kMapTorque, low),
                        Contains("engine BSFC map") && Contains("80 g/kWh at 2000 rpm, 100 N.m") &&
                            Contains("below the thermodynamic limit") && Contains("83.72"));
  }
  SECTION("an unsorted speed axis") {
    REQUIRE_THROWS_WITH(engine.set_bsfc_map({1000, 3500, 2000}, kMapTorque, kMap),
                        Contains("engine BSFC map") && Contains("speeds must increase") &&
                            Contains("2000 rpm after 3500"));
    REQUIRE_THROWS_WITH(engine.set_full_load_curve({{1000, 100}, {3000, 150}, {2000, 140}}),
                        Contains("engine full-load curve") && Contains("speeds must increase"));
  }
  SECTION("a ragged map") {
    auto ragged = kMap;
    ragged[1].pop_back();
    REQUIRE_THROWS_WITH(engine.set_bsfc_map(kMapRpm, kMapTorque, ragged),
                        Contains("engine BSFC map") && Contains("row 2 (2000 rpm) has 3 values for 4 torques"));
    REQUIRE_THROWS_WITH(engine.set_bsfc_map(kMapRpm, kMapTorque, {kMap[0], kMap[1]}),
                        Contains("engine BSFC map") && Contains("2 rows of values for 3 speeds"));
  }
  SECTION("curves of the wrong sign") {
    REQUIRE_THROWS_WITH(engine.set_motoring_curve({{0, -5}, {3000, 2}}),
                        Contains("engine motoring curve") && Contains("<= 0"));
    REQUIRE_THROWS_WITH(engine.set_full_load_curve({{0, -5}, {3000, 100}}),
                        Contains("engine full-load curve") && Contains(">= 0"));
  }
  SECTION("a lower heating value that makes the map exceed 100 % efficiency, set after the map") {
    engine.set_bsfc_map(kMapRpm, kMapTorque, kMap);  // lowest 240 g/kWh: LHV down to 15 MJ/kg
    auto& pedal = m.add<blocks::Constant>("pedal", {{"k", 0.5}});
    m.connect(pedal.y, engine.throttle_input);
    m.set_start("engine.phi", 0.0);
    m.set_start("engine.w", 100.0);
    Simulator sim = m.compile();
    sim.set_parameter("engine.LHV", 10e6);
    REQUIRE_THROWS_WITH(sim.simulate(run_for(0.1, 0.1)),
                        Contains("engine") && Contains("bsfc_min") && Contains("LHV"));
  }
}

}  // namespace test_mapped_engine
