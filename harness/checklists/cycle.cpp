// Cars on a drive cycle (vehicle::MappedCar and vehicle::BatteryElectricCar,
// vehicle::CycleDriver, the WLTC class 3b): the regulation's speed band, fuel
// or battery energy, and the energy books.
#include <fmt/format.h>

#include <cmath>

#include "harness/checklists.hpp"
#include "harness/cycle.hpp"

namespace acausal::harness {

namespace {

// The WLTP speed band about the trace, as a check.
Check speed_band_check(const Expr& v, const Expr& v_ref, const std::string& speed_name) {
  return Check("the speed stays within the WLTP band (±2 km/h about the trace's extremes within ±1 s)", 0.0,
               [v, v_ref, speed_name](const Result& r, const std::vector<std::size_t>&, CheckResult& c) {
                 const auto speed = r.evaluate(v), reference = r.evaluate(v_ref);
                 const BandVerdict band = speed_band(r.time(), speed, reference);
                 c.detail = speed_name + " within the band about cycle.v_ref (m/s outside it)";
                 c.error = band.worst_excursion;
                 c.passed = band.inside();
                 c.worst_time = band.worst_time;
                 c.message = band.inside() ? "inside the band throughout"
                                           : fmt::format("{:.2f} km/h outside the band at t = {:.1f} s; "
                                                         "{:.1f} s outside in all",
                                                         3.6 * band.worst_excursion, band.worst_time,
                                                         band.seconds_outside);
                 c.time = r.time();
                 c.plot = {{speed_name, speed}, {"cycle.v_ref", reference}};
               });
}

// Where the energy went, as bars, closing to `what` within 1e-3.
template <class Test>
Check split_check(const std::string& title, const std::string& what, const Test& test) {
  return Check(title, 1e-3, [test, what](const Result& r, const std::vector<std::size_t>&, CheckResult& c) {
    const auto report = cycle_report(r, test);
    c.detail = "|Σ energy split − " + what + "| / " + what;
    c.error = report.split_closure;
    c.passed = report.split_closure <= 1e-3;
    c.message = report.line();
    c.time = {r.time().back()};
    for (const auto& [name, value] : report.energy_split) c.plot.push_back({name, {value}});
    c.plot_kind = "bars";
  });
}

void electric_rig(Checklist& list, const SimulationOptions& options) {
  Rig& rig = list.rig("wltc3b_electric",
                      "a 1600 kg BatteryElectricCar (54 kWh pack, 100 kW motor drive, regenerative braking blended "
                      "with the friction brakes) driven by the same CycleDriver along the WLTC class 3b, 1800 s",
                      options);
  ElectricCycleTest test = electric_cycle_test(rig.model(), "wltc3b");
  vehicle::MotorDrive& motor = test.car.motor;
  rig.check(speed_band_check(test.car.body.v, test.cycle.v_ref, "car.body.v"));
  rig.check(bound(abs(motor.tau), 0.0, motor.tau_max_available, 1e-9)
                .titled("the motor's torque stays inside its envelope min(tau_max, P_max/|w|)"));
  rig.check(sign(motor.LossPower, +1, 0.0).titled("the drive's losses are never negative, motoring or regenerating"));
  rig.check(test.books.model_closes(1e-4).titled("the cells' energy is accounted for: stored = returned + dissipated"));
  const ElectricCycleTest books_of{test.car, test.cycle, test.driver, test.books};
  rig.check(split_check("where the cells' energy went adds up to the cells' energy (energy split, kWh)",
                        "cells' energy", books_of));
}

}  // namespace

Checklist cycle_checklist() {
  Checklist list("cycle", "Cars on the WLTC class 3b: speed band, fuel or battery energy, energy books");
  SimulationOptions options = run_options(1800.0, 0.1);
  options.rtol = 1e-6;
  options.atol = 1e-6;
  options.linear_solver = LinearSolver::klu;
  Rig& rig = list.rig("wltc3b",
                      "a 1250 kg MappedCar (1.6 L-class mapped engine, shift map with kick-down) driven by a "
                      "CycleDriver along the WLTC class 3b, 1800 s",
                      options);
  CycleTest test = cycle_test(rig.model(), "wltc3b");
  rig.check(speed_band_check(test.body.v, test.cycle.v_ref, "car.body.v"));
  // The integral of a flow >= 0 may step back by the integration error: rtol
  // 1e-6 of about a kilogram is a milligram.
  rig.check(sign(test.engine.fuel_flow, +1, 0.0).titled("fuel is only burnt (the fuel flow is never negative)"));
  rig.check(monotonic(test.engine.fuel_mass, 1, 0.0, 1800.0, 1e-6)
                .titled("the fuel mass never decreases by more than 1 mg (the integration's tolerance on 1 kg)")
                .plotting({test.engine.fuel_flow}));
  rig.check(test.books.model_closes(1e-4).titled("the fuel's energy is accounted for: supplied = stored + dissipated"));
  vehicle::MappedEngine& engine = test.engine;
  rig.check(Check("the engine's operating points lie on its map (torque over speed, coloured by BSFC)", 0.0,
                  [&engine](const Result& r, const std::vector<std::size_t>&, CheckResult& c) {
                    const auto rpm = r.evaluate(engine.rpm), tau = r.evaluate(engine.tau),
                               full = r.evaluate(engine.tau_full), bsfc = r.evaluate(engine.bsfc);
                    // Fired and loaded: where a BSFC is read (idle and overrun have none).
                    std::vector<double> x, y, colour, time;
                    double above = 0;
                    for (std::size_t k = 0; k < r.size(); ++k) {
                      above = std::max(above, tau[k] - full[k]);
                      if (tau[k] <= 1.0) continue;
                      x.push_back(rpm[k]), y.push_back(tau[k]), colour.push_back(bsfc[k]), time.push_back(r.time()[k]);
                    }
                    c.detail = "car.engine.tau <= car.engine.tau_full (N.m above it)";
                    c.error = std::max(above, 0.0);
                    c.passed = above <= 1e-9 * 200.0;
                    c.message = fmt::format("{} loaded operating points; at most {:.3g} N.m above full load",
                                            x.size(), c.error);
                    c.time = time;
                    c.plot = {{"engine speed [rpm]", x}, {"engine torque [N.m]", y}, {"BSFC [g/kWh]", colour}};
                    c.plot_kind = "scatter";
                  }));
  const CycleTest books_of = test;
  rig.check(split_check("where the fuel's energy went adds up to the fuel's energy (energy split, MJ)", "fuel energy",
                        books_of));
  electric_rig(list, options);
  return list;
}

}  // namespace acausal::harness
