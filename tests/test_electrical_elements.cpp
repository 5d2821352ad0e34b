// Electrical elements one by one (issue 32, item 1): the conditional heat
// port, the ideal switches and thyristor, transformer and gyrator, sensors,
// the averaged DC/DC converter, and the units of every electrical component.
// Circuits without states or with linear closed forms: algebraic relations are
// exact in every output row (checked to 1e-12 of their scale), trajectories
// integrated at rtol 1e-10 are held to 1e-6 of theirs.
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>
#include <acausal/components/library.hpp>
#include <acausal/harness/energy.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "support.hpp"

namespace test_electrical_elements {

using namespace acausal;
using Catch::Matchers::Contains;

namespace {

constexpr double pi = std::numbers::pi;

/// A constant voltage V across a resistor: the smallest circuit with a loss.
struct Heater : Model {
  electrical::ConstantVoltage& source;
  electrical::Resistor& resistor;
  Heater(const ParameterValues& resistor_parameters, double V)
      : Model("heater"),
        source(add<electrical::ConstantVoltage>("source", {{"V", V}})),
        resistor(add<electrical::Resistor>("resistor", resistor_parameters)) {
    auto& ground = add<electrical::Ground>("ground");
    connect(source.p, resistor.p);
    connect(resistor.n, source.n);
    connect(source.n, ground.p);
  }
};

/// Wires a component so that it compiles: each pin through 1 Ω to ground, each
/// input from a constant, each flange to an inertia, a heat port (switched on)
/// to a sink.
void rig(Model& m, Component& c, electrical::Pin& ground) {
  for (Connector* k : c.connectors()) {
    const std::string name = c.name() + "_" + k->name();
    if (k->type() == "electrical.Pin") {
      auto& r = m.add<electrical::Resistor>("r_" + name);
      m.connect(*k, r.p);
      m.connect(r.n, ground);
    } else if (k->type() == "rotational.Flange") {
      m.connect(*k, m.add<rotational::Inertia>("j_" + name).flange_a);
    } else if (k->type() == "thermal.HeatPort") {
      c.set_parameter("use_heat_port", 1.0);
      m.connect(*k, m.add<thermal::FixedTemperature>("sink_" + name, {{"T", 350.0}}).port);
    } else if (k->members().size() == 1 && k->members()[0].causality == Causality::input) {
      m.connect(m.add<blocks::Constant>("u_" + name).y, *k);
    }
  }
}

void check_books(const harness::EnergyBooks& books, const Result& r, double tolerance) {
  const auto closes = books.components_close(tolerance).evaluate(r);
  const auto whole = books.model_closes(tolerance).evaluate(r);
  INFO(closes.message << "\n" << whole.message);
  CHECK(closes.passed);
  CHECK(whole.passed);
}

}  // namespace

TEST_CASE("A Resistor's heat port exists only with use_heat_port = 1: connecting it otherwise is refused",
          "[electrical][thermal][errors]") {
  Heater m({{"R", 2.0}}, 12.0);
  auto& sink = m.add<thermal::FixedTemperature>("sink", {{"T", 350.0}});
  m.connect(m.resistor.heat_port, sink.port);
  CHECK_THROWS_WITH(m.compile(), Contains("resistor.heat_port") && Contains("use_heat_port"));
}

TEST_CASE("A Resistor with its heat port: R_actual = R(1 + alpha(T - T_ref)) at the port's temperature, the loss "
          "leaves as heat",
          "[electrical][thermal][energy]") {
  const double V = 12.0, R = 2.0, alpha = 0.004, T_ref = 300.15, T_sink = 350.0, t_end = 2.0;
  Heater m({{"R", R}, {"alpha", alpha}, {"use_heat_port", 1.0}}, V);
  auto& sink = m.add<thermal::FixedTemperature>("sink", {{"T", T_sink}});
  m.connect(m.resistor.heat_port, sink.port);
  harness::EnergyBooks books(m);
  Simulator sim = m.compile();
  Result r = sim.simulate(test::run_for(t_end, 0.1, 1e-10));

  const double R_actual = R * (1 + alpha * (T_sink - T_ref)), P = V * V / R_actual;
  CHECK(r["resistor.T_heatPort"].back() == Approx(T_sink).epsilon(1e-12));
  CHECK(r["resistor.R_actual"].back() == Approx(R_actual).epsilon(1e-12));
  CHECK(r["resistor.i"].back() == Approx(V / R_actual).epsilon(1e-12));
  CHECK(r["resistor.LossPower"].back() == Approx(P).epsilon(1e-12));
  // Q_flow is positive into a component: -P into the resistor, +P into the sink.
  CHECK(r["resistor.heat_port.Q_flow"].back() == Approx(-P).epsilon(1e-12));
  CHECK(r["sink.port.Q_flow"].back() == Approx(P).epsilon(1e-12));
  // The resistor loses nothing itself: the heat counts as port power; the sink takes P·t.
  CHECK(r["resistor.energy.W_dissipated"].back() == 0.0);
  CHECK(r["sink.energy.W_supplied"].back() == Approx(-P * t_end).epsilon(1e-9));
  check_books(books, r, 1e-6);
  // The port's existence was decided at compile().
  CHECK_THROWS_WITH(sim.set_parameter("resistor.use_heat_port", 0.0), Contains("structural"));
}

TEST_CASE("A Resistor without its heat port sits at T: R_actual = R(1 + alpha(T - T_ref)), the loss is dissipated",
          "[electrical][thermal][energy]") {
  const double V = 12.0, R = 2.0, alpha = 0.01, T_ref = 300.15, T = 400.0, t_end = 2.0;
  Heater m({{"R", R}, {"alpha", alpha}, {"T", T}}, V);
  harness::EnergyBooks books(m);
  Result r = m.compile().simulate(test::run_for(t_end, 0.1, 1e-10));
  const double R_actual = R * (1 + alpha * (T - T_ref)), P = V * V / R_actual;
  CHECK(r["resistor.R_actual"].back() == Approx(R_actual).epsilon(1e-12));
  CHECK(r["resistor.heat_port.T"].back() == Approx(T).epsilon(1e-12));
  CHECK(r["resistor.heat_port.Q_flow"].back() == 0.0);
  CHECK(r["resistor.energy.W_dissipated"].back() == Approx(P * t_end).epsilon(1e-9));
  check_books(books, r, 1e-6);
}

TEST_CASE("IdealClosingSwitch (Ron = Goff = 0) closes an RL circuit at its control step: i = V/R(1 - exp(-(t - t0)R/L))",
          "[electrical][events]") {
  const double V = 10.0, R = 2.0, L = 0.1, t0 = 0.1;
  Model m("closing");
  auto& source = m.add<electrical::ConstantVoltage>("source", {{"V", V}});
  auto& sw = m.add<electrical::IdealClosingSwitch>("switch", {{"Ron", 0.0}, {"Goff", 0.0}});
  auto& resistor = m.add<electrical::Resistor>("resistor", {{"R", R}});
  auto& inductor = m.add<electrical::Inductor>("inductor", {{"L", L}});
  auto& ground = m.add<electrical::Ground>("ground");
  auto& control = m.add<blocks::Step>("control", {{"startTime", t0}});
  m.connect(control.y, sw.control);
  m.connect(source.p, sw.p);
  m.connect(sw.n, resistor.p);
  m.connect(resistor.n, inductor.p);
  m.connect(inductor.n, source.n);
  m.connect(source.n, ground.p);
  m.set_start("inductor.i", 0.0);
  harness::EnergyBooks books(m);
  Result r = m.compile().simulate(test::run_for(0.5, 1e-3, 1e-10));
  CHECK(test::worst(r, "inductor.i", [&](double t) { return t < t0 ? 0.0 : V / R * (1 - std::exp(-(t - t0) * R / L)); }) <
        1e-6 * V / R);
  REQUIRE(r.event_times().size() == 1);
  CHECK(r.event_times()[0] == t0);
  // Open, the whole source voltage across the switch; closed, none (1e-12).
  const auto v = r["switch.v"], off = r["switch.off"];
  double worst = 0;
  for (std::size_t k = 0; k < r.size(); ++k) worst = std::max(worst, std::fabs(v[k] - (off[k] > 0.5 ? V : 0.0)));
  CHECK(worst < 1e-12 * V);
  CHECK(off.front() == 1.0);
  CHECK(off.back() == 0.0);
  check_books(books, r, 1e-6);
}

TEST_CASE("IdealOpeningSwitch disconnects a charged capacitor, which then discharges through its load", "[electrical][events]") {
  const double V = 10.0, Ron = 1e-5, R = 100.0, C = 1e-3, t1 = 0.2;
  const double v1 = V * R / (R + Ron);  // closed, the load divides the source voltage with Ron
  Model m("opening");
  auto& source = m.add<electrical::ConstantVoltage>("source", {{"V", V}});
  auto& sw = m.add<electrical::IdealOpeningSwitch>("switch", {{"Ron", Ron}, {"Goff", 0.0}});
  auto& capacitor = m.add<electrical::Capacitor>("capacitor", {{"C", C}});
  auto& load = m.add<electrical::Resistor>("load", {{"R", R}});
  auto& ground = m.add<electrical::Ground>("ground");
  auto& control = m.add<blocks::Step>("control", {{"startTime", t1}});
  m.connect(control.y, sw.control);
  m.connect(source.p, sw.p);
  m.connect(sw.n, capacitor.p);
  m.connect(capacitor.p, load.p);
  m.connect(capacitor.n, ground.p);
  m.connect(load.n, ground.p);
  m.connect(source.n, ground.p);
  m.set_start("capacitor.v", v1);
  Result r = m.compile().simulate(test::run_for(0.6, 1e-3, 1e-10));
  CHECK(test::worst(r, "capacitor.v", [&](double t) { return t <= t1 ? v1 : v1 * std::exp(-(t - t1) / (R * C)); }) <
        1e-6 * V);
}

TEST_CASE("IdealThyristor blocks until fired, then conducts in each positive half-wave", "[electrical][events]") {
  const double V = 10.0, f = 50.0, R = 5.0, t_fire = 0.025;
  Model m("thyristor");
  auto& source = m.add<electrical::SineVoltage>("source", {{"V", V}, {"f", f}});
  auto& thyristor = m.add<electrical::IdealThyristor>("thyristor", {{"Ron", 0.0}, {"Goff", 0.0}});
  auto& load = m.add<electrical::Resistor>("load", {{"R", R}});
  auto& ground = m.add<electrical::Ground>("ground");
  auto& fire = m.add<blocks::Step>("fire", {{"startTime", t_fire}});
  m.connect(fire.y, thyristor.fire);
  m.connect(source.p, thyristor.p);
  m.connect(thyristor.n, load.p);
  m.connect(load.n, source.n);
  m.connect(source.n, ground.p);
  Result r = m.compile().simulate(test::run_for(0.1, 1e-4, 1e-10));
  // Not before the gate fires (the first half-wave is forward, yet blocked); from the
  // firing instant on, i = v/R while the source is positive, 0 while it is negative.
  auto expected = [&](double t) {
    const double v = V * std::sin(2 * pi * f * t);
    return t < t_fire || v < 0 ? 0.0 : v / R;
  };
  const auto i = r["load.i"];
  double worst = 0;
  for (std::size_t k = 0; k < r.size(); ++k) {
    const double t = r.time()[k];
    // At a switching instant the left and right rows differ; the closed form is one of them.
    bool at_event = false;
    for (double e : r.event_times()) at_event |= std::fabs(t - e) < 1e-9;
    if (!at_event) worst = std::max(worst, std::fabs(i[k] - expected(t)));
  }
  CHECK(worst < 1e-9 * V / R);
  CHECK(std::find(r.event_times().begin(), r.event_times().end(), t_fire) != r.event_times().end());
}

TEST_CASE("IdealTransformer: v1 = n·v2, i2 = -n·i1, lossless", "[electrical][energy]") {
  const double V = 100.0, n = 2.0, R = 10.0;
  Model m("transformer");
  auto& source = m.add<electrical::ConstantVoltage>("source", {{"V", V}});
  auto& transformer = m.add<electrical::IdealTransformer>("transformer", {{"n", n}});
  auto& load = m.add<electrical::Resistor>("load", {{"R", R}});
  auto& ground = m.add<electrical::Ground>("ground");
  m.connect(source.p, transformer.p1);
  m.connect(source.n, transformer.n1);
  m.connect(transformer.p2, load.p);
  m.connect(transformer.n2, load.n);
  m.connect(source.n, ground.p);
  m.connect(transformer.n2, ground.p);
  harness::EnergyBooks books(m);
  Result r = m.compile().simulate(test::run_for(1.0, 0.1, 1e-10));
  CHECK(r["transformer.v2"].back() == Approx(V / n).epsilon(1e-12));
  CHECK(r["load.i"].back() == Approx(V / n / R).epsilon(1e-12));
  CHECK(r["transformer.i2"].back() == Approx(-V / n / R).epsilon(1e-12));
  CHECK(r["transformer.i1"].back() == Approx(V / (n * n * R)).epsilon(1e-12));
  check_books(books, r, 1e-6);
}

TEST_CASE("IdealGyrator turns a capacitor into an inductor L = C/G²: the RL current", "[electrical][energy]") {
  const double V = 1.0, R = 10.0, G = 0.5, C = 0.04, L = C / (G * G);
  Model m("gyrator");
  auto& source = m.add<electrical::StepVoltage>("source", {{"V", V}});
  auto& resistor = m.add<electrical::Resistor>("resistor", {{"R", R}});
  auto& gyrator = m.add<electrical::IdealGyrator>("gyrator", {{"G", G}});
  auto& capacitor = m.add<electrical::Capacitor>("capacitor", {{"C", C}});
  auto& ground = m.add<electrical::Ground>("ground");
  m.connect(source.p, resistor.p);
  m.connect(resistor.n, gyrator.p1);
  m.connect(gyrator.n1, source.n);
  m.connect(gyrator.p2, capacitor.p);
  m.connect(gyrator.n2, capacitor.n);
  m.connect(source.n, ground.p);
  m.connect(gyrator.n2, ground.p);
  m.set_start("capacitor.v", 0.0);
  harness::EnergyBooks books(m);
  Result r = m.compile().simulate(test::run_for(0.2, 1e-4, 1e-10));
  CHECK(test::worst(r, "gyrator.i1", [&](double t) { return V / R * (1 - std::exp(-t * R / L)); }) < 1e-6 * V / R);
  check_books(books, r, 1e-6);
}

TEST_CASE("Sensors measure without disturbing: current, voltage, potential and power of a divider", "[electrical]") {
  const double V = 10.0, R1 = 2.0, R2 = 3.0, I = 0.5, R3 = 4.0;
  Model m("sensors");
  auto& setpoint = m.add<blocks::Constant>("setpoint", {{"k", V}});
  auto& source = m.add<electrical::SignalVoltage>("source");
  auto& r1 = m.add<electrical::Resistor>("r1", {{"R", R1}});
  auto& r2 = m.add<electrical::Resistor>("r2", {{"R", R2}});
  auto& ammeter = m.add<electrical::CurrentSensor>("ammeter");
  auto& voltmeter = m.add<electrical::VoltageSensor>("voltmeter");
  auto& probe = m.add<electrical::PotentialSensor>("probe");
  auto& wattmeter = m.add<electrical::PowerSensor>("wattmeter");
  auto& ground = m.add<electrical::Ground>("ground");
  m.connect(setpoint.y, source.v);
  m.connect(source.p, ammeter.p);
  m.connect(ammeter.n, r1.p);
  m.connect(r1.n, wattmeter.pc);
  m.connect(wattmeter.nc, r2.p);
  m.connect(r2.n, ground.p);
  m.connect(source.n, ground.p);
  m.connect(wattmeter.pv, r2.p);
  m.connect(wattmeter.nv, r2.n);
  m.connect(voltmeter.p, r2.p);
  m.connect(voltmeter.n, ground.p);
  m.connect(probe.p, r1.n);
  // A current source drives I out of n through R3 to ground: n sits at I·R3.
  auto& current = m.add<electrical::ConstantCurrent>("current", {{"I", I}});
  auto& r3 = m.add<electrical::Resistor>("r3", {{"R", R3}});
  m.connect(current.p, ground.p);
  m.connect(current.n, r3.p);
  m.connect(r3.n, ground.p);
  harness::EnergyBooks books(m);
  Result r = m.compile().simulate(test::run_for(1.0, 0.1, 1e-10));
  const double i = V / (R1 + R2);
  CHECK(r["ammeter.i"].back() == Approx(i).epsilon(1e-12));
  CHECK(r["source.i"].back() == Approx(-i).epsilon(1e-12));  // into p: the source drives i out of p
  CHECK(r["voltmeter.v"].back() == Approx(i * R2).epsilon(1e-12));
  CHECK(r["probe.phi"].back() == Approx(i * R2).epsilon(1e-12));
  CHECK(r["wattmeter.power"].back() == Approx(i * i * R2).epsilon(1e-12));
  CHECK(r["r2.i"].back() == Approx(i).epsilon(1e-12));
  CHECK(r["r3.v"].back() == Approx(I * R3).epsilon(1e-12));
  check_books(books, r, 1e-6);
}

TEST_CASE("Averaged DC/DC converter: v2 = d·v1, the efficiency applied in the direction of the power, losses >= 0",
          "[electrical][events][energy]") {
  // The output feeds a 24 V ± 5 V bus through 0.5 Ω at d = 0.5 (v2 = 24 V): the
  // line current is -10·sin(2πt) A, so the output power P2 = -240·sin(2πt) W
  // reverses every half second.
  const double eta = 0.9;
  Model m("dcdc");
  auto& battery = m.add<electrical::ConstantVoltage>("battery", {{"V", 48.0}});
  auto& converter = m.add<electrical::DCDCAveraged>("converter", {{"eta", eta}});
  auto& duty = m.add<blocks::Constant>("duty", {{"k", 0.5}});
  auto& line = m.add<electrical::Resistor>("line", {{"R", 0.5}});
  auto& bus = m.add<electrical::SineVoltage>("bus", {{"V", 5.0}, {"offset", 24.0}, {"f", 1.0}});
  auto& ground = m.add<electrical::Ground>("ground");
  m.connect(duty.y, converter.d);
  m.connect(battery.p, converter.p1);
  m.connect(battery.n, converter.n1);
  m.connect(converter.p2, line.p);
  m.connect(line.n, bus.p);
  m.connect(bus.n, converter.n2);
  m.connect(battery.n, ground.p);
  m.connect(converter.n2, ground.p);
  harness::EnergyBooks books(m);
  Result r = m.compile().simulate(test::run_for(2.0, 1e-3, 1e-10));

  const auto t = r.time();
  const auto v2 = r["converter.v2"], P1 = r["converter.P1"], P2 = r["converter.P2"], loss = r["converter.LossPower"];
  double worst_v2 = 0, worst_P2 = 0, worst_law = 0, lowest_loss = 0;
  for (std::size_t k = 0; k < r.size(); ++k) {
    worst_v2 = std::max(worst_v2, std::fabs(v2[k] - 24.0));
    worst_P2 = std::max(worst_P2, std::fabs(P2[k] + 240.0 * std::sin(2 * pi * t[k])));
    // Forward (P2 > 0) the output gives eta·P1; backward port 1 gives eta·(-P2).
    worst_law = std::max(worst_law, std::fabs(P1[k] - (P2[k] > 0 ? P2[k] / eta : eta * P2[k])));
    lowest_loss = std::min(lowest_loss, loss[k]);
  }
  CHECK(worst_v2 < 1e-12 * 24.0);
  CHECK(worst_P2 < 1e-9 * 240.0);
  CHECK(worst_law < 1e-9 * 240.0);
  CHECK(lowest_loss > -1e-9 * 240.0);
  // Each reversal of the power is an event, within 1e-6 s.
  for (double reversal : {0.5, 1.0, 1.5}) {
    double nearest = 1e9;
    for (double e : r.event_times()) nearest = std::min(nearest, std::fabs(e - reversal));
    INFO("reversal at t = " << reversal);
    CHECK(nearest < 1e-6);
  }
  // The books hold the converter to its declared loss, (1 - eta)·|throughput|.
  check_books(books, r, 1e-6);
}

TEST_CASE("Every electrical component compiles in a rig and its equations are dimensionally consistent",
          "[electrical][units]") {
  Model m("zoo");
  auto& ground = m.add<electrical::Ground>("ground");
  int n = 0;
#define ACAUSAL_ZOO(domain, Name)                                      \
  if (std::string(#domain) == "electrical") {                          \
    rig(m, m.add<domain::Name>("c" + std::to_string(n++)), ground.p);  \
  }
  ACAUSAL_LIBRARY(ACAUSAL_ZOO)
#undef ACAUSAL_ZOO
  REQUIRE(n >= 20);
  Simulator sim = m.compile();
  std::string errors;
  for (const auto& e : sim.report().unit_errors) errors += e + "\n";
  INFO(errors);
  CHECK(sim.report().unit_errors.empty());
}

}  // namespace test_electrical_elements
