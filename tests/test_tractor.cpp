// The tractor of seed 003 and the tillage implement (issue 38, items 4 and 5):
// ASABE D497's draft equation by hand; the seed's engine law, gear list and
// reverse gear; a drawbar-pull rig (the tractor's rear wheel on sandy loam at
// a swept slip: pull vs slip, tractive efficiency); the whole tractor pulling
// a load at a prescribed speed on soil, its energy books closed.
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>
#include <acausal/harness/energy.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "support.hpp"

namespace test_tractor {

using namespace acausal;
using namespace acausal::vehicle;
using Catch::Contains;
using test::run_for;

namespace {

const double pi = std::acos(-1.0);

/// Seed 003's engine law, torque = c·rpm² + b·rpm + a with rpm held at
/// engineMinRPM below it (a = 150, b = 1, c = 0).
double seed_torque(double rpm) {
  const double n = std::max(rpm, TractorSeed::engineMinRPM);
  return TractorSeed::c * n * n + TractorSeed::b * n + TractorSeed::a;
}

/// The value of a component's parameter as set now.
double parameter_of(const Component& c, const std::string& name) {
  for (const auto& p : c.parameters())
    if (p.name == name) return p.value;
  FAIL("no parameter " << name << " in " << c.name());
  return 0;
}

}  // namespace

TEST_CASE("Implement draft: ASABE D497 F = F_i·(A + B S + C S^2)·W·T by hand to 1e-9",
          "[vehicle][tractor][implement]") {
  // The table holds the published rows (D497.7 Table 1).
  const TillageImplement& plow = asabe_d497_implement("moldboard_plow");
  CHECK((plow.A == 652 && plow.B == 0 && plow.C == 5.1 && !plow.per_tool));
  CHECK((plow.F[0] == 1.0 && plow.F[1] == 0.70 && plow.F[2] == 0.45));
  const TillageImplement& chisel = asabe_d497_implement("chisel_plow_straight_point");
  CHECK((chisel.A == 91 && chisel.B == 5.4 && chisel.C == 0 && chisel.per_tool));
  const TillageImplement& disk = asabe_d497_implement("disk_harrow_tandem_primary");
  CHECK((disk.A == 309 && disk.B == 16.0 && disk.F[2] == 0.78));
  const TillageImplement& cultivator = asabe_d497_implement("field_cultivator_primary");
  CHECK((cultivator.A == 46 && cultivator.B == 2.8 && cultivator.F[1] == 0.85));
  CHECK_THROWS_WITH(asabe_d497_implement("rotary_hoe"), Contains("no ASABE D497 implement named 'rotary_hoe'") &&
                                                            Contains("moldboard_plow, "));

  struct Case {
    const char* implement;
    SoilTexture texture;
    double width, depth;  // m or tools; m
  };
  // The implement pulled at a speed ramping 0.5 → 3 m/s (1.8 → 10.8 km/h),
  // where tanh(v/v_eps) is 1 to the last bit: the formula holds exactly.
  for (const Case& c : {Case{"moldboard_plow", SoilTexture::medium, 1.6, 0.20},
                        Case{"chisel_plow_straight_point", SoilTexture::coarse, 9, 0.15},
                        Case{"disk_harrow_tandem_primary", SoilTexture::fine, 4.0, 0.10},
                        Case{"field_cultivator_primary", SoilTexture::medium, 24, 0.08}}) {
    INFO(c.implement);
    const TillageImplement& row = asabe_d497_implement(c.implement);
    const double F_i = row.F[static_cast<int>(c.texture)];
    Model m("implement");
    auto& implement = m.add<ImplementDraft>(
        "implement", d497_parameters(c.implement, c.texture, {{"width", c.width}, {"depth", c.depth}}));
    auto& pull = m.add<translational::Speed>("pull");
    auto& speed = m.add<blocks::Ramp>("speed", {{"offset", 0.5}, {"height", 2.5}, {"duration", 1.0}});
    m.connect(speed.y, pull.v_ref);
    m.connect(pull.flange, implement.flange);
    harness::EnergyBooks books(m);
    const Result r = test::compile_checked(m).simulate(run_for(1.0, 0.01));
    const auto v = r["implement.v"], S = r["implement.S"], F = r["implement.F_draft"], P = r["implement.P_draft"];
    double worst = 0;
    for (std::size_t k = 0; k < r.size(); ++k) {
      const double s_kmh = 3.6 * v[k];
      const double by_hand = F_i * (row.A + row.B * s_kmh + row.C * s_kmh * s_kmh) * c.width * (100 * c.depth);
      worst = std::max(worst, std::fabs(F[k] - by_hand) / by_hand);
      CHECK(S[k] == Approx(s_kmh).epsilon(1e-12));
      CHECK(P[k] == Approx(F[k] * v[k]).epsilon(1e-12));
    }
    CHECK(r.size() >= 101);
    CHECK(worst < 1e-9);
    test::books_close(books, r, 1e-6);
  }
}

TEST_CASE("Implement draft opposes motion and passes smoothly through zero speed",
          "[vehicle][tractor][implement]") {
  Model m("implement_reversing");
  auto& plow = m.add<ImplementDraft>("plow");
  auto& pull = m.add<translational::Speed>("pull");
  auto& speed = m.add<blocks::Sine>("speed", {{"amplitude", 1.0}, {"f", 0.5}});
  m.connect(speed.y, pull.v_ref);
  m.connect(pull.flange, plow.flange);
  harness::EnergyBooks books(m);
  const Result r = test::compile_checked(m).simulate(run_for(2.0, 0.001));
  const auto v = r["plow.v"], F = r["plow.F_draft"], P = r["plow.P_draft"];
  for (std::size_t k = 0; k < r.size(); ++k) {
    CHECK(P[k] >= 0.0);  // the soil only takes energy
    if (std::fabs(v[k]) > 0.05) CHECK(F[k] * v[k] > 0.0);
    CHECK(std::isfinite(F[k]));
  }
  test::books_close(books, r, 1e-6);
}

TEST_CASE("Tractor: seed 003's engine law at three speeds to 1e-9, its gear list with reverse first",
          "[vehicle][tractor]") {
  // The tractor's engine, its speed held by a source: the torque curve is
  // c·rpm² + b·rpm + a = rpm + 150 N·m, evaluated at 1500 rpm below it.
  Model m("tractor_engine");
  auto& engine = m.add<Engine>("engine", tractor_engine_parameters());
  auto& shaft = m.add<rotational::Speed>("shaft");
  auto& w_ref = m.add<blocks::Constant>("w_ref", {{"k", 100.0}});
  auto& throttle = m.add<blocks::Constant>("throttle", {{"k", 1.0}});
  m.connect(w_ref.y, shaft.w_ref);
  m.connect(shaft.flange, engine.flange);
  m.connect(throttle.y, engine.throttle_input);
  Simulator sim = test::compile_checked(m);
  for (const double rpm : {1000.0, 2000.0, 3000.0}) {
    INFO(rpm << " rpm");
    sim.set_parameter("w_ref.k", rpm * pi / 30);
    const Result r = sim.simulate(run_for(0.1, 0.01));
    const auto speed = r["engine.rpm"], tau = r["engine.tau_curve"], drive = r["engine.tau_drive"];
    for (std::size_t k = 0; k < r.size(); ++k) {
      CHECK(speed[k] == Approx(rpm).epsilon(1e-12));
      CHECK(std::fabs(tau[k] - seed_torque(rpm)) <= 1e-9 * seed_torque(rpm));
      CHECK(drive[k] == Approx(tau[k]).epsilon(1e-12));  // throttle 1
    }
  }
  CHECK(seed_torque(1000) == 1650.0);
  CHECK(seed_torque(3000) == 3150.0);

  // The assembly carries those values, the seed's ratios and its brake coefficient.
  const Tractor tractor("tractor");
  for (const auto& [name, value] : tractor_engine_parameters()) {
    INFO(name);
    CHECK(parameter_of(tractor.engine, name) == value);
  }
  CHECK(parameter_of(tractor.engine, "engineMinRPM") == 1500);
  CHECK(parameter_of(tractor.engine, "engineMaxRPM") == 4500);
  CHECK(parameter_of(tractor.gearbox, "ratio_reverse") == -12);
  // The seed's forward gears 1..5 (8, 12, 16, 20, 24) are the Gearbox's 5..1.
  for (int g = 1; g <= 5; ++g) {
    INFO("seed gear " << g);
    CHECK(parameter_of(tractor.gearbox, "ratio_" + std::to_string(6 - g)) == TractorSeed::gearRatio[g]);
  }
  for (const Brake* brake : tractor.brakes)
    CHECK(parameter_of(*brake, "tau_max") / parameter_of(*brake, "w_eps") == Approx(700.0).epsilon(1e-12));
  // Sandy loam (Wong's Table 2.3) under the four wheels by default.
  for (const auto& [name, value] : soil("sandy_loam").parameters(true))
    for (const SoftSoilWheel* wheel : tractor.wheels) {
      INFO(wheel->name() << "." << name);
      CHECK(parameter_of(*wheel, name) == Approx(value).epsilon(1e-12));
    }
}

TEST_CASE("Tractor on a road: reverse moves backwards, each gear drives at its ratio, the GPS within resolution",
          "[vehicle][tractor]") {
  // From rest, clutch engaged, 15 % throttle: below 1500 rpm the engine gives
  // 0.15·1650 N·m whatever its speed, so the tractor pulls away in any gear.
  Model m("road_tractor");
  auto& tractor = m.add<RoadTractor>("tractor", {}, TractorOptions{.gps = true});
  auto& throttle = m.add<blocks::Constant>("throttle", {{"k", 0.15}});
  auto& brake = m.add<blocks::Constant>("brake", {{"k", 0.0}});
  auto& clutch = m.add<blocks::Constant>("clutch", {{"k", 1.0}});
  auto& gear = m.add<blocks::Constant>("gear", {{"k", -1.0}});
  m.connect(throttle.y, tractor.throttle);
  m.connect(brake.y, tractor.brake_pedal);
  m.connect(clutch.y, tractor.clutch_pedal);
  m.connect(gear.y, tractor.gear);
  m.set_start("tractor.engine.w", 0.0);  // at rest with the vehicle: the clutch holds from the start
  Simulator sim = test::compile_checked(m);
  struct Case {
    double gear, ratio;
  };
  for (const Case& c : {Case{-1, -12}, Case{1, 8}, Case{3, 16}, Case{5, 24}}) {
    INFO("gear " << c.gear);
    sim.set_parameter("gear.k", c.gear);
    const Result r = sim.simulate(run_for(4.0, 0.01));
    const auto v = r["tractor.body.v"], s = r["tractor.body.s"], ratio = r["tractor.gearbox.ratio"];
    const auto w_rear = r["tractor.wheel_rl.omega"], w_engine = r["tractor.engine.w"];
    const auto rpm = r["tractor.engine.rpm"], tau = r["tractor.engine.tau_curve"];
    const auto gps = r["tractor.gps_speed"];
    for (std::size_t k = 0; k < r.size(); ++k) {
      CHECK(ratio[k] == c.ratio);
      if (rpm[k] < 4000) CHECK(std::fabs(tau[k] - seed_torque(rpm[k])) <= 1e-9 * seed_torque(rpm[k]));
      // The GPS: multiples of its resolution 0.02 m/s, within 6.6 σ of noise
      // (σ = 0.05 m/s), half a step and the speed's change over a 0.1 s hold.
      CHECK(std::fabs(gps[k] / 0.02 - std::round(gps[k] / 0.02)) < 1e-6);
      if (r.time()[k] >= 0.1) CHECK(std::fabs(gps[k] - v[k]) < 6.6 * 0.05 + 0.01 + 0.1 * 3.0);
    }
    const double sign = c.ratio < 0 ? -1.0 : 1.0;
    CHECK(sign * v.back() > 0.5);  // reverse backwards, the forward gears forwards
    CHECK(sign * s.back() > 0.5);
    CHECK(sign * w_rear.back() > 0.0);
    // The clutch held: the engine turns at the gear's ratio to the rear wheels
    // (open differential, equal speeds straight ahead), within the synchronizer's slip.
    CHECK(w_engine.back() == Approx(c.ratio * w_rear.back()).margin(0.05 * std::fabs(w_engine.back()) + 1.0));
  }
}

TEST_CASE("Drawbar pull vs slip: the tractor's rear wheel on sandy loam, tractive efficiency",
          "[vehicle][tractor][terramechanics][drawbar]") {
  // One rear wheel of the Tractor (0.8 m radius, 0.45 m wide, sandy loam)
  // under its share of the static rear axle load, the hull at 1 m/s, the hub
  // speeding up so that the slip sweeps 0..0.8 over 8 s.
  const Soil s = soil("sandy_loam");
  const double radius = 0.8, b = 0.45, v = 1.0;
  const double W = 0.5 * 4500 * 9.81 * 1.6 / 2.5;  // 14.1 kN
  Model m("drawbar_rig");
  auto& wheel = m.add<SoftSoilWheel>("wheel", with_soil(s, {{"radius", radius}, {"b", b}, {"J", 40.0}}, true));
  wheel.guess_sinkage(W);
  auto& load = m.add<vehicle::AxleLoad>("axle", {{"W", W}});
  auto& hull = m.add<translational::Speed>("hull");
  auto& hull_speed = m.add<blocks::Constant>("hull_speed", {{"k", v}});
  auto& hub = m.add<rotational::Speed>("hub");
  auto& hub_speed = m.add<blocks::Ramp>(
      "hub_speed", {{"offset", v / radius}, {"height", v / (radius * 0.2) - v / radius}, {"duration", 8.0}});
  m.connect(wheel.contact, load.contact);
  m.connect(load.flange_traction, hull.flange);
  m.connect(hull_speed.y, hull.v_ref);
  m.connect(hub.flange, wheel.flange_rot);
  m.connect(hub_speed.y, hub.w_ref);
  harness::EnergyBooks books(m);
  const Result r = test::compile_checked(m).simulate(run_for(8.0, 0.02));
  const auto slip = r["wheel.slip"], DP = r["wheel.DP"], R = r["wheel.R"], T = r["wheel.T_soil"];
  const auto omega = r["wheel.omega"], speed = r["wheel.v"], l = r["wheel.l_contact"], P = r["wheel.P_soil"];

  // At zero slip the wheel has to be pushed through its rut: -R < DP < 0 (the
  // shear that Wong–Reece's j still mobilises at zero slip, H = DP + R > 0,
  // takes back part of the compaction resistance R: about 60 % of it here).
  REQUIRE(slip.front() == Approx(0.0).margin(1e-9));
  CHECK(DP.front() < -0.2 * R.front());
  CHECK(DP.front() > -R.front());

  const std::size_t peak = std::max_element(DP.begin(), DP.end()) - DP.begin();
  std::size_t rising = 0;
  double best_eta = 0, slip_at_best_eta = 0;
  for (std::size_t k = 0; k < r.size(); ++k) {
    // Below the Coulomb limit A·c + W·tan(phi) of the contact's horizontal length.
    CHECK(DP[k] < b * l[k] * s.c + W * std::tan(s.phi));
    CHECK(P[k] >= 0.0);  // the soil only takes energy
    if (k > 0 && k <= peak) {
      // The pull rises with the slip up to its peak (within 1e-6·W, the
      // solver's noise on the flat top of the curve).
      CHECK(DP[k] > DP[k - 1] - 1e-6 * W);
      rising += DP[k] > DP[k - 1];
    }
    if (DP[k] > 0) {
      // Tractive efficiency DP·v/(T·ω) in (0, 1), below 1 - slip (DP ≤ H ≤ T/r).
      const double eta = DP[k] * speed[k] / (T[k] * omega[k]);
      CHECK(eta > 0.0);
      CHECK(eta < 1.0 - slip[k] + 1e-9);
      if (eta > best_eta) best_eta = eta, slip_at_best_eta = slip[k];
    }
  }
  // The pull vs slip curve at several slips, for the record.
  for (double at : {0.05, 0.1, 0.2, 0.3, 0.5, 0.7}) {
    const std::size_t k = std::lower_bound(slip.begin(), slip.end(), at) - slip.begin();
    if (k < r.size())
      UNSCOPED_INFO("slip " << slip[k] << ": DP " << DP[k] << " N (" << DP[k] / W << " W), T " << T[k]
                            << " N.m, eta " << DP[k] * speed[k] / (T[k] * omega[k]));
  }
  INFO("peak pull " << DP[peak] << " N at slip " << slip[peak] << "; best eta " << best_eta << " at slip "
                    << slip_at_best_eta);
  CHECK(slip[peak] > 0.5);  // the peak lies beyond half slip on sandy loam
  // Strictly rising on nine rows in ten before the peak (its flat top is within the solver noise).
  CHECK(static_cast<double>(rising) >= 0.9 * static_cast<double>(peak));
  CHECK(DP[peak] > 0.2 * W);
  CHECK(best_eta > 0.3);
  CHECK(best_eta < 0.6);
  CHECK(slip_at_best_eta > 0.1);
  CHECK(slip_at_best_eta < 0.35);
  test::books_close(books, r, 1e-5);
}

TEST_CASE("Tractor on sandy loam pulling a load at a prescribed speed: pull, efficiency, energy books",
          "[vehicle][tractor][terramechanics][drawbar]") {
  // Gear 5 (ratio 24), clutch engaged, 25 % throttle: the engine, below
  // 1500 rpm, gives 0.25·1650 N·m; the hitch is held at 1 m/s by the load.
  Model m("tractor_drawbar");
  auto& tractor = m.add<Tractor>("tractor");
  tractor.set_initial_speed(1.0, 0.25);
  m.set_start("tractor.body.v", 1.0, false);  // the load sets the speed
  auto& throttle = m.add<blocks::Constant>("throttle", {{"k", 0.25}});
  auto& brake = m.add<blocks::Constant>("brake", {{"k", 0.0}});
  auto& clutch = m.add<blocks::Constant>("clutch", {{"k", 1.0}});
  auto& gear = m.add<blocks::Constant>("gear", {{"k", 5.0}});
  auto& sensor = m.add<translational::ForceSensor>("drawbar");
  auto& load = m.add<translational::Speed>("load");
  auto& load_speed = m.add<blocks::Constant>("load_speed", {{"k", 1.0}});
  m.connect(throttle.y, tractor.throttle);
  m.connect(brake.y, tractor.brake_pedal);
  m.connect(clutch.y, tractor.clutch_pedal);
  m.connect(gear.y, tractor.gear);
  m.connect(tractor.hitch, sensor.flange_a);
  m.connect(sensor.flange_b, load.flange);
  m.connect(load_speed.y, load.v_ref);
  harness::EnergyBooks books(m);
  const Result r = test::compile_checked(m).simulate(run_for(6.0, 0.01));
  const auto v = r["tractor.body.v"], pull = r["drawbar.f"], P_engine = r["tractor.engine.P_out"];
  const auto rpm = r["tractor.engine.rpm"], tau = r["tractor.engine.tau_curve"];
  for (std::size_t k = 0; k < r.size(); ++k) {
    CHECK(v[k] == Approx(1.0).epsilon(1e-6));
    if (rpm[k] < 1400) CHECK(std::fabs(tau[k] - 1650.0) <= 1e-9 * 1650.0);
  }
  const std::size_t last = r.size() - 1;
  // The drawbar pulls: the rear wheels' pull beats the front wheels' rolling resistance.
  INFO("pull " << pull[last] << " N, engine power " << P_engine[last] << " W");
  CHECK(pull[last] > 0.0);
  const double eta = pull[last] * v[last] / P_engine[last];  // the tractor's tractive efficiency
  CHECK(eta > 0.0);
  CHECK(eta < 1.0);
  for (const char* corner : {"rl", "rr"}) {
    INFO(corner);
    const std::string w = std::string("tractor.wheel_") + corner;
    const double slip = r[w + ".slip"][last], DP = r[w + ".DP"][last], W = r[w + ".W"][last];
    const double l = r[w + ".l_contact"][last];
    const Soil s = soil("sandy_loam");
    CHECK(slip > 0.05);
    CHECK(slip < 0.8);
    CHECK(DP > 0.0);
    CHECK(DP < 0.45 * l * s.c + W * std::tan(s.phi));
  }
  // The front wheels are towed: they turn slower than they roll (negative slip) and hold the tractor back.
  CHECK(r["tractor.wheel_fl.slip"][last] < 0.0);
  CHECK(r["tractor.wheel_fl.DP"][last] < 0.0);
  // The axle loads carry the tractor: W_front + W_rear = m·g.
  const double carried = r["tractor.wheel_fl.W"][last] + r["tractor.wheel_fr.W"][last] +
                         r["tractor.wheel_rl.W"][last] + r["tractor.wheel_rr.W"][last];
  CHECK(carried == Approx(4500 * 9.81).epsilon(1e-6));
  test::books_close(books, r, 1e-5);
}

}  // namespace test_tractor
