// The planar car's body rolling on its suspension (PlanarVehicleBody,
// roll_dynamics = on; issue 31's "optional roll dynamics"): the roll mode's
// frequency and damping against the closed form of the roll equation, the
// steady roll gradient of a turn, the load transfer the suspension's moment
// makes, and the energy books. Tolerances are stated per check.
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>
#include <acausal/harness/energy.hpp>
#include <acausal/harness/handling.hpp>

#include <array>
#include <cmath>
#include <complex>
#include <numbers>
#include <string>

#include "support.hpp"

namespace test_planar_roll {

using namespace acausal;

namespace {

constexpr double deg = std::numbers::pi / 180;
// The PlanarVehicleBody's defaults.
constexpr double m = 1500, g = 9.81, h = 0.55, K = 1.0e5, C = 6500, Ix = 700, track = 1.55, share = 0.55;

/// The library car at 80 km/h, held there, with a steering-wheel step of 35°
/// at 1 s (ISO 7401's, about 4 m/s²); its body rolls.
vehicle::PlanarCar& rolling_car(Model& model) {
  const double A_4 = 26.0 * deg * 4.0 / (0.3 * 9.81);
  auto& car = harness::build_maneuver(model, {.v0 = 80 / 3.6, .hold_speed = true,
                                              .robot = {{"profile", vehicle::SteeringProfile::step},
                                                        {"amplitude", A_4}, {"rate", A_4 / 0.15},
                                                        {"start_time", 1.0}}});
  car.set_parameter("body.roll_dynamics", 1.0);
  return car;
}

}  // namespace

TEST_CASE("PlanarVehicleBody roll: the roll mode is sqrt((K − m·g·h)/Ix) with damping C/(2·sqrt((K − m·g·h)·Ix))",
          "[planar][roll]") {
  // The body on four free-rolling wheels (no rolling resistance, no drag) going straight at 20 m/s: the
  // tires' forces are zero and do not change with their loads, so the roll is a mode of its own (in the car
  // the rear tires' drive force, which grows with the load, couples it to the yaw by 0.25 %).
  Model model("roll_mode");
  auto& body = model.add<vehicle::PlanarVehicleBody>("body", {{"Cd", 0.0}, {"roll_dynamics", 1.0}});
  const std::array<planar::Frame*, 4> mounts{&body.frame_fl, &body.frame_fr, &body.frame_rl, &body.frame_rr};
  const std::array<RealOutput*, 4> loads{&body.N_fl, &body.N_fr, &body.N_rl, &body.N_rr};
  for (int k = 0; k < 4; ++k) {
    const std::string name = "wheel_" + std::to_string(k);
    auto& wheel = model.add<vehicle::PlanarWheel>(name, {{"radius", 0.3}, {"Crr", 0.0}});
    model.connect(*mounts[k], wheel.frame);
    model.connect(*loads[k], wheel.N);
    model.set_start(name + ".omega", 20.0 / 0.3);
  }
  model.set_start("body.v_x", 20.0);
  const Result r = model.compile().simulate(test::run_for(0.2, 0.01));
  const std::vector<LinearMode> found = modes(linearize(r, 0.2, {}, {}));
  const double stiffness = K - m * g * h, w_n = std::sqrt(stiffness / Ix), zeta = C / (2 * std::sqrt(stiffness * Ix));
  bool seen = false;
  for (const LinearMode& mode : found) {
    if (mode.kind != ModeKind::oscillating) continue;
    seen = true;
    // The closed form of Ix·φ'' + C·φ' + (K − m·g·h)·φ = 0, to 1e-6.
    CHECK(mode.natural_frequency == Approx(w_n).epsilon(1e-6));
    CHECK(mode.damping_ratio == Approx(zeta).epsilon(1e-6));
  }
  INFO("expected a pair at " << w_n << " rad/s, damping " << zeta);
  CHECK(seen);
}

TEST_CASE("PlanarVehicleBody roll: a steady turn rolls the body by m·a_y·h/(K − m·g·h), and the suspension's moment "
          "moves the load across, the books close",
          "[planar][roll]") {
  Model model("roll_turn");
  rolling_car(model);
  harness::EnergyBooks books(model);
  const Result r = model.compile().simulate(test::run_for(5.0, 0.005));
  const double a_y = r["car.a_y"].back(), phi = r["car.body.phi_roll"].back();
  // A left turn at about 4 m/s² rolls the body right side down (positive).
  CHECK(a_y > 3.5);
  CHECK(phi > 0);
  // 4 s after the step the roll has settled (its time constant is 1/(ζ·ω_n) = 0.2 s): the steady state of the
  // roll equation, within 1e-3. The turn itself still creeps (a_y by about 0.02 m/s³), and the damper's lag
  // C·φ̇/(K − m·g·h) is 3e-4 of φ; both measured here.
  CHECK(phi == Approx(m * a_y * h / (K - m * g * h)).epsilon(1e-3));
  CHECK(C * std::fabs(r["car.body.w_roll"].back()) < 1e-3 * (K - m * g * h) * phi);
  // The roll gradient, a figure handling reports quote: about 5.0°/g with these defaults.
  const double gradient = phi / deg / (a_y / g);
  INFO("roll gradient " << gradient << " deg/g");
  CHECK(gradient == Approx(m * h * g / (K - m * g * h) / deg).epsilon(1e-3));
  // The load goes across by the suspension's moment K·φ: at steady state K/(K − m·g·h) times the quasi-static
  // m·a_y·h (1e-3 of it, as the angle); the front axle carries its share.
  const double front = r["car.body.N_fr"].back() - r["car.body.N_fl"].back();
  const double rear = r["car.body.N_rr"].back() - r["car.body.N_rl"].back();
  const double moment = 0.5 * (front * track + rear * track);
  CHECK(moment == Approx(K * m * a_y * h / (K - m * g * h)).epsilon(1e-3));
  CHECK(0.5 * front * track == Approx(share * moment).epsilon(1e-9));
  // During the step the damper takes its part and the books close (1e-4, as the handling checklist's).
  test::books_close(books, r, 1e-4);
}

TEST_CASE("PlanarVehicleBody roll: off (the default) reports the quasi-static roll angle and keeps the quasi-static "
          "transfer, a roll stiffness that cannot hold the body is refused",
          "[planar][roll]") {
  Model model("roll_off");
  auto& car = rolling_car(model);
  car.set_parameter("body.roll_dynamics", 0.0);
  const Result r = model.compile().simulate(test::run_for(3.0, 0.01));
  const double a_y = r["car.a_y"].back();
  CHECK(r["car.body.phi_roll"].back() == Approx(m * a_y * h / (K - m * g * h)).epsilon(1e-9));
  CHECK(r["car.body.N_fr"].back() - r["car.body.N_fl"].back() == Approx(2 * share * m * a_y * h / track).epsilon(1e-9));

  Model soft("roll_soft");
  auto& tipping = rolling_car(soft);
  tipping.set_parameter("body.K_roll", 0.9 * m * g * h);
  CHECK_THROWS_WITH(soft.compile(), Catch::Matchers::Contains("car.body") && Catch::Matchers::Contains("K_roll"));
}

}  // namespace test_planar_roll
