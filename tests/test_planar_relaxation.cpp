// The PlanarWheel's lateral relaxation length sigma_y (issue 31): the
// lateral force builds up over the rolling distance sigma_y after a step in
// slip angle, a short sigma_y leaves the unrelaxed response, and the planar
// car with relaxed tires still passes FMVSS 126 with ESC. Tolerances are
// stated per check.
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>
#include <acausal/harness/handling.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "planar_wheel_rig.hpp"
#include "support.hpp"

namespace test_planar_relaxation {

using namespace acausal;

namespace {

constexpr double N_load = 4000.0, mu = 0.9, v = 20.0, C_alpha = 15.0;

/// A PlanarWheel under the load N_load on a body of mass m sliding at
/// (v, vy0) from t = 0 (a step in slip angle for the relaxed tire, whose
/// alpha_t starts at 0); the wheel rolls free at ω = v/r (a speed source),
/// so only its lateral force acts on the body. The linear law: below
/// saturation Fy = −N·C_alpha·tan(alpha_t) exactly.
struct LateralRig : test::PlanarWheelRig {
  LateralRig(double m, double vy0, double sigma_y, int law = vehicle::PlanarTireLaw::linear)
      : PlanarWheelRig({{"tire_law", law}, {"mu", mu}, {"Crr", 0.0}, {"cornering_stiffness", C_alpha},
                        {"lateral_relaxation", sigma_y > 0 ? 1.0 : 0.0}, {"sigma_y", sigma_y > 0 ? sigma_y : 0.3}},
                       m, v, vy0, N_load) {}
};

/// The row of r at time t (an output instant), or fails.
std::size_t row_at(const Result& r, double t) {
  const auto& time = r.time();
  for (std::size_t k = 0; k < time.size(); ++k)
    if (std::fabs(time[k] - t) <= 1e-9 * (1 + t)) return k;
  FAIL("no output row at t = " << t);
  return 0;
}

}  // namespace

TEST_CASE("PlanarWheel lateral relaxation: after a step in slip angle the lateral force rises as "
          "1 - exp(-v t / sigma_y)",
          "[planar][tire][relaxation]") {
  const double sigma_y = 0.3, tan_alpha = 0.02, T = sigma_y / v;  // T = 0.015 s
  // 1e9 kg: the 1.2 kN lateral force changes vy by 5e-8 m/s (1e-7 relative) in 3T.
  LateralRig rig(1e9, v * tan_alpha, sigma_y);
  const Result r = rig.compile().simulate(test::run_for(3 * T, T / 10));
  const double Fy_steady = -N_load * C_alpha * tan_alpha;  // linear law, s = 0.33 < 1: unsaturated
  const auto& time = r.time();
  const auto Fy = r["wheel.Fy"];
  CHECK(Fy.front() == Approx(0.0).margin(1e-9 * std::fabs(Fy_steady)));  // nothing carried at the step
  // The distance constant sigma_y: 1e-4 relative at t = sigma_y/v (63.2 %) and 3·sigma_y/v (95.0 %).
  for (double t : {T, 3 * T}) {
    const std::size_t k = row_at(r, t);
    const double expected = 1 - std::exp(-v * time[k] / sigma_y);
    INFO("t = " << time[k] << " s: Fy/Fy_steady = " << Fy[k] / Fy_steady << ", 1 - exp(-v t/sigma_y) = " << expected);
    CHECK(Fy[k] / Fy_steady == Approx(expected).epsilon(1e-4));
  }
  // The slip angle the law reads relaxes toward the geometric one.
  CHECK(r["wheel.alpha_t"].back() < r["wheel.alpha"].back());
  CHECK(r["wheel.alpha"].back() == Approx(std::atan(tan_alpha)).epsilon(1e-6));
}

TEST_CASE("PlanarWheel lateral relaxation: saturating, the combined force stays within F_peak and the tread's "
          "ledger balances",
          "[planar][tire][relaxation]") {
  // A 0.3 rad slide under the tanh law (saturated: 15·tan(0.3)/0.9 = 5.2) on a 300 kg body: the force
  // saturates, the body's lateral speed decays to standstill through the regularized speed.
  LateralRig rig(300.0, v * std::tan(0.3), 0.3, vehicle::PlanarTireLaw::tanh);
  const Result r = rig.compile().simulate(test::run_for(2.0, 0.002));
  const auto F = r["wheel.F_total"], peak = r["wheel.F_peak"], P = r["wheel.P_slip"], E = r["wheel.E_lat"];
  const double E_max = *std::max_element(E.begin(), E.end());
  CHECK(E_max > 0.0);
  for (std::size_t k = 0; k < r.size(); ++k) {
    CHECK(F[k] <= peak[k] * (1 + 1e-9));  // |F| <= F_peak, round-off 1e-9
    CHECK(P[k] >= -1e-9 * N_load * v);   // the rest of the slip power is dissipated
    CHECK(E[k] >= -1e-6 * E_max);        // the tread holds nonnegative work (1e-6: rtol 1e-8 over the ledger)
  }
  // The books: the body's kinetic energy lost = dissipated + stored in the tread (1e-6 of it).
  const auto vx = r["body.vx"], vy = r["body.vy"];
  const double lost = 0.5 * 300.0 * (vx.front() * vx.front() + vy.front() * vy.front() - vx.back() * vx.back() -
                                     vy.back() * vy.back());
  double dissipated = 0;
  const auto& time = r.time();
  for (std::size_t k = 1; k < r.size(); ++k) dissipated += 0.5 * (P[k] + P[k - 1]) * (time[k] - time[k - 1]);
  // Trapezoid over 2 ms rows: 1e-3 of the energy lost (the slide's force is smooth).
  CHECK(dissipated + E.back() - E.front() == Approx(lost).epsilon(1e-3));
}

TEST_CASE("PlanarWheel lateral relaxation: a short relaxation length (0.01 m) leaves the unrelaxed response",
          "[planar][tire][relaxation]") {
  // A 100 kg body sliding at tan(alpha) = 0.02: unrelaxed, its lateral speed decays as exp(-b·t),
  // b = N·C_alpha/(v·m) = 30 1/s. Relaxed, the force lags by sigma_y/v; the two differ by about
  // b·sigma_y/v of vy0 (the linear two-state system, solved to 1e-11: 1.36 % at 0.01 m, 0.15 % at
  // 1 mm, 20 % at 0.3 m).
  const double m = 100.0, vy0 = v * 0.02;
  const auto run = [&](double sigma_y) {
    LateralRig rig(m, vy0, sigma_y);
    return rig.compile().simulate(test::run_for(0.2, 1e-4));
  };
  const Result unrelaxed = run(0.0);
  const auto vy_u = unrelaxed["body.vy"];
  // The unrelaxed one is the exponential (1e-6 of vy0).
  for (std::size_t k = 0; k < unrelaxed.size(); ++k)
    CHECK(vy_u[k] == Approx(vy0 * std::exp(-N_load * C_alpha / (v * m) * unrelaxed.time()[k])).margin(1e-6 * vy0));
  for (auto [sigma_y, tolerance] : {std::pair{0.01, 0.02}, {0.001, 0.002}}) {
    const Result relaxed = run(sigma_y);
    REQUIRE(relaxed.size() == unrelaxed.size());
    const auto vy_r = relaxed["body.vy"];
    double worst = 0;
    for (std::size_t k = 0; k < relaxed.size(); ++k) worst = std::max(worst, std::fabs(vy_r[k] - vy_u[k]));
    INFO("sigma_y = " << sigma_y << " m: max |vy_relaxed - vy_unrelaxed| = " << worst / vy0 << " of vy0");
    CHECK(worst <= tolerance * vy0);
  }
}

TEST_CASE("PlanarCar with a 0.3 m lateral relaxation length on every wheel passes FMVSS 126 with ESC",
          "[planar][handling][relaxation]") {
  constexpr double deg = std::numbers::pi / 180;
  Model m("swd_relaxed");
  // 6.5 × A(0.3 g) = 6.5 × 26°, as the handling checklist.
  auto& car = harness::build_maneuver(m, {.v0 = 80 / 3.6, .options = {.esc = true},
                                          .robot = {{"profile", vehicle::SteeringProfile::sine_with_dwell},
                                                    {"amplitude", 6.5 * 26.0 * deg}, {"start_time", 1.0}}});
  for (vehicle::PlanarWheel* w : car.wheels) {
    w->set_parameter("lateral_relaxation", 1.0);
    w->set_parameter("sigma_y", 0.3);
  }
  SimulationOptions options;  // the checklist's: rtol 1e-8, atol 1e-10, rows every 5 ms
  options.t_end = 6.0;
  options.output_interval = 0.005;
  options.rtol = 1e-8;
  options.atol = 1e-10;
  const Result r = m.compile().simulate(options);
  const harness::SineWithDwellFigures f = harness::sine_with_dwell_figures(r, 1.0);
  INFO("peak yaw rate " << f.peak_yaw_rate << " rad/s, ratios " << f.ratio_1_00 << " at 1.0 s and " << f.ratio_1_75
                        << " at 1.75 s, lateral displacement " << f.lateral_displacement << " m");
  CHECK(f.stable());      // ratio_1_00 <= 0.35, ratio_1_75 <= 0.20
  CHECK(f.responsive());  // lateral displacement >= 1.83 m
  for (vehicle::PlanarWheel* w : car.wheels) {
    const auto F = r[w->path() + ".F_total"], peak = r[w->path() + ".F_peak"];
    for (std::size_t k = 0; k < r.size(); ++k) CHECK(F[k] <= peak[k] * (1 + 1e-9));  // |F| <= F_peak, round-off
  }
}

}  // namespace test_planar_relaxation
