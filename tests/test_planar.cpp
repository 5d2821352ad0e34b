// The planar mechanics domain and the single-track vehicle models (issue 31,
// first slice) against their closed forms. Tolerances are stated per check:
// integrated trajectories at rtol 1e-10 are held to 1e-6 of their scale,
// algebraic relations and linearizations (exact by construction) to 1e-9.
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>
#include <acausal/harness/energy.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "support.hpp"

namespace test_planar {

using namespace acausal;

namespace {

constexpr double pi = 3.14159265358979323846;

/// Index of a state of a linear model, -1 when index reduction did not choose it.
int state_index(const LinearModel& lin, const std::string& name) {
  auto it = std::find(lin.states.begin(), lin.states.end(), name);
  return it == lin.states.end() ? -1 : static_cast<int>(it - lin.states.begin());
}

std::string joined(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

/// The textbook linear single-track model, states (v_y, r), input delta.
struct TextbookSingleTrack {
  double m = 1500.0, Iz = 2500.0, l_f = 1.2, l_r = 1.4, C_f = 8.0e4, C_r = 9.0e4;
  double L() const { return l_f + l_r; }
  double K_us() const { return m / L() * (l_r / C_f - l_f / C_r); }  // understeer gradient [rad.s2/m]
  double A(int i, int j, double v) const {
    const double a[2][2] = {{-(C_f + C_r) / (m * v), (l_r * C_r - l_f * C_f) / (m * v) - v},
                            {(l_r * C_r - l_f * C_f) / (Iz * v), -(l_f * l_f * C_f + l_r * l_r * C_r) / (Iz * v)}};
    return a[i][j];
  }
  double B(int i) const { return i == 0 ? C_f / m : l_f * C_f / Iz; }
  // ω_n² = det A, 2ζω_n = −tr A, written out as the textbooks do.
  double natural_frequency(double v) const {
    return std::sqrt(C_f * C_r * L() * L() / (m * Iz * v * v) + (l_r * C_r - l_f * C_f) / Iz);
  }
  double damping_ratio(double v) const {
    return ((C_f + C_r) / (m * v) + (l_f * l_f * C_f + l_r * l_r * C_r) / (Iz * v)) / (2 * natural_frequency(v));
  }
  ParameterValues parameters() const {
    return {{"m", m}, {"Iz", Iz}, {"l_f", l_f}, {"l_r", l_r}, {"C_f", C_f}, {"C_r", C_r}};
  }
};

/// A SingleTrack whose steering and speed are the model's inputs.
struct SingleTrackRig : Model {
  RealInput delta{*this, "delta", {.unit = "rad"}};
  RealInput v{*this, "v", {.unit = "m/s"}};
  vehicle::SingleTrack& car;
  explicit SingleTrackRig(const TextbookSingleTrack& p)
      : Model("single_track"), car(add<vehicle::SingleTrack>("car", p.parameters())) {
    connect(delta, car.delta);
    connect(v, car.v);
  }
};

}  // namespace

TEST_CASE("a planar body under a constant world force and torque: x = F t²/(2m), phi = τ t²/(2I)", "[planar]") {
  const double m = 2.5, I = 0.4, F = 3.0, tau = 0.7, T = 2.0;
  Model model("pushed_body");
  auto& body = model.add<planar::Body>("body", {{"m", m}, {"I", I}});
  auto& force = model.add<planar::WorldForce>("force");
  auto& torque = model.add<planar::WorldTorque>("torque");
  model.connect(model.add<blocks::Constant>("fx", {{"k", F}}).y, force.fx);
  model.connect(model.add<blocks::Constant>("fy", {{"k", 0.0}}).y, force.fy);
  model.connect(model.add<blocks::Constant>("tq", {{"k", tau}}).y, torque.tau);
  model.connect(force.frame_b, body.frame_a);
  model.connect(torque.frame_b, body.frame_a);
  for (const char* v : {"body.x", "body.y", "body.phi", "body.vx", "body.vy", "body.w"}) model.set_start(v, 0.0);
  Result r = model.compile().simulate(test::run_for(T, 0.01, 1e-10));

  // 1e-6 of the final value: IDA at rtol 1e-10 over ~100 steps.
  CHECK(test::worst(r, "body.x", [&](double t) { return F * t * t / (2 * m); }) < 1e-6 * F * T * T / (2 * m));
  CHECK(test::worst(r, "body.vx", [&](double t) { return F * t / m; }) < 1e-6 * F * T / m);
  CHECK(test::worst(r, "body.phi", [&](double t) { return tau * t * t / (2 * I); }) < 1e-6 * tau * T * T / (2 * I));
  CHECK(test::worst(r, "body.w", [&](double t) { return tau * t / I; }) < 1e-6 * tau * T / I);
  // No force along y, and a force through the centre of mass does not turn the body.
  CHECK(test::worst(r, "body.y", [](double) { return 0.0; }) < 1e-12);
  CHECK(r["body.ax"].back() == Approx(F / m).epsilon(1e-10));
  CHECK(r["body.z"].back() == Approx(tau / I).epsilon(1e-10));
}

TEST_CASE("energy books close for a planar body pushed by a world force and torque under gravity",
          "[planar][energy]") {
  const double m = 2.0, I = 0.5, Fx = 3.0, Fy = 5.0, tau = 0.8, g = 9.81, T = 2.0;
  Model model("pushed_body_books");
  auto& body = model.add<planar::Body>("body", {{"m", m}, {"I", I}, {"g", g}});
  auto& force = model.add<planar::WorldForce>("force");
  auto& torque = model.add<planar::WorldTorque>("torque");
  model.connect(model.add<blocks::Constant>("fx", {{"k", Fx}}).y, force.fx);
  model.connect(model.add<blocks::Constant>("fy", {{"k", Fy}}).y, force.fy);
  model.connect(model.add<blocks::Constant>("tq", {{"k", tau}}).y, torque.tau);
  model.connect(force.frame_b, body.frame_a);
  model.connect(torque.frame_b, body.frame_a);
  for (const char* v : {"body.x", "body.y", "body.phi", "body.vx", "body.vy", "body.w"}) model.set_start(v, 0.0);
  harness::EnergyBooks books(model);
  Result r = model.compile().simulate(test::run_for(T, 0.01, 1e-10));

  // Gravity along −y: y = (Fy/m − g)·t²/2 (the body falls: Fy < m·g).
  const double ay = Fy / m - g;
  CHECK(test::worst(r, "body.y", [&](double t) { return ay * t * t / 2; }) < 1e-6 * std::fabs(ay) * T * T / 2);
  // Each component's books (the sources supply what they deliver, the body
  // stores ½m(vx²+vy²)+½Iw² and is supplied −m·g·vy) and the whole model's close.
  const auto components = books.components_close(1e-6).evaluate(r);
  const auto whole = books.model_closes(1e-6).evaluate(r);
  INFO(components.message << "\n" << whole.message);
  CHECK(components.passed);
  CHECK(whole.passed);
  // The same by hand at the end: the work of the constant loads (force·displacement,
  // torque·angle, gravity −m·g·y) is the kinetic energy, within 1e-6.
  const double x = r["body.x"].back(), y = r["body.y"].back(), phi = r["body.phi"].back();
  const double vx = r["body.vx"].back(), vy = r["body.vy"].back(), w = r["body.w"].back();
  const double work = Fx * x + Fy * y + tau * phi - m * g * y;
  const double kinetic = 0.5 * m * (vx * vx + vy * vy) + 0.5 * I * w * w;
  CHECK(std::fabs(work - kinetic) < 1e-6 * kinetic);
}

TEST_CASE("a body spinning at constant w carries a FixedTranslation's frame_b on a circle of radius |r|",
          "[planar]") {
  const double m = 1.5, I = 0.2, w0 = 2.0, rx = 0.6, ry = -0.3, T = 3.5;
  const double radius = std::hypot(rx, ry);
  Model model("spinning_bar");
  auto& body = model.add<planar::Body>("body", {{"m", m}, {"I", I}});
  auto& bar = model.add<planar::FixedTranslation>("bar", {{"rx", rx}, {"ry", ry}});
  auto& position = model.add<planar::AbsolutePosition>("position");
  auto& velocity = model.add<planar::AbsoluteVelocity>("velocity");
  model.connect(body.frame_a, bar.frame_a);
  model.connect(bar.frame_b, position.frame_a);
  model.connect(bar.frame_b, velocity.frame_a);
  for (const char* v : {"body.x", "body.y", "body.phi", "body.vx", "body.vy"}) model.set_start(v, 0.0);
  model.set_start("body.w", w0);
  Result r = model.compile().simulate(test::run_for(T, 0.01, 1e-10));

  // frame_b = R(w0·t)·r about the (resting) centre of mass, within 1e-6·|r|.
  auto X = [&](double t) { return rx * std::cos(w0 * t) - ry * std::sin(w0 * t); };
  auto Y = [&](double t) { return rx * std::sin(w0 * t) + ry * std::cos(w0 * t); };
  CHECK(test::worst(r, "position.x", X) < 1e-6 * radius);
  CHECK(test::worst(r, "position.y", Y) < 1e-6 * radius);
  CHECK(test::worst(r, "position.phi", [&](double t) { return w0 * t; }) < 1e-6 * w0 * T);
  CHECK(test::worst(r, "velocity.vx", [&](double t) { return -w0 * Y(t); }) < 1e-6 * w0 * radius);
  CHECK(test::worst(r, "velocity.vy", [&](double t) { return w0 * X(t); }) < 1e-6 * w0 * radius);
  CHECK(test::worst(r, "velocity.w", [&](double) { return w0; }) < 1e-9 * w0);
  auto px = r["position.x"], py = r["position.y"];
  double off_circle = 0;
  for (std::size_t k = 0; k < r.size(); ++k) off_circle = std::max(off_circle, std::fabs(std::hypot(px[k], py[k]) - radius));
  CHECK(off_circle < 1e-6 * radius);
  // Sensors take no force: the body stays where it is.
  CHECK(test::worst(r, "body.x", [](double) { return 0.0; }) < 1e-9);
  CHECK(test::worst(r, "body.y", [](double) { return 0.0; }) < 1e-9);
}

TEST_CASE("a body on a revolute joint and a FixedTranslation circles the pivot, the pivot holds m·w²·|r|",
          "[planar][index]") {
  // Fixed → Revolute → FixedTranslation(r) → Body: an index-3 system; the
  // joint's angle and speed are the states. No torque, no gravity: w stays w0.
  const double m = 1.2, I = 0.05, w0 = 3.0, rx = 0.8, ry = 0.25, x0 = 0.5, y0 = -0.2, T = 2.5;
  const double radius = std::hypot(rx, ry);
  Model model("whirling_body");
  auto& ground = model.add<planar::Fixed>("ground", {{"x", x0}, {"y", y0}});
  auto& joint = model.add<planar::Revolute>("joint");
  auto& bar = model.add<planar::FixedTranslation>("bar", {{"rx", rx}, {"ry", ry}});
  auto& body = model.add<planar::Body>("body", {{"m", m}, {"I", I}});
  model.connect(ground.frame, joint.frame_a);
  model.connect(joint.frame_b, bar.frame_a);
  model.connect(bar.frame_b, body.frame_a);
  model.set_start("joint.phi", 0.0);
  model.set_start("joint.w", w0);
  Result r = model.compile().simulate(test::run_for(T, 0.01, 1e-10));

  auto X = [&](double t) { return x0 + rx * std::cos(w0 * t) - ry * std::sin(w0 * t); };
  auto Y = [&](double t) { return y0 + rx * std::sin(w0 * t) + ry * std::cos(w0 * t); };
  CHECK(test::worst(r, "joint.w", [&](double) { return w0; }) < 1e-6 * w0);
  CHECK(test::worst(r, "body.x", X) < 1e-6 * radius);
  CHECK(test::worst(r, "body.y", Y) < 1e-6 * radius);
  CHECK(test::worst(r, "body.w", [&](double) { return w0; }) < 1e-6 * w0);
  // The bar pulls the pivot towards the body: force on the ground m·w0²·(body − pivot).
  const double pull = m * w0 * w0;
  CHECK(test::worst(r, "ground.frame.fx", [&](double t) { return pull * (X(t) - x0); }) < 1e-6 * pull * radius);
  CHECK(test::worst(r, "ground.frame.fy", [&](double t) { return pull * (Y(t) - y0); }) < 1e-6 * pull * radius);
  // A free joint passes no torque.
  CHECK(test::worst(r, "ground.frame.tau", [](double) { return 0.0; }) < 1e-6 * pull * radius * radius);
}

TEST_CASE("a spinning body pushed along its own axis by a BodyFixedForce follows the rotating-force closed form",
          "[planar]") {
  // phi = w0·t, so the world acceleration is (F/m)(cos w0·t, sin w0·t).
  const double m = 2.0, I = 0.3, w0 = 1.5, F = 4.0, T = 4.0;
  Model model("pushed_spinner");
  auto& body = model.add<planar::Body>("body", {{"m", m}, {"I", I}});
  auto& push = model.add<planar::BodyFixedForce>("push");
  model.connect(model.add<blocks::Constant>("f_long", {{"k", F}}).y, push.f_long);
  model.connect(model.add<blocks::Constant>("f_lat", {{"k", 0.0}}).y, push.f_lat);
  model.connect(push.frame_b, body.frame_a);
  for (const char* v : {"body.x", "body.y", "body.phi", "body.vx", "body.vy"}) model.set_start(v, 0.0);
  model.set_start("body.w", w0);
  Result r = model.compile().simulate(test::run_for(T, 0.01, 1e-10));

  const double V = F / (m * w0);  // the speed scale
  CHECK(test::worst(r, "body.vx", [&](double t) { return V * std::sin(w0 * t); }) < 1e-6 * 2 * V);
  CHECK(test::worst(r, "body.vy", [&](double t) { return V * (1 - std::cos(w0 * t)); }) < 1e-6 * 2 * V);
  CHECK(test::worst(r, "body.x", [&](double t) { return V / w0 * (1 - std::cos(w0 * t)); }) < 1e-6 * V * T);
  CHECK(test::worst(r, "body.y", [&](double t) { return V * (t - std::sin(w0 * t) / w0); }) < 1e-6 * V * T);
  CHECK(test::worst(r, "body.w", [&](double) { return w0; }) < 1e-9 * w0);
}

TEST_CASE("kinematic bicycle: r = v·tan(delta)/L and a full circle of radius L/tan(delta) closes",
          "[planar][vehicle]") {
  const double L = 2.7, l_r = 1.2, v = 5.0, delta = 0.2;
  const double yaw_rate = v * std::tan(delta) / L, R = L / std::tan(delta), T = 2 * pi / yaw_rate;
  Model model("bicycle_circle");
  auto& bike = model.add<vehicle::KinematicBicycle>("bike", {{"L", L}, {"l_r", l_r}});
  model.connect(model.add<blocks::Constant>("speed", {{"k", v}}).y, bike.v);
  model.connect(model.add<blocks::Constant>("steer", {{"k", delta}}).y, bike.delta);
  Result r = model.compile().simulate(test::run_for(T, T / 400, 1e-10));

  // Algebraic outputs: exact up to rounding.
  CHECK(test::worst(r, "bike.r", [&](double) { return yaw_rate; }) < 1e-9 * yaw_rate);
  CHECK(test::worst(r, "bike.beta", [&](double) { return std::atan(l_r * std::tan(delta) / L); }) < 1e-12);
  CHECK(test::worst(r, "bike.v_y", [&](double) { return l_r * yaw_rate; }) < 1e-9 * l_r * yaw_rate);
  CHECK(test::worst(r, "bike.a_y", [&](double) { return v * yaw_rate; }) < 1e-9 * v * yaw_rate);
  // The rear axle on the circle centred at (0, R), within 1e-6·R (rtol 1e-10).
  CHECK(test::worst(r, "bike.x", [&](double t) { return R * std::sin(yaw_rate * t); }) < 1e-6 * R);
  CHECK(test::worst(r, "bike.y", [&](double t) { return R * (1 - std::cos(yaw_rate * t)); }) < 1e-6 * R);
  // After one period it is back where it started, heading 2π.
  REQUIRE(r.time().back() == Approx(T).epsilon(1e-12));
  CHECK(std::hypot(r["bike.x"].back(), r["bike.y"].back()) < 1e-6 * R);
  CHECK(r["bike.psi"].back() == Approx(2 * pi).epsilon(1e-8));
}

TEST_CASE("SingleTrack steady state: yaw gain r/delta = v/(L + K_us·v²) at two speeds", "[planar][vehicle]") {
  const TextbookSingleTrack p;
  const double delta = 0.02, L = p.L(), K = p.K_us();
  Model model("single_track_steady");
  auto& car = model.add<vehicle::SingleTrack>("car", p.parameters());
  model.connect(model.add<blocks::Constant>("speed", {{"k", 15.0}}).y, car.v);
  model.connect(model.add<blocks::Constant>("steer", {{"k", delta}}).y, car.delta);
  Simulator sim = model.compile();
  for (double v : {15.0, 30.0}) {
    INFO("v = " << v << " m/s");
    sim.set_parameter("speed.k", v);
    // The slowest transient decays as exp(−ζ·ω_n·t), ζ·ω_n ≥ 3.8/s: gone by 20 s.
    Result r = sim.simulate(test::run_for(20.0, 0.1, 1e-10));
    const double yaw_rate = r["car.r"].back();
    // 1e-6: the steady state is a fixed point of the integrator.
    CHECK(yaw_rate / delta == Approx(v / (L + K * v * v)).epsilon(1e-6));
    // Steady cornering: a_y = v·r, and the rear axle's force m·a_y·l_f/L sets its
    // slip, hence v_y = r·(l_r − m·v²·l_f/(C_r·L)).
    CHECK(r["car.a_y"].back() == Approx(v * yaw_rate).epsilon(1e-6));
    CHECK(r["car.v_y"].back() == Approx(yaw_rate * (p.l_r - p.m * v * v * p.l_f / (p.C_r * L))).epsilon(1e-6));
    // The understeer relation delta = L·r/v + K_us·a_y.
    CHECK(delta == Approx(L * yaw_rate / v + K * r["car.a_y"].back()).epsilon(1e-6));
  }
}

TEST_CASE("SingleTrack linearized: A and B equal the textbook matrices, modes their natural frequency and damping",
          "[planar][vehicle][analysis]") {
  const TextbookSingleTrack p;
  SingleTrackRig rig(p);
  Simulator sim = rig.compile();
  for (double v : {15.0, 30.0}) {
    INFO("v = " << v << " m/s");
    sim.set_parameter("delta", 0.01);
    sim.set_parameter("v", v);
    Result r = sim.simulate(test::run_for(0.5, 0.1));
    const LinearModel lin = linearize(r, r.time().back(), {"delta"});
    const int vy = state_index(lin, "car.v_y"), yr = state_index(lin, "car.r");
    INFO("states: " << joined(lin.states));
    REQUIRE(vy >= 0);
    REQUIRE(yr >= 0);
    // The linear model is linear: A and B at any operating point are the textbook ones, to 1e-9.
    const int idx[2] = {vy, yr};
    for (int i = 0; i < 2; ++i) {
      for (int j = 0; j < 2; ++j) CHECK(lin.A(idx[i], idx[j]) == Approx(p.A(i, j, v)).epsilon(1e-9));
      CHECK(lin.B(idx[i], 0) == Approx(p.B(i)).epsilon(1e-9));
      // Positions and heading do not feed back into the lateral dynamics.
      for (int j = 0; j < lin.A.cols; ++j)
        if (j != vy && j != yr) CHECK(std::fabs(lin.A(idx[i], j)) < 1e-12);
    }
    // Eigenvalues of the 2×2 block: ω_n² = det, 2ζω_n = −tr, against the closed forms.
    const double wn = p.natural_frequency(v), zeta = p.damping_ratio(v);
    REQUIRE(zeta < 1.0);  // a complex pair at both speeds for this car
    const double tr = lin.A(vy, vy) + lin.A(yr, yr);
    const double det = lin.A(vy, vy) * lin.A(yr, yr) - lin.A(vy, yr) * lin.A(yr, vy);
    CHECK(std::sqrt(det) == Approx(wn).epsilon(1e-9));
    CHECK(-tr / (2 * std::sqrt(det)) == Approx(zeta).epsilon(1e-9));
    // modes() of the full A (x, y, psi add three zeros): the fastest is the yaw–sideslip pair.
    const std::complex<double> expected(-zeta * wn, wn * std::sqrt(1 - zeta * zeta));
    const auto found = modes(lin);
    REQUIRE(!found.empty());
    const LinearMode& pair = *std::max_element(found.begin(), found.end(), [](const LinearMode& a, const LinearMode& b) {
      return a.natural_frequency < b.natural_frequency;
    });
    CHECK(std::abs(pair.eigenvalue - expected) < 1e-9 * wn);
    CHECK(pair.natural_frequency == Approx(wn).epsilon(1e-9));
    CHECK(pair.damping_ratio == Approx(zeta).epsilon(1e-9));
  }
}

TEST_CASE("SingleTrack at standstill: the regularized speed keeps the slip angles finite and the car still",
          "[planar][vehicle]") {
  // v_x = 0 with the wheel turned: |v_x| is replaced by v_eps/2, the steering
  // term delta·v_x/|v_x| vanishes, nothing moves.
  const double v_eps = 0.1;
  Model model("single_track_standstill");
  auto& car = model.add<vehicle::SingleTrack>("car", {{"v_eps", v_eps}});
  model.connect(model.add<blocks::Constant>("speed", {{"k", 0.0}}).y, car.v);
  model.connect(model.add<blocks::Constant>("steer", {{"k", 0.1}}).y, car.delta);
  Result r = model.compile().simulate(test::run_for(1.0, 0.1));
  CHECK(r["car.v_ref"].back() == Approx(v_eps / 2).epsilon(1e-12));
  for (const char* name : {"car.alpha_f", "car.alpha_r", "car.r", "car.v_y", "car.x", "car.y", "car.psi", "car.beta"}) {
    INFO(name);
    CHECK(test::worst(r, name, [](double) { return 0.0; }) < 1e-12);
  }
}

TEST_CASE("differential drive: wheel speeds (v ∓ ω·track/2)/radius, and a circle of radius v/ω closes after 2π/ω",
          "[planar][vehicle]") {
  const double track = 0.5, radius = 0.1, v = 0.8, omega = 0.5;
  const double R = v / omega, T = 2 * pi / omega;
  Model model("differential_circle");
  auto& robot = model.add<vehicle::DifferentialDrive>("robot", {{"track", track}, {"radius", radius}});
  model.connect(model.add<blocks::Constant>("speed", {{"k", v}}).y, robot.v);
  model.connect(model.add<blocks::Constant>("turn", {{"k", omega}}).y, robot.omega);
  Simulator sim = model.compile();
  Result r = sim.simulate(test::run_for(T, T / 400, 1e-10));

  // Algebraic outputs of constant inputs: exact up to rounding, 1e-12 of the wheel speed.
  const double w_left = (v - omega * track / 2) / radius, w_right = (v + omega * track / 2) / radius;
  CHECK(test::worst(r, "robot.w_left", [&](double) { return w_left; }) < 1e-12 * w_right);
  CHECK(test::worst(r, "robot.w_right", [&](double) { return w_right; }) < 1e-12 * w_right);
  // Seed 002's forward kinematics recover the command: v = radius·(w_l + w_r)/2, ω = radius·(w_r − w_l)/track.
  const double wl = r["robot.w_left"].back(), wr = r["robot.w_right"].back();
  CHECK(std::fabs(radius * (wl + wr) / 2 - v) < 1e-12 * v);
  CHECK(std::fabs(radius * (wr - wl) / track - omega) < 1e-12 * omega);
  CHECK(test::worst(r, "robot.r", [&](double) { return omega; }) < 1e-12 * omega);
  CHECK(test::worst(r, "robot.v_x", [&](double) { return v; }) < 1e-12 * v);
  CHECK(test::worst(r, "robot.a_y", [&](double) { return v * omega; }) < 1e-12 * v * omega);
  // The axle centre on the circle centred at (0, R), within 1e-6·R (rtol 1e-10).
  CHECK(test::worst(r, "robot.x", [&](double t) { return R * std::sin(omega * t); }) < 1e-6 * R);
  CHECK(test::worst(r, "robot.y", [&](double t) { return R * (1 - std::cos(omega * t)); }) < 1e-6 * R);
  // After one period 2π/ω it is back where it started, heading 2π.
  REQUIRE(r.time().back() == Approx(T).epsilon(1e-12));
  CHECK(std::hypot(r["robot.x"].back(), r["robot.y"].back()) < 1e-6 * R);
  CHECK(r["robot.psi"].back() == Approx(2 * pi).epsilon(1e-8));

  // The seed's own kinematic checks: opposite wheel speeds turn on the spot, equal ones drive straight.
  sim.set_parameter("speed.k", 0.0);
  Result spin = sim.simulate(test::run_for(1.0, 0.1, 1e-10));
  const double w_spin = omega * track / (2 * radius);
  CHECK(test::worst(spin, "robot.w_left", [&](double) { return -w_spin; }) < 1e-12 * w_spin);
  CHECK(test::worst(spin, "robot.w_right", [&](double) { return w_spin; }) < 1e-12 * w_spin);
  CHECK(test::worst(spin, "robot.x", [](double) { return 0.0; }) < 1e-12);
  CHECK(test::worst(spin, "robot.y", [](double) { return 0.0; }) < 1e-12);
  CHECK(spin["robot.psi"].back() == Approx(omega * 1.0).epsilon(1e-9));
  sim.set_parameter("speed.k", v);
  sim.set_parameter("turn.k", 0.0);
  Result straight = sim.simulate(test::run_for(1.0, 0.1, 1e-10));
  CHECK(test::worst(straight, "robot.w_left", [&](double) { return v / radius; }) < 1e-12 * v / radius);
  CHECK(test::worst(straight, "robot.w_right", [&](double) { return v / radius; }) < 1e-12 * v / radius);
  CHECK(test::worst(straight, "robot.x", [&](double t) { return v * t; }) < 1e-9 * v);
  CHECK(test::worst(straight, "robot.y", [](double) { return 0.0; }) < 1e-12);
}

TEST_CASE("differential drive behind seed 002's actuators: a_max·t ramp, 1 − e^(−t/τ) lag, 0.1 s dead time",
          "[planar][vehicle][actuator]") {
  // Commands step at t0; both channels wait dead_time = 0.1 s. The speed
  // channel (blocks::VelocityActuator) has a fast lag (τ_v = 10 ms) and a
  // 0.5 m/s² acceleration limit, so it ramps at a_max until (V − y)/τ_v falls
  // to a_max, at y = V − a_max·τ_v; the yaw-rate channel (a VelocityActuator
  // too: its limits read as rad/s and rad/s²) has a limit far above its lag's
  // rate, so it is the pure first-order lag Ω·(1 − e^(−s/τ_w)), s = t − t0 − dead_time.
  const double track = 0.5, radius = 0.1, t0 = 0.2, dead_time = 0.1;
  const double V = 1.0, a_max = 0.5, tau_v = 0.01, W = 0.5, tau_w = 0.3, T = 4.0;
  Model model("differential_actuated");
  auto& robot = model.add<vehicle::DifferentialDrive>("robot", {{"track", track}, {"radius", radius}});
  auto& drive = model.add<blocks::VelocityActuator>(
      "drive", {{"dead_time", dead_time}, {"time_constant", tau_v}, {"max_velocity", 2.0}, {"max_acceleration", a_max}});
  auto& turn = model.add<blocks::VelocityActuator>(
      "turn", {{"dead_time", dead_time}, {"time_constant", tau_w}, {"max_velocity", 2.0}, {"max_acceleration", 1e3}});
  model.connect(model.add<blocks::Step>("speed_command", {{"height", V}, {"startTime", t0}}).y, drive.u);
  model.connect(model.add<blocks::Step>("turn_command", {{"height", W}, {"startTime", t0}}).y, turn.u);
  model.connect(drive.y, robot.v);
  model.connect(turn.y, robot.omega);
  // Rows every millisecond, so that 99 and 101 ms after the command are rows.
  Result r = model.compile().simulate(test::run_for(T, 1e-3, 1e-10));
  const auto& t = r.time();

  // Rate limit: y = a_max·s during the ramp (a constant derivative, integrated
  // exactly), within 1e-6 m/s; after it, the lag from V − a_max·τ_v.
  const double ramp_end = t0 + dead_time + (V - a_max * tau_v) / a_max;
  auto speed = [&](double time) {
    const double s = time - t0 - dead_time;
    if (s <= 0) return 0.0;
    if (time <= ramp_end) return a_max * s;
    return V - a_max * tau_v * std::exp(-(time - ramp_end) / tau_v);
  };
  auto y_drive = r["drive.y"];
  double worst_ramp = 0, worst_after = 0;
  for (std::size_t k = 0; k < r.size(); ++k) {
    const double error = std::fabs(y_drive[k] - speed(t[k]));
    if (t[k] <= ramp_end) worst_ramp = std::max(worst_ramp, error);
    else worst_after = std::max(worst_after, error);
  }
  CHECK(worst_ramp < 1e-6);
  CHECK(worst_after < 1e-6 * V);  // the switch from limit to lag is a located state event
  // First-order lag within 1e-6·Ω; the heading is its integral Ω·(s − τ_w·(1 − e^(−s/τ_w))).
  auto lag = [&](double time) {
    const double s = time - t0 - dead_time;
    return s <= 0 ? 0.0 : W * (1 - std::exp(-s / tau_w));
  };
  CHECK(test::worst(r, "turn.y", lag) < 1e-6 * W);
  CHECK(test::worst(r, "robot.psi", [&](double time) {
          const double s = time - t0 - dead_time;
          return s <= 0 ? 0.0 : W * (s - tau_w * (1 - std::exp(-s / tau_w)));
        }) < 1e-6 * W * T);
  // The wheels follow the actuated twist at every row, to rounding.
  auto y_turn = r["turn.y"];
  const double w_scale = (V + W * track / 2) / radius;
  CHECK(test::worst(r, "robot.w_left", [&](double, std::size_t k) { return (y_drive[k] - y_turn[k] * track / 2) / radius; }) <
        1e-12 * w_scale);
  CHECK(test::worst(r, "robot.w_right", [&](double, std::size_t k) { return (y_drive[k] + y_turn[k] * track / 2) / radius; }) <
        1e-12 * w_scale);

  // Dead time: nothing has moved 99 ms after the command, everything has 101 ms after.
  auto row_at = [&](double time) {
    return static_cast<std::size_t>(std::min_element(t.begin(), t.end(), [&](double a, double b) {
                                      return std::fabs(a - time) < std::fabs(b - time);
                                    }) - t.begin());
  };
  const std::size_t before = row_at(t0 + 0.099), after = row_at(t0 + 0.101);
  REQUIRE(t[before] == Approx(t0 + 0.099).margin(1e-9));
  REQUIRE(t[after] == Approx(t0 + 0.101).margin(1e-9));
  for (const char* name : {"drive.u_delayed", "turn.u_delayed", "drive.y", "turn.y", "robot.w_left", "robot.w_right", "robot.x",
                           "robot.psi"}) {
    INFO(name);
    auto values = r[name];
    for (std::size_t k = 0; k <= before; ++k) CHECK(std::fabs(values[k]) < 1e-12);
  }
  CHECK(r["drive.u_delayed"][after] == Approx(V).epsilon(1e-12));
  CHECK(r["turn.u_delayed"][after] == Approx(W).epsilon(1e-12));
  // 1 ms into the response: a_max·1 ms and Ω·(1 − e^(−1 ms/τ_w)), within 1e-6 of their scales.
  CHECK(std::fabs(y_drive[after] - a_max * 1e-3) < 1e-6 * V);
  CHECK(std::fabs(y_turn[after] - W * (1 - std::exp(-1e-3 / tau_w))) < 1e-6 * W);
  CHECK(y_drive[after] > 0.0);
  CHECK(y_turn[after] > 0.0);
  CHECK(r["robot.w_right"][after] > 0.0);
}

TEST_CASE("ISO 4138 constant steer angle on the linear SingleTrack: the δ–a_y slope gives K_us within 1 %",
          "[planar][vehicle][handling]") {
  // ISO 4138's constant steer-angle method: the steering angle δ is held, the
  // speed raised slowly, and at each speed the steady turn radius R = v/r is
  // read. Steady cornering obeys δ = L/R + K_us·a_y, so δ − L/R (the steer
  // beyond the Ackermann angle L/R = L·r/v) against a_y is a line of slope
  // K_us through the origin; fitted by least squares over a_y < 4 m/s² (the
  // linear range of ISO 4138). Quasi-static: 10 s at 5 m/s (the start
  // transient decays as exp(−ζ·ω_n·t), ζ·ω_n ≥ 3.8/s), then 0.1 m/s² up to
  // 35 m/s; the lateral dynamics lag the ramp by ~0.25 s, which biases the
  // slope by about 0.2 % (0.9 % at 0.5 m/s², halving with the ramp rate).
  const TextbookSingleTrack p;
  const double delta = 0.02, L = p.L(), v0 = 5.0, v1 = 35.0, hold = 10.0, ramp = 0.1;
  const double duration = (v1 - v0) / ramp;
  Model model("iso_4138_constant_steer");
  auto& car = model.add<vehicle::SingleTrack>("car", p.parameters());
  model.connect(model.add<blocks::Ramp>("speed", {{"height", v1 - v0}, {"duration", duration}, {"offset", v0},
                                                  {"startTime", hold}}).y,
                car.v);
  model.connect(model.add<blocks::Constant>("steer", {{"k", delta}}).y, car.delta);
  Result r = model.compile().simulate(test::run_for(hold + duration, 0.1, 1e-10));

  auto a_y = r["car.a_y"], yaw_rate = r["car.r"], v = r["car.v_x"];
  const auto& t = r.time();
  double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0, highest = 0;
  for (std::size_t k = 0; k < r.size(); ++k) {
    if (t[k] < hold || a_y[k] >= 4.0) continue;
    const double beyond_ackermann = delta - L * yaw_rate[k] / v[k];  // δ − L/R [rad]
    n += 1;
    sx += a_y[k];
    sy += beyond_ackermann;
    sxx += a_y[k] * a_y[k];
    sxy += a_y[k] * beyond_ackermann;
    highest = std::max(highest, a_y[k]);
  }
  // The fit spans the linear range: a_y from ~0.2 up to 4 m/s² (reached near 32 m/s).
  REQUIRE(n > 1000);
  REQUIRE(highest > 3.9);
  const double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);  // [rad.s2/m]
  const double intercept = (sy - slope * sx) / n;                   // [rad]
  INFO("fitted K_us = " << slope << " rad.s2/m, closed form " << p.K_us() << ", intercept " << intercept << " rad");
  CHECK(slope == Approx(p.K_us()).epsilon(0.01));
  // The line passes through the origin (no steer beyond Ackermann without lateral
  // acceleration), within 1 % of the steering angle: the same quasi-static bias.
  CHECK(std::fabs(intercept) < 0.01 * delta);
}

TEST_CASE("SingleTrack with the tanh tire law: the steady lateral acceleration saturates near μ·g, never above",
          "[planar][vehicle][handling]") {
  // Static axle loads m·g·l_r/L and m·g·l_f/L, each axle's force within μ times
  // its load, so a_y = (F_f + F_r)/m ≤ μ·g at every instant. In a steady turn
  // both axles use the same fraction u = a_y/(μ·g) of their limit (the moment
  // balance l_f·F_f = l_r·F_r), and the kinematics δ − L·a_y/v² = α_f − α_r give
  // the closed form δ = L·μ·g·u/v² + K_us·μ·g·atanh(u). At 20 m/s a steering
  // angle of 0.11 rad (1.26·μ·g on linear tires) gives u ≈ 0.967. The steering
  // is ramped in over 20 s: a step overshoots into the region where both axles
  // slide (the yaw moment vanishes at the limit, the prescribed-speed model then
  // drifts sideways instead of settling); 40 s of hold settle to 1e-8.
  const TextbookSingleTrack p;
  const double mu = 1.0, g = 9.81, v = 20.0, delta = 0.11, ramp = 20.0, hold = 40.0;
  const double L = p.L(), K = p.K_us(), limit_f = mu * p.m * g * p.l_r / L, limit_r = mu * p.m * g * p.l_f / L;
  auto run = [&](int law) {
    ParameterValues values = p.parameters();
    values.push_back({"tire_law", law});
    values.push_back({"mu", mu});
    values.push_back({"g", g});
    Model model("saturating_single_track");
    auto& car = model.add<vehicle::SingleTrack>("car", values);
    model.connect(model.add<blocks::Constant>("speed", {{"k", v}}).y, car.v);
    model.connect(model.add<blocks::Ramp>("steer", {{"height", delta}, {"duration", ramp}}).y, car.delta);
    return model.compile().simulate(test::run_for(ramp + hold, 0.01, 1e-10));
  };
  Result r = run(vehicle::LateralTireLaw::tanh);

  // Never above the friction limit, at every row (1e-9 relative: rounding of tanh's product).
  auto a_y = r["car.a_y"], F_f = r["car.F_f"], F_r = r["car.F_r"];
  for (std::size_t k = 0; k < r.size(); ++k) {
    INFO("t = " << r.time()[k] << " s: a_y = " << a_y[k] << " m/s2, F_f = " << F_f[k] << " N, F_r = " << F_r[k] << " N");
    CHECK(std::fabs(a_y[k]) <= mu * g * (1 + 1e-9));
    CHECK(std::fabs(F_f[k]) <= limit_f * (1 + 1e-9));
    CHECK(std::fabs(F_r[k]) <= limit_r * (1 + 1e-9));
  }
  // Saturated near μ·g: within 5 % below it.
  const double u = a_y.back() / (mu * g);
  CHECK(u > 0.95);
  CHECK(u < 1.0);
  // The steady state: a_y = v·r, and u against the closed form solved by bisection (1e-6).
  CHECK(a_y.back() == Approx(v * r["car.r"].back()).epsilon(1e-6));
  double lo = 0.0, hi = 1.0;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    (L * mu * g * mid / (v * v) + K * mu * g * std::atanh(mid) < delta ? lo : hi) = mid;
  }
  CHECK(u == Approx(0.5 * (lo + hi)).epsilon(1e-6));
  // The same car on linear tires (the default) would corner at v²·δ/(L + K_us·v²) > μ·g.
  Result linear = run(vehicle::LateralTireLaw::linear);
  const double linear_a_y = v * v * delta / (L + K * v * v);
  REQUIRE(linear_a_y > 1.2 * mu * g);
  CHECK(linear["car.a_y"].back() == Approx(linear_a_y).epsilon(1e-6));
}

}  // namespace test_planar
