// A car on a drive cycle (vehicle::MappedCar, vehicle::CycleDriver, the WLTC
// class 3b): the regulation's speed band, fuel, and the energy books.
#include <fmt/format.h>

#include <cmath>

#include "harness/checklists.hpp"
#include "harness/cycle.hpp"

namespace acausal::harness {

Checklist cycle_checklist() {
  Checklist list("cycle", "A car on the WLTC class 3b: speed band, fuel, energy books");
  SimulationOptions options = run_options(1800.0, 0.1);
  options.rtol = 1e-6;
  options.atol = 1e-6;
  options.linear_solver = LinearSolver::klu;
  Rig& rig = list.rig("wltc3b",
                      "a 1250 kg MappedCar (1.6 L-class mapped engine, shift map with kick-down) driven by a "
                      "CycleDriver along the WLTC class 3b, 1800 s",
                      options);
  CycleTest test = cycle_test(rig.model(), "wltc3b");
  const Expr v = test.car.body.v, v_ref = test.cycle.v_ref;
  rig.check(Check("the speed stays within the WLTP band (±2 km/h about the trace's extremes within ±1 s)", 0.0,
                  [v, v_ref](const Result& r, const std::vector<std::size_t>&, CheckResult& c) {
                    const auto speed = r.evaluate(v), reference = r.evaluate(v_ref);
                    const BandVerdict band = speed_band(r.time(), speed, reference);
                    c.detail = "car.body.v within the band about cycle.v_ref (m/s outside it)";
                    c.error = band.worst_excursion;
                    c.passed = band.inside();
                    c.worst_time = band.worst_time;
                    c.message = band.inside() ? "inside the band throughout"
                                              : fmt::format("{:.2f} km/h outside the band at t = {:.1f} s; "
                                                            "{:.1f} s outside in all",
                                                            3.6 * band.worst_excursion, band.worst_time,
                                                            band.seconds_outside);
                    c.time = r.time();
                    c.plot = {{"car.body.v", speed}, {"cycle.v_ref", reference}};
                  }));
  rig.check(monotonic(test.car.engine.fuel_mass, 1, 0.0, 1800.0, 1e-9)
                .titled("fuel is only burnt (the fuel mass never decreases by more than 1 µg)")
                .plotting({test.car.engine.fuel_flow}));
  rig.check(bound(test.car.engine.tau, -INFINITY, test.car.engine.tau_full, 1e-9)
                .titled("the engine's torque stays within its full-load curve")
                .plotting({test.car.engine.rpm, test.car.selector.gear}));
  rig.check(test.books.model_closes(1e-4).titled("the fuel's energy is accounted for: supplied = stored + dissipated"));
  return list;
}

}  // namespace acausal::harness
