// The planar wheel's combined-slip laws, the steering geometry and the
// four-wheel planar car on the handling maneuvers (issue 31). Tolerances are
// stated per check.
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>
#include <acausal/harness/checklists.hpp>
#include <acausal/harness/handling.hpp>

#include <cmath>
#include <numbers>
#include <string>

#include "planar_wheel_rig.hpp"
#include "support.hpp"

namespace test_planar_car {

using namespace acausal;

namespace {

constexpr double N_load = 4000.0, mu = 0.9, v = 20.0;

struct Forces {
  double Fx, Fy, F_total, F_peak;
};

Forces forces_at(int law, double kappa, double alpha) {
  // A body of 1e9 kg sliding at (v, v·tan(alpha)), the wheel spun at (1 + kappa)·v/r.
  test::PlanarWheelRig rig({{"tire_law", law}, {"mu", mu}, {"Crr", 0.0}}, 1e9, v, v * std::tan(alpha), N_load);
  Simulator sim = rig.compile();
  sim.set_parameter("w.k", (1 + kappa) * v / 0.3);
  const Result r = sim.simulate(test::run_for(1e-6, 1e-6));
  return {r["wheel.Fx"].front(), r["wheel.Fy"].front(), r["wheel.F_total"].front(), r["wheel.F_peak"].front()};
}

}  // namespace

TEST_CASE("PlanarWheel: pure slip is the law itself, combined slip stays within the peak and only takes lateral "
          "force away",
          "[planar][tire]") {
  using Law = vehicle::PlanarTireLaw;
  const double kappas[] = {-0.6, -0.1, 0.0, 0.03, 0.25}, alphas[] = {0.0, 0.02, 0.08, 0.3};
  for (int law : {Law::tanh, Law::linear, Law::pacejka, Law::pac2002}) {
    for (double alpha : alphas) {
      const Forces pure_lateral = forces_at(law, 0.0, alpha);
      for (double kappa : kappas) {
        INFO("law " << law << ", kappa " << kappa << ", alpha " << alpha);
        const Forces f = kappa == 0.0 ? pure_lateral : forces_at(law, kappa, alpha);
        // The invariant of the library, for the total force (round-off 1e-9).
        CHECK(f.F_total <= f.F_peak * (1 + 1e-9));
        // Driving or braking never adds lateral force; the force opposes the slide.
        CHECK(std::fabs(f.Fy) <= std::fabs(pure_lateral.Fy) * (1 + 1e-9) + 1e-9);
        if (alpha > 0) CHECK(f.Fy < 0);
        if (kappa != 0) CHECK(f.Fx * kappa > 0);
        // Pure slip: the one-directional laws (1e-9 relative).
        const double F_max = mu * N_load, tan_a = std::tan(alpha);
        if (alpha == 0.0 && law == Law::tanh)
          CHECK(f.Fx == Approx(F_max * std::tanh(20.0 * kappa / mu)).epsilon(1e-9).margin(1e-9));
        if (kappa == 0.0 && law == Law::tanh)
          CHECK(f.Fy == Approx(-F_max * std::tanh(15.0 * tan_a / mu)).epsilon(1e-9).margin(1e-9));
        if (kappa == 0.0 && law == Law::pacejka) {
          const double Ba = 10.0 * tan_a;
          CHECK(f.Fy == Approx(-F_max * std::sin(1.3 * std::atan(Ba - 0.97 * (Ba - std::atan(Ba)))))
                            .epsilon(1e-9)
                            .margin(1e-9));
        }
        // PAC2002's pure lateral slip: its cornering stiffness |Kya| at FNOMIN
        // (PKY1·FNOMIN·sin(2·atan(1/PKY2)), the defaults) sets the slope.
        if (law == Law::pac2002 && kappa == 0.0 && alpha == 0.02) {
          const double Kya = 15.324 * 4000.0 * std::sin(2 * std::atan(1 / 1.715));
          CHECK(-f.Fy / tan_a == Approx(Kya).epsilon(0.05));  // 5 %: alpha = 0.02 is already off the slope's line
        }
        if (alpha == 0.0 && law == Law::linear)
          CHECK(f.Fx == Approx(N_load * std::clamp(kappa / 0.05, -mu, mu)).epsilon(1e-9).margin(1e-9));
      }
    }
  }
}

TEST_CASE("Steering: full Ackermann meets cot(delta_outer) - cot(delta_inner) = track/L, parallel steers both "
          "wheels alike",
          "[planar]") {
  const double L = 2.7, track = 1.55, ratio = 16.0;
  for (double ackermann : {0.0, 1.0}) {
    Model m("steering");
    auto& gear = m.add<vehicle::Steering>("gear", {{"ackermann", ackermann}, {"L", L}, {"track", track}});
    auto& wheel = m.add<blocks::Ramp>("wheel", {{"height", 6.0}, {"duration", 1.0}});
    m.connect(wheel.y, gear.steering_wheel);
    const Result r = m.compile().simulate(test::run_for(1.0, 0.1));
    for (std::size_t k = 1; k < r.size(); ++k) {
      const double left = r["gear.delta_left"][k], right = r["gear.delta_right"][k];
      const double mean = r["wheel.y"][k] / ratio;
      if (ackermann == 1.0) {
        // Left turn: the left wheel is the inner one (1e-9: a closed form).
        CHECK(1 / std::tan(right) - 1 / std::tan(left) == Approx(track / L).epsilon(1e-9));
        CHECK(left > mean);
        CHECK(right < mean);
      } else {
        CHECK(left == Approx(mean).epsilon(1e-12));
        CHECK(right == Approx(mean).epsilon(1e-12));
      }
    }
  }
}

TEST_CASE("PlanarCar: the handling checklist passes (ISO 4138 understeer gradient, load transfer, ISO 7401 against "
          "the single track, FMVSS 126 failed without ESC and passed with it, split-mu yaw, |F| <= F_peak, energy "
          "books)",
          "[planar][handling]") {
  const harness::ChecklistReport report = harness::handling_checklist().run();
  for (const auto& c : report.checks) {
    INFO(c.rig << ": " << c.title << " -> " << c.message);
    CHECK(c.passed);
  }
  CHECK(report.checks.size() >= 25);
  // A custom check has no statement of its own: the report shows what it measured (the figures were only in the
  // JSON before).
  const std::string markdown = report.markdown();
  CHECK_THAT(markdown, Catch::Matchers::Contains("; lateral displacement "));
  CHECK_THAT(markdown, Catch::Matchers::Contains(" m in the last second, v_x "));
}

TEST_CASE("PlanarCar: ISO 4138 without the tires' saturation and longitudinal slips gives the bicycle's understeer "
          "gradient (m/L)(b/C_f − a/C_r) at the run's axle loads, within 1 %",
          "[planar][handling]") {
  // The checklist's slowly_increasing_steer measures K 6.7 % above the closed form. Where it comes from: μ 3
  // instead of 0.9 (the tanh law's saturation over the fit, a_y/(μ·g) up to 0.23) takes 2.9 points off, and no
  // rolling resistance or drag (so no drive slip on the rear tires and no rolling slip anywhere) the other 3.8.
  // What is left is the four-wheel car's geometry (Ackermann, the wheels' positions): 0.4 %.
  Model m("iso4138_linear");
  auto& car = harness::build_maneuver(m, {.v0 = 80 / 3.6, .hold_speed = true,
                                          .robot = {{"profile", vehicle::SteeringProfile::ramp},
                                                    {"amplitude", std::numbers::pi}, {"rate", 13.5 * std::numbers::pi / 180},
                                                    {"start_time", 1.0}}});
  for (const char* corner : {"fl", "fr", "rl", "rr"}) {
    car.set_parameter(std::string("wheel_") + corner + ".mu", 3.0);
    car.set_parameter(std::string("wheel_") + corner + ".Crr", 0.0);
  }
  car.set_parameter("body.Cd", 0.0);
  const Result r = m.compile().simulate(test::run_for(5.0, 0.01));
  const double K = harness::understeer_gradient(r, 2.7, 0.5, 2.0);
  double Nf = 0, Nr = 0, n = 0;
  const auto& a_y = r["car.a_y"];
  for (std::size_t k = 0; k < a_y.size(); ++k)
    if (a_y[k] >= 0.5 && a_y[k] <= 2.0) Nf += r["car.body.N_front"][k], Nr += r["car.body.N_rear"][k], n += 1;
  // The axles' cornering stiffness: 11 and 16 per rad and N of load (PlanarCar).
  const double C_f = 11.0 * Nf / n, C_r = 16.0 * Nr / n, K_us = 1500 / 2.7 * (1.5 / C_f - 1.2 / C_r);
  INFO("K = " << K << " rad/(m/s2), closed form " << K_us);
  CHECK(K == Approx(K_us).epsilon(0.01));
}

TEST_CASE("PlanarCar: split-mu braking with ABS slows the car, yawing it toward the high-mu side, and the wheels on "
          "ice carry at most their share of 0.2 N",
          "[planar][handling]") {
  Model m("split_mu");
  auto& car = harness::build_maneuver(
      m, {.v0 = 80 / 3.6, .options = {.abs = true}, .robot = {{"amplitude", 0.0}}, .brake_pedal = 1.0, .brake_start = 0.5});
  harness::split_mu_road(car, 0.9, 0.2);
  // Through the stop (about 3.9 s) to standstill on four locked brakes.
  const Result r = m.compile().simulate(test::run_for(6.0, 0.01));
  // 3 s of braking at μ 0.9 on one side and 0.2 on the other (0.55 g on average) take 16 m/s off.
  std::size_t at_3_5 = 0;
  while (r.time()[at_3_5] < 3.5 - 1e-9) ++at_3_5;
  CHECK(r["car.v_x"][at_3_5] < 80 / 3.6 - 0.45 * 9.81 * 3.0);
  // Then it stops and stands: 1e-6 m/s (the locked wheels' tires hold it on the flat road).
  CHECK(std::fabs(r["car.v_x"].back()) < 1e-6);
  CHECK(std::fabs(r["car.v_y"].back()) < 1e-6);
  CHECK(r["car.psi"].back() > 0.02);  // yawed left, toward the high-μ side
  // While a right wheel is on the low-μ half (y < 0; the car drifts left as it yaws),
  // its force stays within 0.2 of its load.
  for (const char* w : {"car.wheel_fr", "car.wheel_rr"}) {
    const auto& F = r[std::string(w) + ".F_total"];
    const auto& N = r[std::string(w) + ".load"];
    const auto& y = r[std::string(w) + ".frame.y"];
    int on_ice = 0;
    for (std::size_t k = 0; k < r.size(); ++k)
      if (y[k] < -0.01) {
        ++on_ice;
        CHECK(F[k] <= 0.2 * N[k] * (1 + 1e-9) + 1e-9);
      }
    CHECK(on_ice > 100);
  }
}

TEST_CASE("PlanarCar: FMVSS 126 with ESC runs at the default options and passes, across amplitudes", "[planar][esc]") {
  // At high order IDA's predicted y' missed the equations that tie the
  // accelerations to the brakes' path parameters and the load transfer; the
  // corrector then failed at every step size (IDA_CONV_FAIL near t = 1.63 s
  // or 3.24 s in every one of these runs). A restart at order 1 from the last
  // accepted step recovers.
  constexpr double deg = std::numbers::pi / 180;
  long restarts = 0;
  for (double amplitude : {168.5, 169.0, 169.5}) {
    INFO("amplitude " << amplitude << " deg");
    Model m("swd");
    harness::build_maneuver(m, {.v0 = 80 / 3.6, .options = {.esc = true},
                                .robot = {{"profile", vehicle::SteeringProfile::sine_with_dwell},
                                          {"amplitude", amplitude * deg}, {"start_time", 1.0}}});
    SimulationOptions options;  // the defaults: rtol 1e-6, no step limit
    options.t_end = 6.0;
    Result r = m.compile().simulate(options);
    restarts += r.statistics().restarts;
    const harness::SineWithDwellFigures f = harness::sine_with_dwell_figures(r, 1.0);
    CHECK(f.stable());
    CHECK(f.responsive());
  }
  CHECK(restarts > 0);  // the recovery is what these runs need
}

}  // namespace test_planar_car
