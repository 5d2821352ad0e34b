// Anti-lock brakes and traction control on a two-axle car of library parts
// (VehicleBody, four Wheels with the magic formula, four locking Brakes): the
// ABS stops no longer than locked wheels, near the tire's peak on dry
// asphalt, keeps the slip in its band (also on a split-μ road), and samples
// every 10 ms; traction control keeps a driven axle on ice from spinning up.
#include <acausal/acausal.hpp>
#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

#include "components/vehicle/control/abs_controller.hpp"
#include "components/vehicle/control/traction_control.hpp"
#include "tests/support.hpp"

namespace test_abs {

using namespace acausal;
using test::run_for;

namespace {

constexpr double g = 9.81, radius = 0.3, v0 = 100.0 / 3.6, t_pedal = 0.5, v_min = 2.0;
const std::array<std::string, 4> corners{"fl", "fr", "rl", "rr"};

// The Wheel's magic formula (B 10, C 1.9, D 1, E 0.97) on the practical slip.
double magic_formula(double kappa) {
  const double B = 10.0, C = 1.9, D = 1.0, E = 0.97, Bk = B * kappa;
  return D * std::sin(C * std::atan(Bk - E * (Bk - std::atan(Bk))));
}

// max over κ in [-1.5, 0] of |F|/(μN), on a fine grid.
double peak_of_magic_formula() {
  double peak = 0;
  for (int i = 0; i <= 150000; ++i) peak = std::max(peak, std::fabs(magic_formula(-1e-5 * i)));
  return peak;
}

// A 1500 kg car at 100 km/h braked by a pedal step to 1 at t = 0.5 s, with an
// ABSController per wheel or, without ABS, the same hydraulic lag (a
// FirstOrder of 20 ms) between pedal and brake. mu_left/mu_right: the road
// under the left and right wheels.
Result stop(double mu_left, double mu_right, bool with_abs, double t_end, double dt = 1e-3) {
  Model m("abs_stop");
  auto& body = m.add<vehicle::VehicleBody>("body", {{"m", 1500.0}});
  auto& pedal = m.add<blocks::Step>("pedal", {{"height", 1.0}, {"startTime", t_pedal}});
  for (const std::string& corner : corners) {
    const bool front = corner[0] == 'f';
    auto& wheel = m.add<vehicle::Wheel>("wheel_" + corner, {{"radius", radius},
                                                            {"J", 1.2},
                                                            {"tire_law", vehicle::TireLaw::pacejka},
                                                            {"mu", corner[1] == 'l' ? mu_left : mu_right}});
    auto& brake = m.add<vehicle::Brake>("brake_" + corner, {{"tau_max", front ? 1600.0 : 800.0}});
    m.connect(brake.flange_b, wheel.flange_rot);
    m.connect(wheel.contact, front ? body.contact_front : body.contact_rear);
    if (with_abs) {
      auto& sensor = m.add<rotational::SpeedSensor>("sensor_" + corner);
      auto& abs = m.add<vehicle::ABSController>("abs_" + corner, {{"radius", radius}, {"v_min", v_min}});
      m.connect(sensor.flange, wheel.flange_rot);
      m.connect(pedal.y, abs.brake_demand);
      m.connect(sensor.w, abs.w_wheel);
      m.connect(body.speed, abs.v_vehicle);
      m.connect(abs.brake, brake.brake_input);
    } else {
      auto& hydraulics = m.add<blocks::FirstOrder>("hydraulics_" + corner, {{"T", 0.02}});
      m.connect(pedal.y, hydraulics.u);
      m.connect(hydraulics.y, brake.brake_input);
    }
    m.set_start("wheel_" + corner + ".omega", v0 / radius);
  }
  m.set_start("body.s", 0.0);
  m.set_start("body.v", v0);
  return m.compile().simulate(run_for(t_end, dt, 1e-6));
}

// The first instant (interpolated between output rows) at which `name` falls to
// `level`.
double first_at(const Result& r, const std::string& name, double level) {
  auto x = r[name];
  for (std::size_t k = 1; k < r.size(); ++k)
    if (x[k] <= level && x[k - 1] > level)
      return r.time()[k - 1] + (r.time()[k] - r.time()[k - 1]) * (x[k - 1] - level) / (x[k - 1] - x[k]);
  return NAN;
}

double value_at(const Result& r, const std::string& name, double t) {
  const auto& time = r.time();
  auto x = r[name];
  const std::size_t k = std::lower_bound(time.begin(), time.end(), t) - time.begin();
  if (k == 0) return x[0];
  if (k >= r.size()) return x.back();
  return x[k - 1] + (x[k] - x[k - 1]) * (t - time[k - 1]) / (time[k] - time[k - 1]);
}

struct Stop {
  double distance, duration;
};

// Distance and time from the pedal step to 0.1 m/s.
Stop stopping(const Result& r) {
  const double t_stop = first_at(r, "body.v", 0.1);
  return {value_at(r, "body.s", t_stop) - value_at(r, "body.s", t_pedal), t_stop - t_pedal};
}

// The deepest wheel slip over the rows after `after` while the car is faster
// than `above`.
double deepest_slip(const Result& r, const std::string& corner, double after, double above = v_min) {
  auto kappa = r["wheel_" + corner + ".kappa"], v = r["body.v"];
  double deepest = 0;
  for (std::size_t k = 0; k < r.size(); ++k)
    if (r.time()[k] >= after && v[k] > above) deepest = std::min(deepest, kappa[k]);
  return deepest;
}

// The end of the wheel's first ABS cycle: its first re-apply after its first
// release.
double first_cycle_end(const Result& r, const std::string& corner) {
  auto mode = r["abs_" + corner + ".mode"];
  bool released = false;
  for (std::size_t k = 0; k < r.size(); ++k) {
    if (mode[k] < -0.5) released = true;
    if (released && mode[k] > 0.5) return r.time()[k];
  }
  return NAN;
}

double t_end_for(double mu) { return t_pedal + v0 / (0.8 * mu * g) + 0.5; }

// A car on ice (μ 0.1) rolling at 10 m/s whose rear wheels each get
// throttle·600 N·m (six times what the ice carries) from t = 0.2 s; with
// traction control the throttle passes through a TractionControl reading the
// rear wheels.
Result launch(bool with_tcs) {
  Model m("tcs_launch");
  auto& body = m.add<vehicle::VehicleBody>("body", {{"m", 1500.0}});
  auto& pedal = m.add<blocks::Step>("pedal", {{"height", 1.0}, {"startTime", 0.2}});
  auto& engine = m.add<blocks::Gain>("engine", {{"k", 600.0}});
  const double v_start = 10.0;
  vehicle::TractionControl* tcs = nullptr;
  if (with_tcs) {
    tcs = &m.add<vehicle::TractionControl>("tcs", {{"radius", radius}});
    m.connect(pedal.y, tcs->throttle_demand);
    m.connect(body.speed, tcs->v_vehicle);
    m.connect(tcs->throttle, engine.u);
  } else {
    m.connect(pedal.y, engine.u);
  }
  for (const std::string& corner : corners) {
    const bool front = corner[0] == 'f';
    auto& wheel = m.add<vehicle::Wheel>(
        "wheel_" + corner, {{"radius", radius}, {"J", 1.2}, {"tire_law", vehicle::TireLaw::pacejka}, {"mu", 0.1}});
    m.connect(wheel.contact, front ? body.contact_front : body.contact_rear);
    m.set_start("wheel_" + corner + ".omega", v_start / radius);
    if (front) continue;
    auto& motor = m.add<rotational::Torque>("motor_" + corner);
    m.connect(engine.y, motor.tau);
    m.connect(motor.flange, wheel.flange_rot);
    if (tcs) {
      auto& sensor = m.add<rotational::SpeedSensor>("sensor_" + corner);
      m.connect(sensor.flange, wheel.flange_rot);
      m.connect(sensor.w, corner == "rl" ? tcs->w_left : tcs->w_right);
    }
  }
  m.set_start("body.s", 0.0);
  m.set_start("body.v", v_start);
  return m.compile().simulate(run_for(3.0, 1e-3, 1e-6));
}

// The largest value of `name` over the rows at or after `after`.
double largest_after(const Result& r, const std::string& name, double after) {
  auto x = r[name];
  double largest = -INFINITY;
  for (std::size_t k = 0; k < r.size(); ++k)
    if (r.time()[k] >= after) largest = std::max(largest, x[k]);
  return largest;
}

// The output rows at which `name` differs from the row before, and how many of
// them lie off the sampling grid k·period.
std::pair<int, int> changes_off_grid(const Result& r, const std::string& name, double period) {
  auto x = r[name];
  int changes = 0, off = 0;
  for (std::size_t k = 1; k < r.size(); ++k) {
    if (x[k] == x[k - 1]) continue;
    ++changes;
    const double t = r.time()[k] / period;
    if (std::fabs(t - std::round(t)) > 1e-9) ++off;
  }
  return {changes, off};
}

}  // namespace

// Hidden: prints the numbers the comments below quote (run `[.report]`).
TEST_CASE("Report: ABS stopping distances, slip and TCS numbers", "[.report][abs]") {
  const double peak = peak_of_magic_formula();
  std::printf("peak of the magic formula %.6f\n", peak);
  for (double mu : {0.9, 0.5, 0.1}) {
    Result with = stop(mu, mu, true, t_end_for(mu));
    Result without = stop(mu, mu, false, t_end_for(mu));
    const Stop a = stopping(with), b = stopping(without);
    std::printf("mu %.1f: ABS %.2f m in %.3f s, locked %.2f m in %.3f s; mean deceleration / peak %.4f (locked %.4f)\n",
                mu, a.distance, a.duration, b.distance, b.duration, v0 / a.duration / (peak * mu * g),
                v0 / b.duration / (peak * mu * g));
    for (const auto& c : corners)
      std::printf("  %s: first cycle ends at %.3f s; deepest slip %.3f, after the first cycle %.3f\n", c.c_str(),
                  first_cycle_end(with, c), deepest_slip(with, c, 0), deepest_slip(with, c, first_cycle_end(with, c)));
  }
  Result split = stop(0.9, 0.2, true, t_end_for(0.5));
  std::printf("split-mu stop %.2f m\n", stopping(split).distance);
  for (const auto& c : corners)
    std::printf("  %s: deepest slip %.3f, after the first cycle %.3f\n", c.c_str(), deepest_slip(split, c, 0),
                deepest_slip(split, c, first_cycle_end(split, c)));
  Result tcs = launch(true), free = launch(false);
  std::printf("TCS: largest rear slip after 0.5 s %.3f (without %.3f); speed at 3 s %.3f m/s (without %.3f)\n",
              largest_after(tcs, "wheel_rl.kappa", 0.5), largest_after(free, "wheel_rl.kappa", 0.5),
              value_at(tcs, "body.v", 3.0), value_at(free, "body.v", 3.0));
}

TEST_CASE("With ABS a car stops from 100 km/h no longer than on locked wheels, near the tire's peak on dry asphalt",
          "[vehicle][abs]") {
  const double peak = peak_of_magic_formula();  // 1.0: D·sin(C·atan(…)) reaches D near κ = -0.18
  CHECK(peak == Approx(1.0).margin(1e-6));
  // Measured (rtol 1e-6): dry 43.96 m (ABS) / 45.63 m (locked), wet 76.59 / 80.65 m, ice 313.93 / 333.24 m.
  for (double mu : {0.9, 0.5, 0.1}) {
    INFO("mu = " << mu);
    Result with = stop(mu, mu, true, t_end_for(mu));
    Result without = stop(mu, mu, false, t_end_for(mu));
    const Stop abs = stopping(with), locked = stopping(without);
    INFO("ABS " << abs.distance << " m in " << abs.duration << " s; locked " << locked.distance << " m in "
                << locked.duration << " s");
    // Without ABS every wheel locks (κ = -1); with it the ABS cycles.
    for (const auto& c : corners) {
      CHECK(deepest_slip(without, c, 0.0) < -0.999);
      CHECK(std::isfinite(first_cycle_end(with, c)));
    }
    CHECK(abs.distance <= locked.distance);
    // The mean deceleration over the stop, against the peak-μ deceleration
    // peak·μ·g: measured 0.987 (locked 0.950; drag and rolling resistance add about 1 %).
    if (mu == 0.9) CHECK(v0 / abs.duration >= 0.85 * peak * mu * g);
  }
}

TEST_CASE("ABS keeps the wheel slip in its band after the first cycle", "[vehicle][abs]") {
  // Band: κ ≥ -0.35 after each wheel's first cycle (its first re-apply),
  // while the car is faster than v_min = 2 m/s. Measured deepest (front /
  // rear): dry -0.225 / -0.296, wet -0.277 / -0.288, ice -0.280 / -0.288. The
  // first cycle, with the driver's full pressure to dump, dives deeper: wet
  // -0.398, ice -1 (the front wheels lock for about 2 s while the pressure
  // falls to the tenth that ice carries and the wheels spin back up).
  for (double mu : {0.9, 0.5, 0.1}) {
    Result r = stop(mu, mu, true, t_end_for(mu));
    for (const auto& c : corners) {
      INFO("mu = " << mu << ", wheel " << c);
      CHECK(deepest_slip(r, c, first_cycle_end(r, c)) >= -0.35);
    }
  }
}

TEST_CASE("On a split-mu road ABS keeps every wheel from locking", "[vehicle][abs]") {
  // Left wheels on μ 0.9, right on 0.2. With ABS: κ > -0.5 on every wheel
  // after its first cycle while the car is faster than v_min (measured
  // deepest -0.270, -0.348, -0.316, -0.321 for fl, fr, rl, rr; in the first
  // cycle the right wheels reach -0.764 and -0.487); the stop takes 70.40 m.
  // Without ABS the right wheels lock.
  Result with = stop(0.9, 0.2, true, t_end_for(0.5));
  Result without = stop(0.9, 0.2, false, t_end_for(0.5));
  for (const auto& c : corners) {
    INFO("wheel " << c);
    CHECK(deepest_slip(with, c, first_cycle_end(with, c)) > -0.5);
    if (c[1] == 'r') CHECK(deepest_slip(without, c, 0.0) < -0.999);
  }
}

TEST_CASE("Traction control keeps a driven axle on ice from spinning up", "[vehicle][tcs]") {
  // 600 N·m on each rear wheel from t = 0.2 s on μ 0.1, where the ice carries
  // about 100 N·m: from 0.3 s after the step on, the rear slip stays below 0.3
  // with TCS (measured 0.205; its band is 0.1 to 0.2) and reaches 34 without.
  Result with = launch(true), without = launch(false);
  for (const std::string c : {"rl", "rr"}) {
    INFO("wheel " << c);
    CHECK(largest_after(with, "wheel_" + c + ".kappa", 0.5) < 0.3);
    CHECK(largest_after(without, "wheel_" + c + ".kappa", 0.5) > 0.3);
  }
  // The car still accelerates (measured 10.64 m/s at 3 s from 10 m/s).
  CHECK(value_at(with, "body.v", 3.0) > 10.3);
}

TEST_CASE("ABS and TCS commands change only at their 10 ms samples", "[vehicle][abs][tcs]") {
  Result r = stop(0.9, 0.9, true, 2.0);
  for (const auto& c : corners) {
    const auto [changes, off] = changes_off_grid(r, "abs_" + c + ".pressure", 0.01);
    INFO("wheel " << c << ": " << changes << " changes");
    CHECK(changes > 20);  // the ABS modulates
    CHECK(off == 0);
  }
  // The hydraulic output, a continuous lag, changes between the samples: the check can tell.
  CHECK(changes_off_grid(r, "abs_fl.brake", 0.01).second > 100);
  // Every event of the run is a sample (measured 200 events to 2 s): the
  // relations in the when-clauses add no state events of their own.
  int events_off_grid = 0;
  for (double t : r.event_times())
    if (std::fabs(t / 0.01 - std::round(t / 0.01)) > 1e-9) ++events_off_grid;
  CHECK(events_off_grid == 0);
  Result launched = launch(true);
  const auto [changes, off] = changes_off_grid(launched, "tcs.limit", 0.01);
  INFO(changes << " changes of the TCS limit");
  CHECK(changes > 5);
  CHECK(off == 0);
}

}  // namespace test_abs
