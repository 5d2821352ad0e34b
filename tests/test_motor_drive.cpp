// The electric powertrain's motor and control (issue 33, items 3 and 4):
// vehicle::MotorDrive (envelope, torque lag, losses from the model or a map,
// DC power = mechanical power + losses), vehicle::DCMotor against its steady
// state, vehicle::EVController's regenerative blending by hand. Tolerances
// per check: algebraic relations (exact in every output row) to 1e-9
// relative, trajectories integrated at rtol 1e-10 to 1e-6.
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>
#include <acausal/harness/energy.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "support.hpp"

namespace test_motor_drive {

using namespace acausal;
using Catch::Matchers::Contains;
using test::run_for;

namespace {

// The MotorDrive's defaults.
constexpr double kTauMax = 250.0, kPMax = 100e3, kTc = 0.02, kV = 400.0;

/// The envelope by hand: full torque up to the base speed P_max/tau_max = 400 rad/s, constant power above.
double envelope(double w) { return std::fabs(w) <= kPMax / kTauMax ? kTauMax : kPMax / std::fabs(w); }

double clamp(double x, double limit) { return std::min(std::max(x, -limit), limit); }

/// A run at rtol 1e-10 whose absolute tolerance suits the energy integrals: the load's books
/// (½Jw², up to 6e4 J) return to 0 each time the rotor reverses, and there an absolute
/// tolerance below their round-off (6e4 J·2e-16) fails IDA's error test however small the step.
SimulationOptions reversing_run(double t_end) {
  SimulationOptions opt = run_for(t_end, 1e-3, 1e-10);
  opt.atol = 1e-6;
  return opt;
}

/// A drive on a 400 V source, its rotor held at speed `speed.k` by a speed source, its command `command.k`.
struct FixedSpeedDrive {
  Model m{"fixed_speed_drive"};
  electrical::ConstantVoltage& source = m.add<electrical::ConstantVoltage>("source", {{"V", kV}});
  vehicle::MotorDrive& drive = m.add<vehicle::MotorDrive>("drive");
  explicit FixedSpeedDrive(double w = 0.0, double tau_ref = 0.0) {
    auto& ground = m.add<electrical::Ground>("ground");
    auto& holder = m.add<rotational::Speed>("holder");
    auto& speed = m.add<blocks::Constant>("speed", {{"k", w}});
    auto& command = m.add<blocks::Constant>("command", {{"k", tau_ref}});
    m.connect(source.p, drive.p);
    m.connect(drive.n, source.n);
    m.connect(source.n, ground.p);
    m.connect(speed.y, holder.w_ref);
    m.connect(holder.flange, drive.flange);
    m.connect(command.y, drive.tau_ref);
    m.set_start("drive.phi", 0.0);
  }
};

/// The drive on a 400 V source turning a load inertia, commanded by a cosine of 400 N.m (beyond the
/// envelope) at 0.25 Hz: it speeds up past the base speed, brakes through standstill and reverses,
/// through all four quadrants.
struct DriveOnInertia {
  Model m{"drive_on_inertia"};
  electrical::ConstantVoltage& source = m.add<electrical::ConstantVoltage>("source", {{"V", kV}});
  vehicle::MotorDrive& drive;
  explicit DriveOnInertia(double use_heat_port = 0.0)
      : drive(m.add<vehicle::MotorDrive>("drive", {{"use_heat_port", use_heat_port}})) {
    auto& ground = m.add<electrical::Ground>("ground");
    auto& load = m.add<rotational::Inertia>("load", {{"J", 0.25}});
    auto& command = m.add<blocks::Sine>("command", {{"amplitude", 400.0}, {"f", 0.25}, {"phase", std::numbers::pi / 2}});
    m.connect(source.p, drive.p);
    m.connect(drive.n, source.n);
    m.connect(source.n, ground.p);
    m.connect(drive.flange, load.flange_a);
    m.connect(command.y, drive.tau_ref);
    m.set_start("load.phi", 0.0);
    m.set_start("load.w", 0.0);
  }
};

// A loss map over the first quadrant with uneven cells [W].
const std::vector<double> kMapSpeeds{0, 200, 500, 900};     // rad/s
const std::vector<double> kMapTorques{0, 50, 150, 250};     // N.m
const std::vector<std::vector<double>> kMapLosses{{50, 150, 900, 2500},
                                                  {120, 260, 1100, 2900},
                                                  {300, 480, 1400, 3400},
                                                  {800, 1000, 2000, 4200}};

}  // namespace

TEST_CASE("MotorDrive: the torque envelope min(tau_max, P_max/|w|) in all four quadrants", "[vehicle][electric]") {
  FixedSpeedDrive rig;
  Simulator sim = rig.m.compile();
  CHECK(sim.report().unit_errors.empty());
  // Forward and reverse, below, at and above the base speed (400 rad/s), and standstill; commands
  // beyond the envelope and inside it, of both signs: motoring where tau·w > 0, generating where < 0.
  const std::array<double, 8> speeds{0.0, 150.0, 400.0, 650.0, 1200.0, -150.0, -650.0, -1200.0};
  const std::array<double, 4> commands{1000.0, -1000.0, 120.0, -120.0};
  for (double w : speeds) {
    for (double tau_ref : commands) {
      sim.set_parameter("speed.k", w);
      sim.set_parameter("command.k", tau_ref);
      // 50 time constants: the lag's remainder exp(-50) is far below the tolerance.
      Result r = sim.simulate(run_for(50 * kTc, 0.05, 1e-10));
      const double limit = envelope(w), expected = clamp(tau_ref, limit);
      INFO("w = " << w << " rad/s, tau_ref = " << tau_ref << " N.m: envelope " << limit << " N.m");
      const auto available = r["drive.tau_max_available"], tau = r["drive.tau"];
      for (std::size_t k = 0; k < r.size(); ++k) {
        CHECK(std::fabs(available[k] - limit) <= 1e-9 * limit);
        CHECK(std::fabs(tau[k]) <= available[k] * (1 + 1e-12));
      }
      CHECK(std::fabs(tau.back() - expected) <= 1e-9 * limit);
      CHECK(r["drive.w"].back() == Approx(w).margin(1e-12));
      const double P_mech = r["drive.P_mech"].back(), P_elec = r["drive.P_elec"].back();
      const double loss = r["drive.LossPower"].back();
      CHECK(std::fabs(P_mech - expected * w) <= 1e-9 * std::max(1.0, std::fabs(expected * w)));
      // Losses are positive in every quadrant; motoring draws more than the shaft gives, generating
      // returns less than the shaft gave.
      CHECK(loss > 0.0);
      CHECK(std::fabs(P_elec - (P_mech + loss)) <= 1e-9 * (std::fabs(P_mech) + loss));
      CHECK(P_elec > P_mech);
    }
  }
  // The numbers by hand: at 650 rad/s the drive gives 100 kW / 650 rad/s = 153.846 N.m either way.
  sim.set_parameter("speed.k", -650.0);
  sim.set_parameter("command.k", 1000.0);
  Result r = sim.simulate(run_for(50 * kTc, 0.05, 1e-10));
  CHECK(r["drive.tau"].back() == Approx(153.84615384615384).epsilon(1e-9));
  CHECK(r["drive.P_mech"].back() == Approx(-100e3).epsilon(1e-9));
}

TEST_CASE("MotorDrive: the torque follows a step of its command through the first-order lag", "[vehicle][electric]") {
  const double tau_ref = 120.0;
  FixedSpeedDrive rig(100.0, tau_ref);
  Result r = rig.m.compile().simulate(run_for(0.2, 1e-3, 1e-10));
  // tau(t) = tau_ref·(1 - exp(-t/T_c)) within 1e-6 of the step.
  CHECK(test::worst(r, "drive.tau", [&](double t) { return tau_ref * (1 - std::exp(-t / kTc)); }) < 1e-6 * tau_ref);
  // The command and the state are inside the envelope: the clamps do nothing.
  CHECK(test::worst(r, "drive.tau_cmd", [&](double) { return tau_ref; }) == 0.0);
}

TEST_CASE("MotorDrive: the default loss model by hand, losses positive in all four quadrants",
          "[vehicle][electric]") {
  FixedSpeedDrive rig;
  Simulator sim = rig.m.compile();
  // k_c·tau² + k_i·w² + k_w·|w| + P_0 with the defaults 0.05, 0.001, 0.1, 100: at 300 rad/s and
  // ±200 N.m, 2000 + 90 + 30 + 100 = 2220 W.
  for (auto [w, tau] : std::vector<std::pair<double, double>>{{300, 200}, {300, -200}, {-300, 200}, {-300, -200},
                                                              {0, 0}, {800, -100}}) {
    sim.set_parameter("speed.k", w);
    sim.set_parameter("command.k", tau);
    Result r = sim.simulate(run_for(50 * kTc, 0.05, 1e-10));
    const double loss = 0.05 * tau * tau + 0.001 * w * w + 0.1 * std::fabs(w) + 100.0;
    INFO("w = " << w << " rad/s, tau = " << tau << " N.m");
    CHECK(r["drive.LossPower"].back() == Approx(loss).epsilon(1e-9));
    CHECK(r["drive.LossPower"].back() > 0.0);
  }
}

TEST_CASE("MotorDrive: losses from a first-quadrant map, bilinear, mirrored to all four quadrants, held beyond",
          "[vehicle][electric]") {
  FixedSpeedDrive rig;
  rig.drive.set_loss_map(kMapSpeeds, kMapTorques, kMapLosses);
  Simulator sim = rig.m.compile();
  CHECK(sim.report().unit_errors.empty());
  // By hand, bilinear in the cell around (|w|, |tau|):
  //  (300, 100): s = 1/3 between 200 and 500, r = 1/2 between 50 and 150:
  //     (2/3·260 + 1/3·480)/2 + (2/3·1100 + 1/3·1400)/2 = 166.667 + 600 = 766.667 W
  //  (-700, -40) reads (700, 40): s = 1/2 between 500 and 900, r = 0.8 between 0 and 50:
  //     0.2·(300 + 800)/2 + 0.8·(480 + 1000)/2 = 110 + 592 = 702 W
  //  (120, -200) reads (120, 200): s = 0.6 between 0 and 200, r = 1/2 between 150 and 250:
  //     (0.4·900 + 0.6·1100)/2 + (0.4·2500 + 0.6·2900)/2 = 510 + 1370 = 1880 W
  //  (-1000, 50) beyond the grid reads the last speed: 1000 W (the envelope there is 100 N.m).
  struct Point {
    double w, tau, loss;
  };
  for (const Point& p : {Point{300, 100, 2300.0 / 3.0}, Point{-700, -40, 702}, Point{120, -200, 1880},
                         Point{-1000, 50, 1000}}) {
    sim.set_parameter("speed.k", p.w);
    sim.set_parameter("command.k", p.tau);
    Result r = sim.simulate(run_for(50 * kTc, 0.05, 1e-10));
    INFO("w = " << p.w << " rad/s, tau = " << p.tau << " N.m");
    CHECK(r["drive.tau"].back() == Approx(p.tau).epsilon(1e-9));
    // The lag's remainder exp(-50)·tau moves the map's value by far less than 1e-9.
    CHECK(r["drive.LossPower"].back() == Approx(p.loss).epsilon(1e-9));
    // DC power = mechanical power + losses in every row, motoring and generating.
    const auto P_elec = r["drive.P_elec"], P_mech = r["drive.P_mech"], loss = r["drive.LossPower"];
    for (std::size_t k = 0; k < r.size(); ++k) {
      CHECK(loss[k] >= 0.0);
      CHECK(std::fabs(P_elec[k] - (P_mech[k] + loss[k])) <= 1e-9 * (std::fabs(P_mech[k]) + loss[k]));
    }
  }
}

TEST_CASE("MotorDrive: a map over four quadrants is read at the signed speed and torque", "[vehicle][electric]") {
  FixedSpeedDrive rig(-100.0, -50.0);
  // Losses lower when generating (tau·w < 0) than motoring, as a measured map may have them.
  rig.drive.set_loss_map({-200, 200}, {-100, 100}, {{400, 200}, {200, 400}});
  Result r = rig.m.compile().simulate(run_for(50 * kTc, 0.05, 1e-10));
  // (-100, -50): s = 1/4, r = 1/4: 9/16·400 + 3/16·200 + 3/16·200 + 1/16·400 = 325 W (motoring in reverse).
  CHECK(r["drive.LossPower"].back() == Approx(325.0).epsilon(1e-9));
}

TEST_CASE("MotorDrive: a loss map with a negative loss, or of the wrong shape, is refused", "[vehicle][electric][errors]") {
  FixedSpeedDrive rig;
  CHECK_THROWS_WITH(rig.drive.set_loss_map({0, 100}, {0, 50}, {{0, 10}, {-1, 20}}),
                    Contains("drive loss map") && Contains("-1 W at 100 rad/s, 0 N.m must be >= 0"));
  CHECK_THROWS_WITH(rig.drive.set_loss_map({0, 100}, {0, 50}, {{0, 10}}), Contains("1 rows of losses for 2 speeds"));
  CHECK_THROWS_WITH(rig.drive.set_loss_map({0, 100}, {0, 50}, {{0, 10}, {1, 2, 3}}),
                    Contains("row 2 (100 rad/s) has 3 losses for 2 torques"));
  CHECK_THROWS_WITH(rig.drive.set_loss_map({100, 0}, {0, 50}, {{0, 10}, {1, 2}}), Contains("must increase"));
}

TEST_CASE("MotorDrive on an inertia: DC power = mechanical power + losses in every row of a four-quadrant run, "
          "the energy books close",
          "[vehicle][electric][energy]") {
  DriveOnInertia rig;
  harness::EnergyBooks books(rig.m);
  Simulator sim = rig.m.compile();
  CHECK(sim.report().unit_errors.empty());
  Result r = sim.simulate(reversing_run(8.0));
  const auto w = r["drive.w"], tau = r["drive.tau"], available = r["drive.tau_max_available"];
  const auto P_elec = r["drive.P_elec"], P_mech = r["drive.P_mech"], loss = r["drive.LossPower"];
  const auto v = r["drive.v"], i = r["drive.i"];
  std::array<int, 4> quadrant{};  // motoring forward, generating forward, motoring reverse, generating reverse
  double worst_balance = 0, worst_envelope = 0, lowest_loss = 1e300, fastest = 0;
  for (std::size_t k = 0; k < r.size(); ++k) {
    const double scale = std::fabs(P_mech[k]) + loss[k];
    worst_balance = std::max(worst_balance, std::fabs(P_elec[k] - (P_mech[k] + loss[k])) / scale);
    worst_balance = std::max(worst_balance, std::fabs(P_elec[k] - v[k] * i[k]) / scale);
    worst_envelope = std::max(worst_envelope, std::fabs(tau[k]) - available[k]);
    CHECK(std::fabs(available[k] - envelope(w[k])) <= 1e-9 * kTauMax);
    lowest_loss = std::min(lowest_loss, loss[k]);
    fastest = std::max(fastest, std::fabs(w[k]));
    if (std::fabs(tau[k]) > 1.0 && std::fabs(w[k]) > 1.0) ++quadrant[(w[k] > 0 ? 0 : 2) + (tau[k] * w[k] > 0 ? 0 : 1)];
  }
  CHECK(worst_balance < 1e-9);
  CHECK(worst_envelope <= 1e-12 * kTauMax);
  CHECK(lowest_loss >= 100.0 * (1 - 1e-12));  // P_0 at standstill with no torque
  CHECK(fastest > 500.0);                      // deep in the constant-power range
  for (int q = 0; q < 4; ++q) {
    INFO("quadrant " << q);
    CHECK(quadrant[q] > 50);
  }
  const auto closes = books.components_close(1e-6).evaluate(r);
  const auto whole = books.model_closes(1e-6).evaluate(r);
  INFO(closes.message << "\n" << whole.message);
  CHECK(closes.passed);
  CHECK(whole.passed);
  // By hand: the source's energy = the rotors' kinetic energy + the losses (within 1e-6 of the energy
  // that went through the drive).
  const double kinetic = 0.5 * (0.25 + 0.05) * w.back() * w.back();
  const double drawn = r["source.energy.W_supplied"].back(), lost = r["drive.energy.W_dissipated"].back();
  CHECK(std::fabs(drawn - (kinetic + lost)) < 1e-6 * (kinetic + lost));
}

TEST_CASE("MotorDrive with its heat port: the losses heat a capacitor, the books close", "[vehicle][electric][energy]") {
  DriveOnInertia rig(1.0);
  auto& mass = rig.m.add<thermal::HeatCapacitor>("stator", {{"C", 2e4}});
  rig.m.connect(rig.drive.heat_port, mass.port);
  rig.m.set_start("stator.T", 293.15);
  harness::EnergyBooks books(rig.m);
  Result r = rig.m.compile().simulate(reversing_run(4.0));
  const auto closes = books.components_close(1e-6).evaluate(r);
  const auto whole = books.model_closes(1e-6).evaluate(r);
  INFO(closes.message << "\n" << whole.message);
  CHECK(closes.passed);
  CHECK(whole.passed);
  // The port only routes the loss: the capacitor takes as heat, C·ΔT, what the drive without a port
  // dissipates on the same run (1e-6).
  CHECK(r["drive.energy.W_dissipated"].back() == 0.0);
  DriveOnInertia plain;
  harness::EnergyBooks plain_books(plain.m);
  Result without = plain.m.compile().simulate(reversing_run(4.0));
  const double heat = 2e4 * (r["stator.T"].back() - 293.15);
  CHECK(heat == Approx(without["drive.energy.W_dissipated"].back()).epsilon(1e-6));
  CHECK(heat > 1e3);
}

TEST_CASE("DCMotor: the loaded steady state w = (V - Ra·i)/k, i = tau_load/k, motoring and generating",
          "[vehicle][electric]") {
  const double V = 100.0, Ra = 0.05, k = 0.6366;
  Model m("dc_motor");
  auto& source = m.add<electrical::ConstantVoltage>("source", {{"V", V}});
  auto& ground = m.add<electrical::Ground>("ground");
  auto& motor = m.add<vehicle::DCMotor>("motor");
  auto& load = m.add<rotational::ConstantTorque>("load", {{"tau_constant", -40.0}});
  m.connect(source.p, motor.p);
  m.connect(motor.n, source.n);
  m.connect(source.n, ground.p);
  m.connect(motor.flange, load.flange);
  m.set_start("motor.phi", 0.0);
  m.set_start("motor.w", 0.0);
  m.set_start("motor.i", 0.0);
  harness::EnergyBooks books(m);
  Simulator sim = m.compile();
  CHECK(sim.report().unit_errors.empty());
  // The armature decays at Ra/(2·La) = 16.7 1/s: settled to far below 1e-6 after 2 s.
  for (double tau_load : {40.0, -30.0}) {  // a load, then a torque driving the motor above its no-load speed
    sim.set_parameter("load.tau_constant", -tau_load);
    Result r = sim.simulate(run_for(2.0, 1e-3, 1e-10));
    const double i = tau_load / k, w = (V - Ra * i) / k;
    INFO("load " << tau_load << " N.m: i = " << i << " A, w = " << w << " rad/s");
    CHECK(r["motor.i"].back() == Approx(i).epsilon(1e-6));
    CHECK(r["motor.w"].back() == Approx(w).epsilon(1e-6));
    CHECK(r["motor.LossPower"].back() == Approx(Ra * i * i).epsilon(1e-6));
    const auto closes = books.components_close(1e-6).evaluate(r);
    const auto whole = books.model_closes(1e-6).evaluate(r);
    INFO(closes.message << "\n" << whole.message);
    CHECK(closes.passed);
    CHECK(whole.passed);
  }
  CHECK((V - Ra * 40.0 / k) / k == Approx(152.15).epsilon(1e-4));
}

namespace {

/// The EVController with a constant on each input.
struct Blending {
  Model m{"blending"};
  vehicle::EVController& controller = m.add<vehicle::EVController>("controller");
  Simulator sim;
  Blending() : sim(build(m, controller)) {}

  static Simulator build(Model& m, vehicle::EVController& c) {
    for (Connector* k : c.connectors())
      if (k->members()[0].causality == Causality::input) m.connect(m.add<blocks::Constant>(k->name()).y, *k);
    return m.compile();
  }

  struct Outputs {
    double tau_ref, brake_demand, tau_regen;
  };
  Outputs at(double accelerator, double brake, double v, double w_motor, double tau_available, double P_discharge_max,
             double P_charge_max) {
    for (auto [name, value] : std::vector<std::pair<std::string, double>>{{"accelerator", accelerator},
                                                                          {"brake", brake},
                                                                          {"v", v},
                                                                          {"w_motor", w_motor},
                                                                          {"tau_available", tau_available},
                                                                          {"P_discharge_max", P_discharge_max},
                                                                          {"P_charge_max", P_charge_max}})
      sim.set_parameter(name + ".k", value);
    Result r = sim.simulate(run_for(0.1, 0.1));
    return {r["controller.tau_ref"].back(), r["controller.brake_demand"].back(), r["controller.tau_regen"].back()};
  }
};

}  // namespace

TEST_CASE("EVController: regenerative braking blended with the friction brakes, by hand", "[vehicle][electric]") {
  // Defaults: ratio 9, T_brake_max 4800 N.m, v_fade 2.5 m/s, eta_drive 0.9, w_eps 1 rad/s.
  Blending b;
  CHECK(b.sim.report().unit_errors.empty());
  const double tol = 1e-12;
  SECTION("limited by the battery's charge power") {
    // 0.3 of 4800 N.m = 1440 N.m at the wheels, 160 N.m at the motor; the motor could give 166.7 N.m,
    // the battery takes 50 kW / 600 rad/s = 83.33 N.m; the brakes the rest, 1440 - 750 = 690 N.m.
    auto out = b.at(0.0, 0.3, 20.0, 600.0, 100e3 / 600.0, 100e3, 50e3);
    CHECK(out.tau_regen == Approx(250.0 / 3.0).epsilon(tol));
    CHECK(out.tau_ref == Approx(-250.0 / 3.0).epsilon(tol));
    CHECK(out.brake_demand == Approx(690.0 / 4800.0).epsilon(tol));
  }
  SECTION("limited by the motor's envelope") {
    // 2880 N.m asked for, 320 N.m at the motor; the envelope gives 250 N.m (the battery would take 500):
    // the brakes 2880 - 2250 = 630 N.m.
    auto out = b.at(0.0, 0.6, 10.0, 300.0, 250.0, 100e3, 150e3);
    CHECK(out.tau_regen == Approx(250.0).epsilon(tol));
    CHECK(out.tau_ref == Approx(-250.0).epsilon(tol));
    CHECK(out.brake_demand == Approx(630.0 / 4800.0).epsilon(tol));
  }
  SECTION("a light brake is all regenerative") {
    // 480 N.m asked for: 53.33 N.m at the motor, within both limits (222.2 and 133.3 N.m).
    auto out = b.at(0.0, 0.1, 15.0, 450.0, 100e3 / 450.0, 100e3, 60e3);
    CHECK(out.tau_ref == Approx(-480.0 / 9.0).epsilon(tol));
    CHECK(std::fabs(out.brake_demand) < 1e-15);
  }
  SECTION("fading below v_fade") {
    // At 1 m/s, 0.4 of the regeneration: 0.4·250 = 100 N.m of 266.7 asked for; the brakes 2400 - 900 N.m.
    auto out = b.at(0.0, 0.5, 1.0, 30.0, 250.0, 100e3, 50e3);
    CHECK(out.tau_regen == Approx(100.0).epsilon(tol));
    CHECK(out.brake_demand == Approx(1500.0 / 4800.0).epsilon(tol));
    // At standstill and reversing: none; the friction brakes take the whole request.
    for (double v : {0.0, -2.0}) {
      auto still = b.at(0.0, 0.5, v, 0.0, 250.0, 100e3, 50e3);
      CHECK(still.tau_ref == 0.0);
      CHECK(still.brake_demand == Approx(0.5).epsilon(tol));
    }
    // At v_fade and above, all of it.
    auto above = b.at(0.0, 0.5, 2.5, 75.0, 250.0, 100e3, 50e3);
    CHECK(above.tau_regen == Approx(250.0).epsilon(tol));
  }
  SECTION("a full battery takes nothing: all friction") {
    auto out = b.at(0.0, 0.4, 20.0, 600.0, 166.0, 100e3, 0.0);
    CHECK(out.tau_ref == 0.0);
    CHECK(out.brake_demand == Approx(0.4).epsilon(tol));
  }
  SECTION("drive torque: a share of the envelope, within the discharge limit") {
    // 0.9·80 kW / 600 rad/s = 120 N.m below the envelope's 166.7 N.m: half the pedal gives 60 N.m.
    auto fast = b.at(0.5, 0.0, 20.0, 600.0, 100e3 / 600.0, 80e3, 50e3);
    CHECK(fast.tau_ref == Approx(60.0).epsilon(tol));
    CHECK(fast.brake_demand == 0.0);
    // At 100 rad/s the battery would allow 720 N.m: the envelope's 250 N.m holds; 0.8 of it.
    auto slow = b.at(0.8, 0.0, 3.3, 100.0, 250.0, 80e3, 50e3);
    CHECK(slow.tau_ref == Approx(200.0).epsilon(tol));
    // At standstill the power limits are read at w_eps = 1 rad/s: 72 kN.m, above the envelope.
    auto launch = b.at(1.0, 0.0, 0.0, 0.0, 250.0, 80e3, 50e3);
    CHECK(launch.tau_ref == Approx(250.0).epsilon(tol));
  }
}

}  // namespace test_motor_drive
