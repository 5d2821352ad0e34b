// The planar vehicle body on an inclined road plane (issue 31: "a rigid
// planar body with an optional gravity component along a grade"): gravity's
// component in the plane slows a climb as the closed form says, pulls a car
// across a slope downhill, loads the downhill wheels, and does work the
// energy books account for. Tolerances are stated per check.
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>
#include <acausal/harness/energy.hpp>

#include <array>
#include <cmath>
#include <numbers>
#include <string>

#include "support.hpp"

namespace test_planar_grade {

using namespace acausal;

namespace {

constexpr double m_car = 1500.0, J_wheel = 1.2, r_wheel = 0.3, g = 9.81;

/// A PlanarVehicleBody (no drag) on four free-rolling PlanarWheels (no
/// rolling resistance, no driveline), heading psi0 at v0 on a road inclined
/// by `grade` whose ascent points along `heading`.
struct GradeRig : Model {
  vehicle::PlanarVehicleBody& body;
  GradeRig(double grade, double heading, double psi0, double v0) : Model("grade_rig"),
      body(add<vehicle::PlanarVehicleBody>("body", {{"m", m_car}, {"Cd", 0.0}, {"grade", grade},
                                                    {"grade_heading", heading}})) {
    const std::array<std::string, 4> corners{"fl", "fr", "rl", "rr"};
    const std::array<planar::Frame*, 4> mounts{&body.frame_fl, &body.frame_fr, &body.frame_rl, &body.frame_rr};
    const std::array<RealOutput*, 4> loads{&body.N_fl, &body.N_fr, &body.N_rl, &body.N_rr};
    for (int k = 0; k < 4; ++k) {
      auto& wheel = add<vehicle::PlanarWheel>("wheel_" + corners[k], {{"radius", r_wheel}, {"J", J_wheel}, {"Crr", 0.0}});
      connect(*mounts[k], wheel.frame);
      connect(*loads[k], wheel.N);
      set_start("wheel_" + corners[k] + ".omega", v0 / r_wheel);
    }
    set_start("body.psi", psi0);
    set_start("body.v_x", v0);
  }
};

}  // namespace

TEST_CASE("PlanarVehicleBody on a grade: a free-rolling climb decelerates at m·g·sin(θ)/(m + 4·J/r²), in any "
          "direction of the plane",
          "[planar][grade]") {
  const double theta = 0.1, v0 = 20.0;
  // The wheels' spin takes its share: m·a = −m·g·sinθ + ΣFx, J·dω/dt = −r·Fx with ω·r = v (rolling).
  const double a_closed = -m_car * g * std::sin(theta) / (m_car + 4 * J_wheel / (r_wheel * r_wheel));
  for (double heading : {0.0, 0.7, -2.5}) {
    // Driving up the steepest ascent, whichever way it points in the world.
    GradeRig rig(theta, heading, heading, v0);
    // At rtol 1e-9 and atol 1e-11 (run_for's default): headings off the axes (0.7, -2.5 rad) failed at the
    // first steps (IDA_CONV_FAIL at t ~ 1e-10 s) until the forces' nominals scaled their absolute tolerance.
    const Result r = test::compile_checked(rig).simulate(test::run_for(2.0, 0.01, 1e-9));
    INFO("ascent at " << heading << " rad: a_x = " << r["body.a_x"].back() << ", closed form " << a_closed);
    // After the wheels' slip has settled (its time constant is a few ms): 1e-4 of a, the
    // free-rolling slip (about 2e-4) changes ω·r against v by less than that.
    CHECK(r["body.a_x"].back() == Approx(a_closed).epsilon(1e-4));
    CHECK(std::fabs(r["body.v_y"].back()) <= 1e-9);
    // The loads come from the road's forces on the tires, not from a_x: coasting, gravity along the slope and
    // the deceleration nearly cancel at the CG, and only the wheels' small ΣFx = m·a + m·g·sinθ pitches the car
    // (a load transfer written with a_x alone would move 1.6 kN to the front here). 1e-4 of the axle load.
    const double weight = m_car * g * std::cos(theta), road_x = m_car * (a_closed + g * std::sin(theta));
    CHECK(r["body.N_front"].back() == Approx((weight * 1.5 - road_x * 0.55) / 2.7).epsilon(1e-4));
    CHECK(r["body.N_front"].back() + r["body.N_rear"].back() == Approx(weight).epsilon(1e-12));
  }
  // Downhill (the ascent behind the car) it speeds up by the same amount.
  GradeRig down(theta, std::numbers::pi, 0.0, v0);
  const Result r = test::compile_checked(down).simulate(test::run_for(2.0, 0.01, 1e-9));
  CHECK(r["body.a_x"].back() == Approx(-a_closed).epsilon(1e-4));
}

TEST_CASE("PlanarVehicleBody across a slope: the car drifts downhill, the downhill wheels carry more load, "
          "and the books close with gravity's work",
          "[planar][grade]") {
  // The ascent points to the car's left (+y in the world, the car heading along x).
  const double theta = 0.08, v0 = 15.0;
  GradeRig rig(theta, std::numbers::pi / 2, 0.0, v0);
  harness::EnergyBooks books(rig);
  const Result r = test::compile_checked(rig).simulate(test::run_for(3.0, 0.01, 1e-9));
  // Gravity pulls to the right; the tires hold it with a slip angle, so the car moves downhill (−y).
  CHECK(r["body.y"].back() < -0.01);
  CHECK(r["body.F_grade_y"].back() == Approx(-m_car * g * std::sin(theta)).epsilon(1e-12));
  // The downhill (right) wheels carry more: the roll moment is the road's lateral force on the tires, ΣF_y, at
  // h_cg 0.55 m below the CG over tracks of 1.55 m (1e-9 of the weight); on the slope ΣF_y holds the car
  // against gravity, so it is not m·a_y (a transfer written with a_y would leave the wheels nearly even).
  const auto F_y = r["body.F_y"];
  for (std::size_t k : {r.size() / 4, r.size() - 1}) {
    const double right = r["body.N_fr"][k] + r["body.N_rr"][k], left = r["body.N_fl"][k] + r["body.N_rl"][k];
    CHECK(right - left == Approx(2 * F_y[k] * 0.55 / 1.55).margin(1e-9 * m_car * g));
    CHECK(right - left > 0.5 * 2 * m_car * g * std::sin(theta) * 0.55 / 1.55);
  }
  // Gravity does work as the car drifts down (supplied, J): every component's books and the whole model's
  // close within 1e-6 of the energy that went through.
  test::books_close(books, r, 1e-6);
}

TEST_CASE("PlanarVehicleBody driving straight at headings off the axes runs at rtol 1e-9 and atol 1e-11",
          "[planar][grade][tolerance]") {
  // Off the axes the zero lateral velocities and forces are sums of rotated world-frame terms, so they carry
  // round-off of O(v·C_alpha); before the forces declared their nominals, atol 1e-11 killed these runs at the
  // first steps (IDA_CONV_FAIL at t ~ 1e-10 s) for 0.5, 0.6, 0.7 and 1.0 rad.
  const double v0 = 20.0, t_end = 1.0;
  for (double psi0 : {0.5, 0.6, 0.7, 1.0, -2.5}) {
    GradeRig rig(0.0, 0.0, psi0, v0);
    const Result r = test::compile_checked(rig).simulate(test::run_for(t_end, 0.01, 1e-9));
    INFO("heading " << psi0 << " rad");
    // Free rolling without resistance on a flat road: the car keeps its speed and heading (1e-9 of each).
    CHECK(r["body.v_x"].back() == Approx(v0).epsilon(1e-9));
    CHECK(std::fabs(r["body.psi"].back() - psi0) <= 1e-9);
    CHECK(r["body.x"].back() == Approx(v0 * t_end * std::cos(psi0)).epsilon(1e-8));
    CHECK(r["body.y"].back() == Approx(v0 * t_end * std::sin(psi0)).epsilon(1e-8));
  }
}

}  // namespace test_planar_grade
