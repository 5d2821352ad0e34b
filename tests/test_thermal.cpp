// The thermal domain (Modelica.Thermal.HeatTransfer) against its closed forms,
// and the mechanics' heat ports (MSL useHeatPort): a brake's loss becomes the
// disc's heat. Tolerances are stated per check: trajectories integrated at
// rtol 1e-10 are held to 1e-6 of their scale (a temperature difference, an
// energy), algebraic relations (exact by construction in every output row)
// to 1e-9.
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>
#include <acausal/harness/energy.hpp>

#include <algorithm>
#include <cmath>
#include <string>

#include "support.hpp"

namespace test_thermal {

using namespace acausal;
using Catch::Matchers::Contains;

namespace {

constexpr double T_room = thermal::from_degC(20.0);

/// The value of `name` in the row at output time t (after an event there).
double at(const Result& r, const std::string& name, double t) {
  const auto& time = r.time();
  std::size_t row = 0;
  for (std::size_t k = 0; k < time.size(); ++k)
    if (std::fabs(time[k] - t) <= std::fabs(time[row] - t)) row = k;
  REQUIRE(std::fabs(time[row] - t) < 1e-9);
  return r[name][row];
}

/// Compiles and runs `m`, checking on the way that every equation is
/// dimensionally consistent (the heat ports' switch between watts and kelvin
/// among them).
Result run(Model& m, const SimulationOptions& options) {
  Simulator sim = m.compile();
  std::string errors;
  for (const auto& e : sim.report().unit_errors) errors += e + "\n";
  INFO(errors);
  CHECK(sim.report().unit_errors.empty());
  return sim.simulate(options);
}

/// The largest imbalance W_ports + W_supplied - ΔE_stored - W_dissipated, in J,
/// over the rows and the accounts. An element that passes energy on (a brake
/// whose loss leaves as heat) nets zero at its ports, so the harness's relative
/// check has no scale for it: the callers divide by the energy that went through.
double worst_imbalance(const harness::EnergyBooks& books, const Result& r) {
  double worst = 0;
  for (const auto& account : books.accounts()) {
    const auto c = r.evaluate({account.W_ports, account.W_supplied, account.stored, account.W_dissipated});
    for (std::size_t k = 0; k < r.size(); ++k)
      worst = std::max(worst, std::fabs(c[0][k] + c[1][k] - (c[2][k] - c[2][0]) - c[3][k]));
  }
  return worst;
}

enum class BrakeKind { rotational, vehicle };

/// A flywheel standing in for the car (J, w0) stopped by a brake of constant
/// torque tau: w = w0 - tau/J·t until t_stop, the kinetic energy ½·J·w0² lost.
/// With its heat port on, the loss heats a disc (C); with Gc > 0 the disc is
/// cooled by convection to the air at T_room.
struct BrakeStop : Model {
  static constexpr double J = 2.0, w0 = 100.0, tau = 200.0, C = 500.0, T0 = T_room;
  static constexpr double t_stop = J * w0 / tau, kinetic = 0.5 * J * w0 * w0;  // 1 s, 10 kJ

  BrakeStop(BrakeKind kind, bool heat_port, double Gc = 0.0) : Model("brake_stop") {
    auto& flywheel = add<rotational::Inertia>("flywheel", {{"J", J}});
    auto& pedal = add<blocks::Constant>("pedal", {{"k", 1.0}});
    const double on = heat_port ? 1.0 : 0.0;
    thermal::HeatPort* port = nullptr;
    if (kind == BrakeKind::rotational) {
      // The default mu_pos is 0.5: tau = 0.5·fn_max.
      auto& brake = add<rotational::Brake>("brake", {{"fn_max", 2 * tau}, {"use_heat_port", on}});
      connect(flywheel.flange_b, brake.flange_a);
      connect(pedal.y, brake.f_normalized);
      port = &brake.heat.heat_port;
    } else {
      auto& brake = add<vehicle::Brake>("brake", {{"tau_max", tau}, {"use_heat_port", on}});
      connect(flywheel.flange_b, brake.flange_a);
      connect(pedal.y, brake.brake_input);
      port = &brake.heat.heat_port;
    }
    set_start("flywheel.phi", 0.0);
    set_start("flywheel.w", w0);
    if (!heat_port) return;
    auto& disc = add<thermal::HeatCapacitor>("disc", {{"C", C}});
    connect(*port, disc.port);
    set_start("disc.T", T0);
    if (Gc <= 0) return;
    auto& air = add<thermal::FixedTemperature>("air", {{"T", T0}});
    auto& convection = add<thermal::Convection>("convection");
    connect(disc.port, convection.solid);
    connect(convection.fluid, air.port);
    connect(add<blocks::Constant>("Gc", {{"k", Gc}}).y, convection.Gc);
  }

  static double w(double t) { return std::max(0.0, w0 - tau / J * t); }
  /// The disc's temperature without convection: all the kinetic energy lost so far.
  static double T_disc(double t) { return T0 + (kinetic - 0.5 * J * w(t) * w(t)) / C; }
};

}  // namespace

TEST_CASE("two heat capacitors joined by a conductor equalize exponentially to the mixed temperature",
          "[thermal]") {
  const double C1 = 200.0, C2 = 600.0, G = 10.0, T1 = thermal::from_degC(100.0), T2 = T_room;
  const double tau = C1 * C2 / (G * (C1 + C2)), T_final = (C1 * T1 + C2 * T2) / (C1 + C2);  // 15 s, 40 °C
  Model m("two_bodies");
  auto& hot = m.add<thermal::HeatCapacitor>("hot", {{"C", C1}});
  auto& cold = m.add<thermal::HeatCapacitor>("cold", {{"C", C2}});
  auto& wall = m.add<thermal::ThermalConductor>("wall", {{"G", G}});
  auto& flow = m.add<thermal::HeatFlowSensor>("flow");
  auto& thermometer = m.add<thermal::TemperatureSensor>("thermometer");
  m.connect(hot.port, wall.port_a);
  m.connect(wall.port_b, flow.port_a);
  m.connect(flow.port_b, cold.port);
  m.connect(hot.port, thermometer.port);
  m.set_start("hot.T", T1);
  m.set_start("cold.T", T2);
  harness::EnergyBooks books(m);
  Result r = run(m, test::run_for(30 * tau, 1.0, 1e-10));

  // T(t) = T_final + (T(0) - T_final)·exp(-t/tau), within 1e-6 of the initial difference (80 K).
  const double scale = T1 - T2;
  CHECK(test::worst(r, "hot.T", [&](double t) { return T_final + (T1 - T_final) * std::exp(-t / tau); }) <
        1e-6 * scale);
  CHECK(test::worst(r, "cold.T", [&](double t) { return T_final + (T2 - T_final) * std::exp(-t / tau); }) <
        1e-6 * scale);
  // After 30 time constants both stand at the mixed temperature (40 °C), within 1e-6 of the difference.
  CHECK(std::fabs(r["hot.T"].back() - T_final) < 1e-6 * scale);
  CHECK(std::fabs(r["cold.T"].back() - T_final) < 1e-6 * scale);
  CHECK(std::fabs(thermal::to_degC(T_final) - 40.0) < 1e-12);

  // The sensors read G·(T1 - T2) and T1 in every row (algebraic: 1e-9 of their scale).
  const auto Th = r["hot.T"], Tc = r["cold.T"], Q = r["flow.Q_flow"], T_read = r["thermometer.T"];
  double worst_Q = 0, worst_T = 0;
  for (std::size_t k = 0; k < r.size(); ++k) {
    worst_Q = std::max(worst_Q, std::fabs(Q[k] - G * (Th[k] - Tc[k])));
    worst_T = std::max(worst_T, std::fabs(T_read[k] - Th[k]));
  }
  CHECK(worst_Q < 1e-9 * G * scale);
  CHECK(worst_T < 1e-9 * T1);

  // Heat is conserved: C1·T1 + C2·T2 stays put, within 1e-6 of the heat exchanged (12 kJ).
  const double exchanged = C1 * (T1 - T_final);
  double drift = 0;
  for (std::size_t k = 0; k < r.size(); ++k)
    drift = std::max(drift, std::fabs(C1 * Th[k] + C2 * Tc[k] - (C1 * T1 + C2 * T2)));
  CHECK(drift < 1e-6 * exchanged);
  // Each component's books close within 1e-6 of it (the model's net is zero: no scale of its own).
  CHECK(worst_imbalance(books, r) < 1e-6 * exchanged);
}

TEST_CASE("a ThermalResistor of R = 1/G gives the conductor's results", "[thermal]") {
  auto equalize = [](bool resistor) {
    Model m("two_bodies");
    auto& hot = m.add<thermal::HeatCapacitor>("hot", {{"C", 200.0}});
    auto& cold = m.add<thermal::HeatCapacitor>("cold", {{"C", 600.0}});
    thermal::Element1D& wall =
        resistor ? static_cast<thermal::Element1D&>(m.add<thermal::ThermalResistor>("wall", {{"R", 0.1}}))
                 : m.add<thermal::ThermalConductor>("wall", {{"G", 10.0}});
    m.connect(hot.port, wall.port_a);
    m.connect(wall.port_b, cold.port);
    m.set_start("hot.T", thermal::from_degC(100.0));
    m.set_start("cold.T", T_room);
    return run(m, test::run_for(60.0, 1.0, 1e-10));
  };
  const Result a = equalize(false), b = equalize(true);
  REQUIRE(a.size() == b.size());
  const auto Ta = a["hot.T"], Tb = b["hot.T"];
  double worst = 0;
  for (std::size_t k = 0; k < a.size(); ++k) worst = std::max(worst, std::fabs(Ta[k] - Tb[k]));
  CHECK(worst < 1e-6 * 80.0);  // both within 1e-6 of the closed form: within 1e-6 of 80 K of each other
}

TEST_CASE("a heat capacitor cooled by convection to a fixed temperature: T = T_air + ΔT0·exp(-Gc·t/C)",
          "[thermal]") {
  const double C = 500.0, Gc = 25.0, T0 = thermal::from_degC(100.0), T_air = T_room, tau = C / Gc;  // 20 s
  Model m("cooling");
  auto& body = m.add<thermal::HeatCapacitor>("body", {{"C", C}});
  auto& convection = m.add<thermal::Convection>("convection");
  auto& air = m.add<thermal::FixedTemperature>("air", {{"T", T_air}});
  auto& difference = m.add<thermal::RelTemperatureSensor>("difference");
  m.connect(body.port, convection.solid);
  m.connect(convection.fluid, air.port);
  m.connect(m.add<blocks::Constant>("Gc", {{"k", Gc}}).y, convection.Gc);
  m.connect(body.port, difference.port_a);
  m.connect(air.port, difference.port_b);
  m.set_start("body.T", T0);
  harness::EnergyBooks books(m);
  Result r = run(m, test::run_for(5 * tau, 0.1, 1e-10));

  const double scale = T0 - T_air;  // 80 K
  auto closed_form = [&](double t) { return T_air + scale * std::exp(-t / tau); };
  CHECK(test::worst(r, "body.T", closed_form) < 1e-6 * scale);
  CHECK(test::worst(r, "difference.T_rel", [&](double t) { return closed_form(t) - T_air; }) < 1e-6 * scale);
  // Convection passes the heat on: Q_flow = Gc·(T - T_air) in every row (algebraic, 1e-9).
  CHECK(test::worst(r, "convection.Q_flow",
                    [&, T = r["body.T"]](double, std::size_t k) { return Gc * (T[k] - T_air); }) < 1e-9 * Gc * scale);
  // The air takes what the body loses (C·ΔT0 = 40 kJ): each component's books within 1e-6 of
  // that, the model's within 1e-6 (harness).
  CHECK(worst_imbalance(books, r) < 1e-6 * C * scale);
  const auto whole = books.model_closes(1e-6).evaluate(r);
  INFO(whole.message);
  CHECK(whole.passed);
}

TEST_CASE("a fixed heat flow with a temperature coefficient heats as MSL's sign says", "[thermal]") {
  // C·der(T) = Q·(1 + alpha·(T - T_ref)): T - T_ref = (exp(Q·alpha·t/C) - 1)/alpha from T_ref.
  const double C = 100.0, Q = 50.0, alpha = 0.01, T_ref = T_room, t_end = 100.0;
  Model m("heater");
  auto& body = m.add<thermal::HeatCapacitor>("body", {{"C", C}});
  auto& heater = m.add<thermal::FixedHeatFlow>("heater", {{"Q_flow", Q}, {"T_ref", T_ref}, {"alpha", alpha}});
  m.connect(heater.port, body.port);
  m.set_start("body.T", T_ref);
  harness::EnergyBooks books(m);
  Result r = run(m, test::run_for(t_end, 0.5, 1e-10));
  auto closed_form = [&](double t) { return T_ref + (std::exp(Q * alpha * t / C) - 1) / alpha; };
  const double rise = closed_form(t_end) - T_ref;  // 64.9 K
  CHECK(test::worst(r, "body.T", closed_form) < 1e-6 * rise);
  const auto whole = books.model_closes(1e-6).evaluate(r);
  INFO(whole.message);
  CHECK(whole.passed);
}

TEST_CASE("body radiation heated by a prescribed heat flow settles where sigma·Gr·(T⁴ - T_amb⁴) = Q",
          "[thermal]") {
  const double C = 10.0, Gr = 1.0, Q = 1000.0, T_amb = 300.0, sigma = 5.670374419e-8;
  const double T_steady = std::pow(std::pow(T_amb, 4) + Q / (sigma * Gr), 0.25);  // 400.5 K
  Model m("radiator");
  auto& body = m.add<thermal::HeatCapacitor>("body", {{"C", C}});
  auto& radiation = m.add<thermal::BodyRadiation>("radiation", {{"Gr", Gr}});
  auto& surroundings = m.add<thermal::PrescribedTemperature>("surroundings");
  auto& heater = m.add<thermal::PrescribedHeatFlow>("heater");
  m.connect(m.add<blocks::Constant>("T_amb", {{"k", T_amb}}).y, surroundings.T);
  m.connect(m.add<blocks::Constant>("Q", {{"k", Q}}).y, heater.Q_flow);
  m.connect(heater.port, body.port);
  m.connect(body.port, radiation.port_a);
  m.connect(radiation.port_b, surroundings.port);
  m.set_start("body.T", T_amb);
  harness::EnergyBooks books(m);
  // The linearized time constant at 400 K is C/(4·sigma·Gr·T³) = 0.69 s: 30 s are 43 of them.
  Result r = run(m, test::run_for(30.0, 0.05, 1e-10));

  CHECK(std::fabs(r["body.T"].back() - T_steady) < 1e-6 * (T_steady - T_amb));
  const auto T = r["body.T"];
  CHECK(test::worst(r, "radiation.Q_flow", [&](double, std::size_t k) {
          return Gr * sigma * (std::pow(T[k], 4) - std::pow(T_amb, 4));
        }) < 1e-9 * Q);
  // The heater's 30 kJ: each component's books within 1e-6 of it, the model's within 1e-6 (harness).
  CHECK(worst_imbalance(books, r) < 1e-6 * Q * 30.0);
  const auto whole = books.model_closes(1e-6).evaluate(r);
  INFO(whole.message);
  CHECK(whole.passed);
}

TEST_CASE("a brake disc heats by the kinetic energy of the stop: ΔT = ½·J·w0²/C", "[thermal][friction]") {
  for (BrakeKind kind : {BrakeKind::rotational, BrakeKind::vehicle}) {
    INFO((kind == BrakeKind::rotational ? "rotational::Brake" : "vehicle::Brake"));
    BrakeStop stop(kind, true);
    harness::EnergyBooks books(stop);
    Result r = run(stop, test::run_for(3.0, 0.03, 1e-10));

    const double rise = BrakeStop::kinetic / BrakeStop::C;  // 20 K
    CHECK(test::worst(r, "flywheel.w", BrakeStop::w) < 1e-6 * BrakeStop::w0);
    CHECK(std::fabs(r["disc.T"].back() - BrakeStop::T0 - rise) < 1e-6 * rise);
    // All along, the disc holds what the flywheel lost.
    CHECK(test::worst(r, "disc.T", [](double t) { return BrakeStop::T_disc(t); }) < 1e-6 * rise);
    // The loss leaves through the port (algebraic, 1e-9 of the peak power tau·w0).
    const auto Q = r["brake.heat_port.Q_flow"], P = r["brake.lossPower"];
    double worst = 0;
    for (std::size_t k = 0; k < r.size(); ++k) worst = std::max(worst, std::fabs(Q[k] + P[k]));
    CHECK(worst < 1e-9 * BrakeStop::tau * BrakeStop::w0);
    // Nothing is dissipated inside the brake: the kinetic energy became the disc's heat. Every
    // component's books close within 1e-6 of the kinetic energy (the brake's own ports net zero).
    CHECK(std::fabs(r["brake.energy.W_dissipated"].back()) < 1e-9 * BrakeStop::kinetic);
    CHECK(worst_imbalance(books, r) < 1e-6 * BrakeStop::kinetic);
  }
}

TEST_CASE("after the stop, the disc cools to the air with time constant C/Gc, the books close across domains",
          "[thermal][friction]") {
  const double Gc = 5.0, tau_cool = BrakeStop::C / Gc;  // 100 s
  BrakeStop stop(BrakeKind::rotational, true, Gc);
  harness::EnergyBooks books(stop);
  Result r = run(stop, test::run_for(2.0 + tau_cool + 5.0, 0.5, 1e-10));

  // Stopped at 1 s, the disc's excess temperature decays as exp(-t·Gc/C): over one time
  // constant (2 s to 102 s) by e⁻¹, within 1e-6 relative.
  const double t_a = BrakeStop::t_stop + 1.0, t_b = t_a + tau_cool;
  const double ratio = (at(r, "disc.T", t_b) - BrakeStop::T0) / (at(r, "disc.T", t_a) - BrakeStop::T0);
  CHECK(std::fabs(ratio / std::exp(-1.0) - 1.0) < 1e-6);
  // Kinetic energy → heat in the disc + heat to the air: every account within 1e-6 of the
  // kinetic energy, the model's (air supplies −heat, stored ΔE_kin + ΔE_disc) within 1e-6.
  CHECK(worst_imbalance(books, r) < 1e-6 * BrakeStop::kinetic);
  const auto whole = books.model_closes(1e-6).evaluate(r);
  INFO(whole.message);
  CHECK(whole.passed);
  const double to_air = r["air.energy.W_ports"].back();
  const double in_disc = BrakeStop::C * (r["disc.T"].back() - BrakeStop::T0);
  CHECK(std::fabs(to_air + in_disc - BrakeStop::kinetic) < 1e-6 * BrakeStop::kinetic);
}

TEST_CASE("with use_heat_port = 0 (the default) a brake still dissipates its loss and moves as with a port",
          "[thermal][friction]") {
  for (BrakeKind kind : {BrakeKind::rotational, BrakeKind::vehicle}) {
    INFO((kind == BrakeKind::rotational ? "rotational::Brake" : "vehicle::Brake"));
    BrakeStop off(kind, false), on(kind, true);
    harness::EnergyBooks books(off);
    const Result r = run(off, test::run_for(3.0, 0.03, 1e-10));
    const Result with_port = run(on, test::run_for(3.0, 0.03, 1e-10));

    // lossPower is dissipated (within 1e-6 of ½·J·w0²), and the harness's books close (1e-6).
    CHECK(std::fabs(r["brake.energy.W_dissipated"].back() - BrakeStop::kinetic) < 1e-6 * BrakeStop::kinetic);
    const auto components = books.components_close(1e-6).evaluate(r);
    const auto whole = books.model_closes(1e-6).evaluate(r);
    INFO(components.message << "\n" << whole.message);
    CHECK(components.passed);
    CHECK(whole.passed);
    // The idle port sits at T with no heat flow.
    CHECK(test::worst(r, "brake.heat_port.T", [](double) { return 293.15; }) == 0.0);
    CHECK(test::worst(r, "brake.heat_port.Q_flow", [](double) { return 0.0; }) == 0.0);
    // The mechanics does not see the port: the same rows, the same speeds (1e-9 of w0).
    REQUIRE(r.size() == with_port.size());
    const auto w = r["flywheel.w"], w_port = with_port["flywheel.w"];
    double worst_t = 0, worst_w = 0;
    for (std::size_t k = 0; k < r.size(); ++k) {
      worst_t = std::max(worst_t, std::fabs(r.time()[k] - with_port.time()[k]));
      worst_w = std::max(worst_w, std::fabs(w[k] - w_port[k]));
    }
    CHECK(worst_t < 1e-9);
    CHECK(worst_w < 1e-9 * BrakeStop::w0);
  }
}

TEST_CASE("heat ports on a translational Brake and a rotational Damper carry the energy they take", "[thermal]") {
  SECTION("a sliding mass braked to rest heats the pad by ½·m·v0²/C") {
    const double mass = 10.0, v0 = 2.0, f = 20.0, C = 2.0, kinetic = 0.5 * mass * v0 * v0;  // 20 J, 10 K
    Model m("sled");
    auto& sled = m.add<translational::Mass>("sled", {{"m", mass}});
    auto& brake = m.add<translational::Brake>("brake", {{"fn_max", 2 * f}, {"use_heat_port", 1.0}});
    auto& pad = m.add<thermal::HeatCapacitor>("pad", {{"C", C}});
    m.connect(sled.flange_b, brake.flange_a);
    m.connect(m.add<blocks::Constant>("pedal").y, brake.f_normalized);
    m.connect(brake.heat.heat_port, pad.port);
    m.set_start("sled.s", 0.0);
    m.set_start("sled.v", v0);
    m.set_start("pad.T", T_room);
    harness::EnergyBooks books(m);
    Result r = run(m, test::run_for(2.0, 0.03, 1e-10));  // stops at m·v0/f = 1 s
    CHECK(std::fabs(r["pad.T"].back() - T_room - kinetic / C) < 1e-6 * kinetic / C);
    CHECK(worst_imbalance(books, r) < 1e-6 * kinetic);
  }
  SECTION("a flywheel on a damper to the ground heats it by ½·J·w0²/C as w decays") {
    const double J = 2.0, w0 = 10.0, d = 4.0, C = 10.0, kinetic = 0.5 * J * w0 * w0;  // 100 J, 10 K
    Model m("spin_down");
    auto& flywheel = m.add<rotational::Inertia>("flywheel", {{"J", J}});
    auto& damper = m.add<rotational::Damper>("damper", {{"d", d}, {"use_heat_port", 1.0}});
    auto& body = m.add<thermal::HeatCapacitor>("body", {{"C", C}});
    m.connect(flywheel.flange_b, damper.flange_a);
    m.connect(damper.flange_b, m.add<rotational::Fixed>("ground").flange);
    m.connect(damper.heat.heat_port, body.port);
    m.set_start("flywheel.phi", 0.0);
    m.set_start("flywheel.w", w0);
    m.set_start("body.T", T_room);
    harness::EnergyBooks books(m);
    Result r = run(m, test::run_for(15.0, 0.05, 1e-10));  // J/d = 0.5 s: 30 time constants
    // w = w0·exp(-d·t/J): the body holds ½·J·(w0² - w²).
    auto T = [&](double t) { return T_room + kinetic * (1 - std::exp(-2 * d * t / J)) / C; };
    CHECK(test::worst(r, "body.T", T) < 1e-6 * kinetic / C);
    CHECK(worst_imbalance(books, r) < 1e-6 * kinetic);
  }
}

TEST_CASE("connecting a heat port while use_heat_port = 0 is refused at compile, naming the connector",
          "[thermal][errors]") {
  Model m("refused");
  auto& flywheel = m.add<rotational::Inertia>("flywheel");
  auto& brake = m.add<rotational::Brake>("brake");
  auto& disc = m.add<thermal::HeatCapacitor>("disc");
  m.connect(flywheel.flange_b, brake.flange_a);
  m.connect(m.add<blocks::Constant>("pedal").y, brake.f_normalized);
  m.connect(brake.heat.heat_port, disc.port);
  CHECK_THROWS_WITH(m.compile(), Contains("brake.heat_port") && Contains("use_heat_port = 1"));
}

TEST_CASE("degC helpers convert both ways", "[thermal]") {
  static_assert(thermal::from_degC(0.0) == 273.15);
  CHECK(std::fabs(thermal::to_degC(thermal::from_degC(37.5)) - 37.5) < 1e-12);
  CHECK(std::fabs(thermal::to_degC(373.15) - 100.0) < 1e-12);
}

}  // namespace test_thermal
