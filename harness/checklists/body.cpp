// VehicleBody (seed 001 Test 5, Body 1-4): static axle loads, load transfer
// m·a·h_cg/L, Newton's law on the body, coast-down against drag, energy.
#include "harness/checklists.hpp"
#include "harness/rigs.hpp"

namespace acausal::harness {

Checklist body_checklist(const Builder<vehicle::VehicleBody>& make, const ParameterValues& body) {
  Checklist list("body", "VehicleBody (seeds 001, 004)");
  auto parameters = [&](ParameterValues values) {
    values.insert(values.end(), body.begin(), body.end());  // the caller's values win
    return values;
  };
  const ParameterValues car{{"m", 1500}, {"L", 2.7}, {"a", 1.2}, {"b", 1.5}, {"h_cg", 0.55}};
  // The rig's specified numbers (the caller's win), so the checks below read
  // the body's loads at the rig's fixtures and forces against the
  // specification, never against the body's own parameters.
  auto spec = [&](const std::string& name, double fallback) {
    double value = fallback;
    for (const auto& [key, v] : parameters(car))
      if (key == name) value = v;
    return value;
  };
  const double m = spec("m", 1500), L = spec("L", 2.7), a = spec("a", 1.2), b_cg = spec("b", 1.5),
               h = spec("h_cg", 0.55), g = spec("g", 9.81);
  // The ground takes each axle's load: its fixture's flange carries -N.
  auto load = [](translational::Fixed& ground) { return -ground.flange.f; };

  {
    Rig& rig = list.rig("static", "at rest on both axles", run_options(1.0, 0.01));
    auto& b = make(rig.model(), "body", parameters(car));
    BodyRig parts = body_rig(rig.model(), b.contact_front, b.contact_rear, 0.0, 0.0);
    rig.model().set_start("body.s", 0.0);
    rig.model().set_start("body.v", 0.0);
    rig.expect_connectors(b, {{"contact_front", "vehicle.WheelContact"}, {"contact_rear", "vehicle.WheelContact"}});
    const Expr front = load(parts.ground_front), rear = load(parts.ground_rear);
    rig.check(relation(front, Expr(m * g * b_cg / L), 1e-9).titled("the front fixture takes the static load m·g·b/L"));
    rig.check(relation(rear, Expr(m * g * a / L), 1e-9).titled("the rear fixture takes the static load m·g·a/L"));
    rig.check(relation(front + rear, Expr(m * g), 1e-9).titled("the fixtures carry the weight"));
    rig.check(relation(front * a, rear * b_cg, 1e-9).titled("moment balance about the CG at the fixtures"));
  }

  for (double force : {3000.0, -6000.0}) {
    const bool accelerating = force > 0;
    Rig& rig = list.rig(accelerating ? "accelerating" : "braking",
                        format_number(force) + " N on the rear axle (no drag, no rolling resistance)",
                        run_options(3.0, 0.01));
    auto& b = make(rig.model(), "body", parameters({{"m", 1500}, {"L", 2.7}, {"a", 1.2}, {"b", 1.5},
                                                    {"h_cg", 0.55}, {"Cd", 0.0}, {"Crr", 0.0}}));
    BodyRig parts = body_rig(rig.model(), b.contact_front, b.contact_rear, 0.0, force);
    const double v0 = accelerating ? 0.0 : 30.0;
    rig.model().set_start("body.s", 0.0);
    rig.model().set_start("body.v", v0);
    // The rig's force flange moves with the axle: its speed is the body's, seen from the rig.
    const Expr pushed = parts.force_front.f + parts.force_rear.f;
    rig.check(relation(m * (der(parts.force_rear.flange.s) - v0), pushed * time_symbol(), 1e-6, std::abs(force) * 0.01)
                  .titled("impulse balance: m·Δv at the rig's force flange = ∫F dt within 1e-6"));
    // F = m·a here (no drag, no rolling resistance), so the transfer is F·h_cg/L.
    const Expr transfer = load(parts.ground_rear) - m * g * a / L;
    rig.check(relation(transfer, pushed * h / L, 1e-6)
                  .titled(std::string("load transfer ΔN = F·h_cg/L ") + (accelerating ? "to" : "off") +
                          " the rear fixture within 1e-6"));
    rig.check(sign(transfer, accelerating ? 1 : -1, 1e-9)
                  .titled(accelerating ? "accelerating loads the rear axle" : "braking unloads the rear axle"));
    rig.check(value_at(b.v, 3.0, v0 + force / m * 3.0, 1e-6)
                  .titled("speed after 3 s from v0 + F/m·t"));
    rig.energy_balance(1e-4);
  }

  {
    Rig& rig = list.rig("coast_down", "rolling out from 30 m/s against drag and rolling resistance",
                        run_options(30.0, 0.05));
    const ParameterValues road{{"Cd", 0.3}, {"A", 2.2}, {"rho", 1.225}, {"Crr", 0.015}};
    auto& b = make(rig.model(), "body", parameters(road));
    body_rig(rig.model(), b.contact_front, b.contact_rear, 0.0, 0.0);
    rig.model().set_start("body.s", 0.0);
    rig.model().set_start("body.v", 30.0);
    rig.check(monotonic(b.v, -1, 0.0, 30.0, 1e-9).titled("drag and rolling resistance only slow the body"));
    // The road load a coast-down test measures: the deceleration, against the
    // specified drag and rolling-resistance numbers (not the body's own forces).
    const double Cd = spec("Cd", 0.3), A = spec("A", 2.2), rho = spec("rho", 1.225), Crr = spec("Crr", 0.015);
    rig.check(relation(-m * der(b.v), 0.5 * rho * Cd * A * b.v * b.v + Crr * m * g, 1e-3)
                  .when(b.v > 1.0)
                  .titled("coast-down road load: −m·dv/dt = ½·ρ·Cd·A·v² + Crr·m·g within 0.1 %"));
    rig.energy_balance(1e-4);
  }
  return list;
}

}  // namespace acausal::harness
