// The tire's slip and its transient: the laws read the practical slip κ (a
// locked wheel reads -1 and keeps the magic formula's sliding force), and with
// relaxation the tread deflects, so the force builds up over a rolling
// distance σ and a parked car on tires holds still.
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>

#include <algorithm>
#include <cmath>
#include <string>

#include <acausal/harness/rigs.hpp>

#include "msl_reference.hpp"
#include "support.hpp"

namespace test_tire {

using namespace acausal;
using test::run_for;

namespace {

constexpr double g = 9.81;

// The first output time at which `name` drops below `level`.
double first_below(const Result& r, const std::string& name, double level) {
  auto x = r[name];
  for (std::size_t k = 0; k < r.size(); ++k)
    if (x[k] < level) return r.time()[k];
  return NAN;
}

double value_at(const Result& r, const std::string& name, double t) {
  const auto& time = r.time();
  const std::size_t k = std::lower_bound(time.begin(), time.end(), t - 1e-12) - time.begin();
  return r[name][std::min(k, r.size() - 1)];
}

// The magic formula by hand, on the practical slip.
double magic_formula(double kappa, double B = 10.0, double C = 1.9, double D = 1.0, double E = 0.97) {
  const double Bk = B * kappa;
  return D * std::sin(C * std::atan(Bk - E * (Bk - std::atan(Bk))));
}

}  // namespace

TEST_CASE("A locked wheel under the magic formula reads kappa = -1 and keeps its sliding force", "[vehicle][tire]") {
  const double N = 5000.0, mu = 0.8, mass = 500.0;
  const double F_slide = -mu * N * magic_formula(-1.0);  // about 0.91 mu N
  for (double v0 : {10.0, 20.0, 30.0}) {
    INFO("v0 = " << v0);
    Model m("locked_wheel");
    auto& wheel =
        m.add<vehicle::Wheel>("wheel", {{"radius", 0.3}, {"mu", mu}, {"tire_law", vehicle::TireLaw::pacejka}});
    auto& lock = m.add<rotational::Fixed>("lock");
    m.connect(lock.flange, wheel.flange_rot);
    harness::wheel_rig(m, wheel.flange_rot, wheel.contact, 0.0, N, mass, v0);
    Result r = m.compile().simulate(run_for(v0 / 5.0, 1e-3));
    // While it slides (|v| above v_eps): kappa exactly -1, the force at the formula's value.
    auto kappa = r["wheel.kappa"], F = r["wheel.F_traction"], v = r["body.v"];
    double worst_kappa = 0, worst_force = 0;
    for (std::size_t k = 0; k < r.size(); ++k) {
      if (v[k] < 0.2) continue;
      worst_kappa = std::max(worst_kappa, std::fabs(kappa[k] + 1.0));
      worst_force = std::max(worst_force, std::fabs(F[k] + F_slide) / F_slide);
    }
    CHECK(worst_kappa < 1e-12);
    CHECK(worst_force < 1e-6);
    // The quarter car stops in v0²/(2a), a = F/m (to v = 0.1 m/s: 1e-5 of it less).
    const double t_stop = first_below(r, "body.v", 0.1);
    const double distance = value_at(r, "body.s", t_stop);
    CHECK(std::fabs(distance - v0 * v0 / (2 * F_slide / mass)) < 0.01 * distance);
  }
}

TEST_CASE("With relaxation the force builds up over the rolling distance sigma", "[vehicle][tire]") {
  // The body rolls at 10 m/s (a mass too large to notice the tire), the wheel
  // turns 1 % faster from the start with an undeflected tread: u/sigma rises
  // as kappa·(1 - exp(-x/sigma)) with x = v·t.
  const double v = 10.0, kappa = 0.01, sigma = 0.5, radius = 0.3, N = 4000.0, mu = 0.9;
  Model m("relaxation_step");
  auto& wheel = m.add<vehicle::Wheel>("wheel", {{"radius", radius},
                                                {"mu", mu},
                                                {"relaxation", 1},
                                                {"sigma", sigma},
                                                {"d_tread", 0.0}});
  auto& spin = m.add<rotational::Speed>("spin");
  auto& rate = m.add<blocks::Constant>("rate", {{"k", v * (1 + kappa) / radius}});
  m.connect(rate.y, spin.w_ref);
  m.connect(spin.flange, wheel.flange_rot);
  harness::wheel_rig(m, wheel.flange_rot, wheel.contact, 0.0, N, 1e9, v);
  m.set_start("wheel.u_tread", 0.0);
  Result r = m.compile().simulate(run_for(0.3, 1e-3));
  auto F = r["wheel.F_traction"];
  const double slope = 100.0;  // the tanh law's slip stiffness
  // Pacejka's nonlinear relaxation over the distance x: dκ'/dx = (κ - κ')/(σ·g),
  // g = sech²(slope·κ'/μ) the law's slope relative to S (floored at 1e-3),
  // integrated by RK4 in x; the law then reads κ'.
  auto relax_rate = [&](double carried) {
    const double sech = 1.0 / std::cosh(slope * carried / mu);
    return (kappa - carried) / (sigma * std::sqrt(std::pow(sech * sech, 2) + 1e-6));
  };
  double carried = 0.0, x = 0.0, worst = 0;
  const double dx = 1e-5;
  for (std::size_t k = 1; k < r.size(); ++k) {
    for (const double x_row = v * r.time()[k]; x < x_row - 1e-12; x += dx) {
      const double h = std::min(dx, x_row - x);
      const double k1 = relax_rate(carried), k2 = relax_rate(carried + 0.5 * h * k1),
                   k3 = relax_rate(carried + 0.5 * h * k2), k4 = relax_rate(carried + h * k3);
      carried += h * (k1 + 2 * k2 + 2 * k3 + k4) / 6;
    }
    const double expected = mu * N * std::tanh(slope * carried / mu);
    worst = std::max(worst, std::fabs(F[k] - expected) / (mu * N * std::tanh(slope * kappa / mu)));
  }
  CHECK(worst < 1e-3);
  CHECK(F[r.size() - 1] == Approx(mu * N * std::tanh(slope * kappa / mu)).epsilon(1e-4));
}

TEST_CASE("A car parked on a 10 % grade on tires with relaxation and locking brakes holds for an hour",
          "[vehicle][tire][friction]") {
  const double grade = std::atan(0.1), radius = 0.3;
  // How far the car moves from 60 s to 3660 s: it settles into its treads
  // (the damped tread springs, about 9 Hz) in its first seconds.
  auto parked = [&] {
    Model m("parked_on_tires");
    auto& body = m.add<vehicle::VehicleBody>("body", {{"m", 1500.0}, {"grade", grade}});
    auto& pedal = m.add<blocks::Constant>("pedal", {{"k", 1.0}});
    for (const std::string corner : {"fl", "fr", "rl", "rr"}) {
      auto& wheel = m.add<vehicle::Wheel>("wheel_" + corner,
                                          {{"radius", radius}, {"J", 1.2}, {"relaxation", 1}});
      auto& brake = m.add<vehicle::Brake>("brake_" + corner, {{"tau_max", 1500.0}});
      m.connect(brake.flange_b, wheel.flange_rot);
      m.connect(pedal.y, brake.brake_input);
      m.connect(wheel.contact, corner[0] == 'f' ? body.contact_front : body.contact_rear);
      m.set_start("wheel_" + corner + ".u_tread", 0.0);
      m.set_start("wheel_" + corner + ".omega", 0.0);
    }
    m.set_start("body.s", 0.0);
    m.set_start("body.v", 0.0);
    Result r = m.compile().simulate(run_for(3660.0, 60.0, 1e-8));
    auto s = r["body.s"];
    const double settled = value_at(r, "body.s", 60.0);
    double moved = 0;
    for (std::size_t k = 0; k < r.size(); ++k)
      if (r.time()[k] >= 60.0) moved = std::max(moved, std::fabs(s[k] - settled));
    CHECK(std::fabs(settled) < 0.01);  // a few tenths of a millimetre into the treads
    // The tires carry the slope force, the brakes hold the wheels.
    double F = 0;
    for (const std::string corner : {"fl", "fr", "rl", "rr"}) {
      F += value_at(r, "wheel_" + corner + ".F_traction", 3660.0);
      CHECK(value_at(r, "brake_" + corner + ".locked", 3660.0) == 1.0);
    }
    CHECK(F == Approx(1500.0 * g * std::sin(grade)).epsilon(1e-6));
    return moved;
  };
  CHECK(parked() < 1e-6);
}

TEST_CASE("As sigma shrinks, a launch with relaxation converges to the one without", "[vehicle][tire]") {
  // A quarter car launched from rest by 800 N·m: the body's speed follows from
  // the torque and the inertias whatever the tire, the wheel's speed (its
  // slip) from the tire. Worst difference of omega over the run, against sigma.
  auto launch = [](double sigma) {
    Model m("launch");
    ParameterValues values{{"radius", 0.3}, {"J", 0.5}};
    if (sigma > 0) values.insert(values.end(), {{"relaxation", 1}, {"sigma", sigma}});
    auto& wheel = m.add<vehicle::Wheel>("wheel", values);
    harness::wheel_rig(m, wheel.flange_rot, wheel.contact, 800.0, 5000.0, 500.0);
    if (sigma > 0) m.set_start("wheel.u_tread", 0.0);
    m.set_start("wheel.omega", 0.0);
    return m.compile().simulate(run_for(2.0, 0.001))["wheel.omega"];
  };
  const auto rigid = launch(0.0);
  auto difference = [&](double sigma) {
    const auto w = launch(sigma);
    double worst = 0;
    for (std::size_t k = 0; k < std::min(w.size(), rigid.size()); ++k) worst = std::max(worst, std::fabs(w[k] - rigid[k]));
    return worst;
  };
  const double e1 = difference(0.3), e2 = difference(0.03), e3 = difference(0.003);
  INFO("omega(2 s) without relaxation " << rigid.back() << " rad/s; worst differences " << e1 << ", " << e2 << ", "
                                        << e3);
  CHECK(e3 < 0.5 * e2);  // measured 0.71, 0.44, 0.09 rad/s
  CHECK(e2 < e1);
  CHECK(e3 < 5e-3 * rigid.back());
}

TEST_CASE("A wheel with the PAC2002 law from a .TIR file slides at the formula's force for its load",
          "[vehicle][tire]") {
  const std::string tir = (test::data_dir() / "tires" / "example_pac2002.tir").string();
  const vehicle::Pac2002Longitudinal coefficients = vehicle::read_tir_longitudinal(tir);
  for (double N : {2000.0, 4000.0, 6000.0}) {
    INFO("N = " << N);
    Model m("locked_pac2002");
    auto& wheel =
        m.add<vehicle::Wheel>("wheel", {{"radius", 0.3}, {"mu", 1.0}, {"tire_law", vehicle::TireLaw::pac2002}});
    wheel.load_tir(tir);
    auto& lock = m.add<rotational::Fixed>("lock");
    m.connect(lock.flange, wheel.flange_rot);
    harness::wheel_rig(m, wheel.flange_rot, wheel.contact, 0.0, N, 500.0, 20.0);
    Result r = m.compile().simulate(run_for(0.5, 0.01));
    const double expected = evaluate(
        vehicle::pac2002_fx(vehicle::pac2002_constants(coefficients), Expr(-1.0), Expr(N), Expr(1.0)),
        [](const Node*) { return 0.0; });
    CHECK(value_at(r, "wheel.kappa", 0.25) == -1.0);
    CHECK(value_at(r, "wheel.F_traction", 0.25) == Approx(expected).epsilon(1e-9));
    CHECK(value_at(r, "wheel.F_traction", 0.25) < 0.0);
  }
}

TEST_CASE("With relaxation the total tire force stays within mu*N through a launch, its up-shifts and braking",
          "[vehicle][tire]") {
  // Issue 30: the tread damper used to act outside the friction limit: the
  // rear tire reached 3.6·μN at the 1→2 up-shift on μ 0.9 and 9·μN on μ 0.3.
  for (double mu : {0.9, 0.3}) {
    Model m("relaxed_launch");
    auto& car = m.add<vehicle::RearDriveCar>("car");
    for (vehicle::Wheel* w : car.wheels) {
      w->set_parameter("relaxation", 1.0);
      w->set_parameter("mu", mu);
    }
    harness::drive_launch(m, car);
    Result r = m.compile().simulate(run_for(16.0, 0.01, 1e-6));
    double worst_ratio = 0.0, worst_peak_gap = 0.0;
    for (const std::string corner : {"fl", "fr", "rl", "rr"}) {
      const std::string w = "car.wheel_" + corner;
      auto F = r[w + ".F_traction"], F_max = r[w + ".F_max"], F_peak = r[w + ".F_peak"], N = r[w + ".N"];
      for (std::size_t k = 0; k < r.size(); ++k) {
        worst_ratio = std::max(worst_ratio, std::fabs(F[k]) / F_max[k]);
        worst_peak_gap = std::max(worst_peak_gap, std::fabs(F_peak[k] - F_max[k]) / F_max[k]);
        CHECK(N[k] > 0.0);  // no wheel is pulled into the road by a runaway damper
      }
    }
    INFO("mu " << mu << ": max |F|/(mu N) " << worst_ratio);
    CHECK(worst_ratio <= 1.0 + 1e-9);
    CHECK(worst_peak_gap == 0.0);  // for the tanh law the law's peak is μN exactly
    if (mu == 0.9) {
      CHECK(value_at(r, "car.body.v", 12.0) > 100 / 3.6);
      // Stopped on locked wheels, the treads give back only the deflection of
      // their peak force: four carcass springs S/sigma at μN store about
      // 4·(μN)²·sigma/(2·S) ≈ 20 J, a rebound of at most 0.16 m/s (a tread that
      // kept a deflection of sigma pushed the car back at 1.8 m/s).
      auto v_body = r["car.body.v"];
      double slowest = 0.0;
      for (std::size_t k = 0; k < r.size(); ++k)
        if (r.time()[k] > 12.0) slowest = std::min(slowest, v_body[k]);
      CHECK(slowest > -0.17);
      CHECK(std::fabs(v_body[r.size() - 1]) < 0.01);
    }
  }
}

TEST_CASE("With relaxation and tread damping, the steady force at constant slip is the law's own", "[vehicle][tire]") {
  // The damper reads the tread's rate, which vanishes once the tread has
  // relaxed (33 relaxation lengths here): the force is then the law at κ.
  const double v = 10.0, kappa = 0.03, radius = 0.3, N = 4000.0, mu = 0.9;
  for (int law : {int(vehicle::TireLaw::tanh), int(vehicle::TireLaw::pacejka)}) {
    double steady[2];
    for (int relaxed = 0; relaxed < 2; ++relaxed) {
      Model m("steady_slip");
      auto& wheel = m.add<vehicle::Wheel>(
          "wheel", {{"radius", radius}, {"mu", mu}, {"tire_law", double(law)}, {"relaxation", double(relaxed)}});
      auto& spin = m.add<rotational::Speed>("spin");
      auto& rate = m.add<blocks::Constant>("rate", {{"k", v * (1 + kappa) / radius}});
      m.connect(rate.y, spin.w_ref);
      m.connect(spin.flange, wheel.flange_rot);
      harness::wheel_rig(m, wheel.flange_rot, wheel.contact, 0.0, N, 1e9, v);
      if (relaxed) m.set_start("wheel.u_tread", 0.0);
      Result r = m.compile().simulate(run_for(1.0, 1e-2));
      steady[relaxed] = r["wheel.F_traction"][r.size() - 1];
    }
    INFO("law " << law << ": without relaxation " << steady[0] << " N, with " << steady[1] << " N");
    CHECK(steady[1] == Approx(steady[0]).epsilon(1e-6));
    CHECK(steady[0] > 0.5 * mu * N);  // a slip on the rising branch: a real force, not zero
  }
}

}  // namespace test_tire
