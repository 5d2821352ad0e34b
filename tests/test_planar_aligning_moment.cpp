// The PlanarWheel's aligning moment Mz (issue 31): the brush model's
// pneumatic trail for the simple laws (trail_0 at zero slip, the closed form
// between, nothing from full sliding on), PAC2002's Mz against its formulas
// written out by hand, the moment's sign and its way to the body, the energy
// books with the moment's work, nothing of it by default, and the .TIR reader
// of the aligning coefficients. Tolerances are stated per check.
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>
#include <acausal/components/vehicle/tires/pac2002_aligning.hpp>
#include <acausal/components/vehicle/tires/tir_file.hpp>
#include <acausal/harness/energy.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <numbers>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "msl_reference.hpp"  // data_dir()
#include "planar_wheel_rig.hpp"
#include "support.hpp"

namespace test_planar_aligning_moment {

using namespace acausal;
using namespace acausal::vehicle;
using Catch::Contains;
using Law = PlanarTireLaw;

namespace {

constexpr double N_load = 4000.0, mu = 0.9, v = 20.0, C_alpha = 15.0, trail_0 = 0.035;
constexpr double deg = std::numbers::pi / 180;

/// A free-rolling wheel under `law` with the aligning moment on.
ParameterValues aligning(int law, double trail = trail_0) {
  return {{"tire_law", law}, {"mu", mu}, {"Crr", 0.0}, {"aligning_moment", 1.0}, {"trail_0", trail}};
}

struct Row {
  double Fx, Fy, Mz, trail, tau, alpha, kappa, F_total, F_peak;
};

/// The wheel's first output row on a body of 1e9 kg sliding at (v, v·tan(alpha)) under `load`, the wheel spun
/// at (1 + kappa)·v/r and its coefficients read from `tir` when given.
Row first_row(const ParameterValues& wheel, double alpha, double load = N_load, double kappa = 0.0,
              const std::string& tir = {}) {
  test::PlanarWheelRig rig(wheel, 1e9, v, v * std::tan(alpha), load);
  if (!tir.empty()) rig.wheel.load_tir(tir);
  Simulator sim = rig.compile();
  sim.set_parameter("w.k", (1 + kappa) * v / 0.3);
  const Result r = sim.simulate(test::run_for(1e-6, 1e-6));
  const auto at_start = [&](const char* name) { return r[std::string("wheel.") + name].front(); };
  return {at_start("Fx"),    at_start("Fy"),    at_start("Mz"),      at_start("trail"),  at_start("frame.tau"),
          at_start("alpha"), at_start("kappa"), at_start("F_total"), at_start("F_peak")};
}

/// The brush model's trail over its value at zero slip, θ = C_α·|tan α|/(3·F_y,peak) (Pacejka, Tire and
/// Vehicle Dynamics, ch. 3: Mz/Fy of the brush at pure side slip with a parabolic pressure distribution).
double fiala(double theta) {
  if (theta >= 1) return 0.0;
  return std::pow(1 - theta, 3) / (1 - theta + theta * theta / 3);
}

// The three coefficient sets the aligning moment reads.
struct Tire {
  Pac2002Longitudinal q;
  Pac2002Lateral p;
  Pac2002Aligning z;
};

// The aligning coefficients of tests/data/tires/example_pac2002.tir.
Pac2002Aligning example_aligning() {
  return {.UNLOADED_RADIUS = 0.3135, .QBZ1 = 12.035, .QBZ2 = -1.33, .QBZ3 = 0, .QBZ9 = 34.5, .QBZ10 = 0,
          .QCZ1 = 1.2923, .QDZ1 = 0.09068, .QDZ2 = -0.00565, .QDZ6 = 0.0017015, .QDZ7 = -0.002091,
          .QEZ1 = -1.7924, .QEZ2 = 0.8975, .QEZ3 = 0, .QEZ4 = 0.2895, .QHZ1 = 0.0014333, .QHZ2 = 0.0024087,
          .SSZ1 = 0.00918, .SSZ2 = 0.03869, .LTR = 1.1, .LRES = 0.9, .LS = 1};
}

// Pacejka, Tire and Vehicle Dynamics: Fy0 by 4.E19-4.E30, the aligning moment's
// terms by 4.E31-4.E49 and 4.E71-4.E78, without camber, as the book writes
// them: the equivalent slip angles with their sgn(alpha_t), sgn(alpha_r) (the
// library drops them), alpha_t of the tangent alpha* = tan(alpha). The guards
// pac2002_lateral.hpp and pac2002_aligning.hpp document are kept (1e-6 N in
// By's denominator and in Kya', 1e-12 added to LMUY·mu; Ey and Et at most 1),
// except the 1e-24 under the roots (1e-20 relative at these slips).
struct Hand {
  double Fy0, SVyk, t, Mzr, s;
};
double sgn(double x) { return x > 0 ? 1.0 : (x < 0 ? -1.0 : 0.0); }
Hand by_hand(const Tire& tire, double kappa, double alpha, double Fz, double mu_scale, double Fy) {
  const Pac2002Longitudinal& q = tire.q;
  const Pac2002Lateral& p = tire.p;
  const Pac2002Aligning& z = tire.z;
  Hand h;
  const double Fz0 = q.LFZO * q.FNOMIN, dfz = (Fz - Fz0) / Fz0, a = std::tan(alpha), R0 = z.UNLOADED_RADIUS;
  const double lmuy = p.LMUY * mu_scale;
  // Fy0 and the terms of it the moment reads.
  const double SHy = (p.PHY1 + p.PHY2 * dfz) * p.LHY, alpha_y = a + SHy;
  const double Cy = p.PCY1 * p.LCY, muy = (p.PDY1 + p.PDY2 * dfz) * lmuy, Dy = muy * Fz;
  const double Ey = std::min((p.PEY1 + p.PEY2 * dfz) * (1 - p.PEY3 * sgn(alpha_y)) * p.LEY, 1.0);
  const double Kya = p.PKY1 * Fz0 * std::sin(2 * std::atan(Fz / (p.PKY2 * Fz0))) * p.LKY;
  const double By = Kya / (std::max(Cy * Dy, 0.0) + 1e-6);
  const double SVy = Fz * (p.PVY1 + p.PVY2 * dfz) * p.LVY * lmuy;
  const double y = By * alpha_y;
  h.Fy0 = Dy * std::sin(Cy * std::atan(y - Ey * (y - std::atan(y)))) + SVy;
  const double DVyk = muy * Fz * (p.RVY1 + p.RVY2 * dfz) * std::cos(std::atan(p.RVY4 * a));
  h.SVyk = DVyk * std::sin(p.RVY5 * std::atan(p.RVY6 * kappa)) * p.LVYKA;
  const double Kx = Fz * (q.PKX1 + q.PKX2 * dfz) * std::exp(q.PKX3 * dfz) * q.LKX;
  const double Kya_prime = Kya - 1e-6;
  // The trail.
  const double SHt = z.QHZ1 + z.QHZ2 * dfz, alpha_t = a + SHt;
  const double Bt = (z.QBZ1 + z.QBZ2 * dfz + z.QBZ3 * dfz * dfz) * p.LKY / (lmuy + 1e-12), Ct = z.QCZ1;
  const double Dt = Fz * (R0 / Fz0) * (z.QDZ1 + z.QDZ2 * dfz) * z.LTR;
  const double Et = std::min((z.QEZ1 + z.QEZ2 * dfz + z.QEZ3 * dfz * dfz) *
                                 (1 + z.QEZ4 * (2 / std::numbers::pi) * std::atan(Bt * Ct * alpha_t)),
                             1.0);
  const double k = Kx / Kya_prime * kappa;
  const double alpha_t_eq = std::sqrt(alpha_t * alpha_t + k * k) * sgn(alpha_t);
  const double x = Bt * alpha_t_eq;
  h.t = Dt * std::cos(Ct * std::atan(x - Et * (x - std::atan(x)))) * std::cos(alpha);
  // The residual moment.
  const double SHf = SHy + SVy / Kya_prime, alpha_r = a + SHf;
  const double Br = z.QBZ9 * p.LKY / (lmuy + 1e-12) + z.QBZ10 * By * Cy;
  const double Dr = Fz * R0 * (z.QDZ6 + z.QDZ7 * dfz) * z.LRES * lmuy;
  const double alpha_r_eq = std::sqrt(alpha_r * alpha_r + k * k) * sgn(alpha_r);
  h.Mzr = Dr * std::cos(std::atan(Br * alpha_r_eq)) * std::cos(alpha);
  // The arm of Fx.
  h.s = R0 * (z.SSZ1 + z.SSZ2 * Fy / Fz0) * z.LS;
  return h;
}

bool agrees(double value, double expected, double relative) {
  return std::fabs(value - expected) <= relative * std::fabs(expected);
}

double parameter_of(const Component& c, const std::string& name) {
  for (const ParameterDecl& p : c.parameters())
    if (p.name == name) return p.value;
  FAIL("no parameter " << name);
  return 0.0;
}

}  // namespace

TEST_CASE("PlanarWheel aligning moment: near zero slip the trail is trail_0, the moment turns the wheel toward "
          "where it goes and reaches the body, off (the default) there is none",
          "[planar_tire]") {
  // θ = C_α·tan α/(3μ) = 1e-4, where the brush's trail is trail_0·(1 − 2θ + O(θ²)): 2e-4 below trail_0. (At
  // 0.5° θ is already 0.048 and the trail 9.5 % below trail_0: it falls at once with the slip angle.)
  const double theta = 1e-4, tan_alpha = 3 * mu * theta / C_alpha;
  for (double side : {1.0, -1.0}) {
    const Row f = first_row(aligning(Law::tanh), std::atan(side * tan_alpha));
    INFO("alpha = " << f.alpha << ": Fy = " << f.Fy << " N, Mz = " << f.Mz << " N.m");
    CHECK(f.Mz / -f.Fy == Approx(trail_0).epsilon(1e-3));
    // alpha > 0: the contact slides to the wheel's left and Fy < 0 pushes it right, from behind the contact
    // centre, so Mz > 0 (counter-clockwise seen from above) turns the wheel left, toward its direction of
    // travel: the slip angle falls. Mirrored for alpha < 0.
    CHECK(side * f.Fy < 0);
    CHECK(side * f.Mz > 0);
    // The road's moment reaches the body through the massless wheel centre: frame.tau = -Mz (1e-12).
    CHECK(f.tau == Approx(-f.Mz).epsilon(1e-12));
  }
  // Off: no moment, no trail, no torque on the frame, exactly, and the forces are those with it on (1e-12).
  const Row off = first_row({{"tire_law", Law::tanh}, {"mu", mu}, {"Crr", 0.0}}, 5 * deg);
  const Row on = first_row(aligning(Law::tanh), 5 * deg);
  CHECK(off.Mz == 0.0);
  CHECK(off.trail == 0.0);
  CHECK(off.tau == 0.0);
  CHECK(on.Mz > 0.0);
  CHECK(off.Fy == Approx(on.Fy).epsilon(1e-12));
  CHECK(off.Fx == Approx(on.Fx).margin(1e-9));
}

TEST_CASE("PlanarWheel aligning moment: from full sliding on (theta >= 1) the trail and the moment vanish",
          "[planar_tire]") {
  // 30°: θ = 15·tan 30°/(3·0.9) = 3.2, the whole contact slides.
  for (int law : {Law::tanh, Law::linear}) {
    const Row f = first_row(aligning(law), 30 * deg);
    INFO("law " << law << ": Fy = " << f.Fy << " N, Mz = " << f.Mz << " N.m");
    CHECK(std::fabs(f.Fy) > 0.9 * mu * N_load);  // the force is there (saturated), only its moment is gone
    CHECK(std::fabs(f.Mz) <= 1e-6 * trail_0 * std::fabs(f.Fy));
    CHECK(f.trail == 0.0);
  }
  // Just before, at θ = 0.9, a little trail is left: trail_0·0.1³/0.37 (1e-6).
  const Row before = first_row(aligning(Law::tanh), std::atan(0.9 * 3 * mu / C_alpha));
  CHECK(before.trail == Approx(trail_0 * 0.001 / 0.37).epsilon(1e-6));
  CHECK(before.Mz > 0.0);
}

TEST_CASE("PlanarWheel aligning moment: between, Mz = -trail·Fy with the brush model's trail", "[planar_tire]") {
  // θ/|tan α| = C_α/(3·F_y,peak) of each law: cornering_stiffness·N/(3·μ·N) for tanh and linear, B_y·C_y·D_y·μN /
  // (3·D_y·μN) for pacejka (the defaults B_y = 10, C_y = 1.3). A trail_0 other than the default.
  const double trail = 0.042;
  for (auto [law, per_tan] : {std::pair{int(Law::tanh), C_alpha / (3 * mu)},
                              {int(Law::linear), C_alpha / (3 * mu)},
                              {int(Law::pacejka), 10.0 * 1.3 / 3}})
    for (double theta : {0.25, 0.5, 0.8}) {
      const double vy0 = v * theta / per_tan;
      const Row f = first_row(aligning(law, trail), std::atan(vy0 / v));
      // θ from the rig's own numbers: the contact slides at tan α = vy0/v.
      const double expected = -trail * fiala(per_tan * (vy0 / v)) * f.Fy;
      INFO("law " << law << ", theta " << theta << ": Fy = " << f.Fy << " N, Mz = " << f.Mz << " N.m, expected "
                  << expected);
      CHECK(f.Fy < 0.0);
      CHECK(agrees(f.Mz, expected, 1e-6));
      CHECK(agrees(f.trail, trail * fiala(per_tan * (vy0 / v)), 1e-6));
    }
}

TEST_CASE("PlanarWheel aligning moment: no slip or no load gives no moment, and nothing divides by zero",
          "[planar_tire]") {
  for (int law : {Law::tanh, Law::linear, Law::pacejka, Law::pac2002})
    for (auto [alpha, load] : {std::pair{0.0, N_load}, {0.0, 0.0}, {0.1, 0.0}}) {
      INFO("law " << law << ", alpha " << alpha << ", load " << load << " N");
      const Row f = first_row(aligning(law), alpha, load);
      CHECK(std::isfinite(f.trail));
      CHECK(f.Mz == Approx(0.0).margin(1e-12));
      CHECK(f.tau == Approx(0.0).margin(1e-12));
    }
}

TEST_CASE("PlanarWheel aligning moment, pac2002: pure slip Mz at three loads equals PAC2002's formula written out "
          "by hand",
          "[planar_tire][pac2002]") {
  const Tire defaults;
  const double alpha = 0.05;  // 2.9°
  for (double load : {2000.0, 4000.0, 6000.0}) {
    const Row f = first_row({{"tire_law", Law::pac2002}, {"aligning_moment", 1.0}, {"mu", 1.0}, {"Crr", 0.0}},
                            alpha, load);
    const Hand h = by_hand(defaults, 0.0, alpha, load, 1.0, f.Fy);
    // Mz0 = -t·Fy0 + Mzr (4.E31); the defaults have no residual moment at zero slip (QDZ6 = QDZ7 = 0) and no
    // longitudinal offsets, so rolling free Fx = 0 and s·Fx drops (|Fx| < 1e-6 N).
    const double Mz0 = -h.t * h.Fy0 + h.Mzr;
    INFO("load " << load << " N: Fy = " << f.Fy << " N (by hand " << h.Fy0 << "), trail " << f.trail
                 << " m (by hand " << h.t << "), Mz = " << f.Mz << " N.m (by hand " << Mz0 << ")");
    CHECK(std::fabs(f.Fx) < 1e-6);
    CHECK(agrees(f.Fy, h.Fy0, 1e-9));
    CHECK(agrees(f.trail, h.t, 1e-9));
    CHECK(agrees(f.Mz, Mz0, 1e-9));
    // A positive trail at a positive slip angle: the moment turns the wheel toward where it goes.
    CHECK(f.Mz > 0.0);
  }
}

TEST_CASE("PlanarWheel aligning moment, pac2002: the example .TIR tire under pure and combined slip equals the "
          "formula written out by hand",
          "[planar_tire][pac2002]") {
  // Offsets, asymmetry, the residual moment and the arm of Fx all in play. The forces are the wheel's (tested in
  // test_pac2002_lateral.cpp); the moment is written out here: Mz = -t·Fy' + Mzr + s·Fx with Fy' = Fy - SVyk.
  const std::string tir = (test::data_dir() / "tires" / "example_pac2002.tir").string();
  const Tire example{read_tir_longitudinal(tir), read_tir_lateral(tir), example_aligning()};
  int combined = 0;
  for (double load : {3000.0, 6000.0})
    for (double kappa : {0.0, 0.05, -0.1})
      for (double alpha : {0.05, -0.12}) {
        const Row f = first_row({{"tire_law", Law::pac2002}, {"aligning_moment", 1.0}, {"mu", 1.0}, {"Crr", 0.0}},
                                alpha, load, kappa, tir);
        // Within the peak, so the wheel delivers PAC2002's forces unscaled (Fy' = Fy - SVyk).
        REQUIRE(f.F_total < f.F_peak * (1 - 1e-9));
        // The slips the law read (the wheel's own: they equal alpha and kappa to round-off).
        const Hand h = by_hand(example, f.kappa, f.alpha, load, 1.0, f.Fy);
        const double Mz = -h.t * (f.Fy - h.SVyk) + h.Mzr + h.s * f.Fx;
        INFO("load " << load << " N, kappa " << f.kappa << ", alpha " << f.alpha << ": Fx = " << f.Fx
                     << " N, Fy = " << f.Fy << " N, Mz = " << f.Mz << " N.m (by hand " << Mz << ": t = " << h.t
                     << " m, Mzr = " << h.Mzr << " N.m, s = " << h.s << " m)");
        CHECK(agrees(f.trail, h.t, 1e-9));
        CHECK(agrees(f.Mz, Mz, 1e-9));
        if (kappa != 0.0) ++combined;
      }
  CHECK(combined == 8);
}

TEST_CASE("PlanarWheel aligning moment: the energy books close with the moment's work, and the moment yaws the "
          "body toward the wheel's path",
          "[planar_tire]") {
  // A body of 1e4 kg with a yaw inertia of 1 kg·m² sliding at 5 m/s with a 3° slip angle on a free-rolling tanh
  // tire: the moment (about 40 N·m) swings the heading toward the velocity and past it, a yaw oscillation of
  // about 0.2 s with no damping (the side force, swinging with the heading, hardly slows the slide). The
  // moment's work, the body's yaw energy ½·I·w² (about 1.5 J), goes through the wheel's frame as tau·der(phi) and
  // is booked in P_slip; against the ~120 J of sliding work a 1e-6 tolerance on the books sees it. (A heavier body
  // would hide the books in its kinetic energy's round-off: 1e-10 of its speed is m·v·1e-10·v of energy.)
  const double speed = 5.0, I = 1.0;
  test::PlanarWheelRig rig(aligning(Law::tanh), 1e4, speed, speed * std::tan(3 * deg), N_load);
  rig.set_parameter("body.I", I);
  harness::EnergyBooks books(rig);
  const Result r = test::compile_checked(rig).simulate(test::run_for(0.4, 1e-3, 1e-10));
  test::books_close(books, r, 1e-6);

  const auto w = r["body.w"], alpha = r["wheel.alpha"];
  double yaw_energy = 0;
  for (double wk : w) yaw_energy = std::max(yaw_energy, 0.5 * I * wk * wk);
  INFO("largest yaw energy " << yaw_energy << " J");
  CHECK(yaw_energy > 0.1);
  // The moment turns the body (and the wheel on it) counter-clockwise first, toward the path: alpha falls.
  CHECK(w[10] > 0.0);
  CHECK(alpha[10] < alpha[0]);
  // The heading oscillates: the yaw rate turns negative within the run.
  CHECK(*std::min_element(w.begin(), w.end()) < 0.0);
}

TEST_CASE("PAC2002: the .TIR reader loads the aligning coefficients, and a PlanarWheel takes them with the "
          "forces'",
          "[planar_tire][pac2002]") {
  const auto path = test::data_dir() / "tires" / "example_pac2002.tir";
  const Pac2002Aligning loaded = read_tir_aligning(path.string()), expected = example_aligning(), defaults;
  std::set<std::string> names;
  for (const auto& field : Pac2002Aligning::fields()) {
    INFO(field.name);
    CHECK(loaded.*field.member == expected.*field.member);
    names.insert(field.name);
  }
  // Every coefficient is listed once (22 members), none shares a name with the force sets.
  CHECK(names.size() == 22);
  CHECK(Pac2002Aligning::fields().size() == 22);
  CHECK(sizeof(Pac2002Aligning) == 22 * sizeof(double));
  for (const auto& field : Pac2002Longitudinal::fields()) CHECK(names.count(field.name) == 0);
  for (const auto& field : Pac2002Lateral::fields()) CHECK(names.count(field.name) == 0);
  CHECK(loaded.LS == defaults.LS);  // left out of the file

  // Only what is given changes; names are read in any case; the camber coefficients and the other
  // dimensions are ignored.
  const Pac2002Aligning partial = parse_tir_aligning(
      "[dimension]\n"
      "unloaded_radius = 0.33   $ comment\n"
      "WIDTH = 0.2\n"
      "[ALIGNING_COEFFICIENTS]\r\n"
      "qdz1 = +0.1 ! inline comment\r\n"
      "QBZ4 = 0.2\n"
      "SSZ3 = 1\n"
      "QTZ1 = 'unknown string value'\n"
      "[SCALING_COEFFICIENTS]\n"
      "LTR=0.8$\n"
      "LMUY = 0.7\n",
      "partial");
  for (const auto& field : Pac2002Aligning::fields()) {
    INFO(field.name);
    const std::string name = field.name;
    const double want = name == "UNLOADED_RADIUS" ? 0.33
                        : name == "QDZ1"            ? 0.1
                        : name == "LTR"             ? 0.8
                                                    : defaults.*field.member;
    CHECK(partial.*field.member == want);
  }

  // The PlanarWheel reads all three sets.
  PlanarWheel wheel("wheel");
  wheel.load_tir(path.string());
  CHECK(parameter_of(wheel, "QDZ6") == expected.QDZ6);
  CHECK(parameter_of(wheel, "LTR") == expected.LTR);
  CHECK(parameter_of(wheel, "UNLOADED_RADIUS") == expected.UNLOADED_RADIUS);
  CHECK(parameter_of(wheel, "PKY1") == read_tir_lateral(path.string()).PKY1);
  CHECK(parameter_of(wheel, "FNOMIN") == read_tir_longitudinal(path.string()).FNOMIN);

  // All or nothing: a file whose aligning part is refused changes none of the forces' coefficients.
  const auto file = std::filesystem::temp_directory_path() / "acausal_bad_aligning.tir";
  std::ofstream(file) << "[DIMENSION]\nUNLOADED_RADIUS = -0.3\n[VERTICAL]\nFNOMIN = 5000\n"
                         "[LATERAL_COEFFICIENTS]\nPKY1 = -20\n";
  PlanarWheel untouched("untouched");
  const std::string message = test::model_error_of([&] { untouched.load_tir(file.string()); });
  std::filesystem::remove(file);
  CHECK_THAT(message, Contains("acausal_bad_aligning.tir:2:") && Contains("UNLOADED_RADIUS"));
  CHECK(parameter_of(untouched, "PKY1") == Pac2002Lateral{}.PKY1);
  CHECK(parameter_of(untouched, "FNOMIN") == Pac2002Longitudinal{}.FNOMIN);
}

TEST_CASE("PAC2002: bad aligning .TIR content is a ModelError naming the source and the line",
          "[planar_tire][pac2002]") {
  // (source, text, what the message must hold)
  const std::vector<std::tuple<std::string, std::string, std::vector<std::string>>> cases = {
      {"radius_zero", "[DIMENSION]\nUNLOADED_RADIUS = 0\n", {":2:", "UNLOADED_RADIUS = 0", "must be positive"}},
      {"scaling_in_aligning", "[ALIGNING_COEFFICIENTS]\nQBZ1 = 10\nLTR = 1\n",
       {":3:", "LTR belongs in [SCALING_COEFFICIENTS], not in [ALIGNING_COEFFICIENTS]"}},
      {"aligning_in_scaling", "[SCALING_COEFFICIENTS]\nQDZ1 = 0.1\n",
       {":2:", "QDZ1 belongs in [ALIGNING_COEFFICIENTS], not in [SCALING_COEFFICIENTS]"}},
      {"radius_in_aligning", "[ALIGNING_COEFFICIENTS]\nUNLOADED_RADIUS = 0.3\n",
       {":2:", "UNLOADED_RADIUS belongs in [DIMENSION], not in [ALIGNING_COEFFICIENTS]"}},
      {"decimal_comma", "[ALIGNING_COEFFICIENTS]\nQCZ1 = 1,3\n", {":2:", "QCZ1", "'1,3' is not a number"}},
      {"duplicate", "[ALIGNING_COEFFICIENTS]\nQCZ1 = 1.3\nqcz1 = 1.2\n", {":3:", "QCZ1", "line 2"}},
      {"not_finite", "[ALIGNING_COEFFICIENTS]\nQDZ1 = inf\n", {":2:", "QDZ1", "finite"}},
      {"lateral_only", "[LATERAL_COEFFICIENTS]\nPKY1 = -15\n",
       {"no PAC2002 aligning moment coefficient in [ALIGNING_COEFFICIENTS], [DIMENSION] or "
        "[SCALING_COEFFICIENTS]: not a .TIR file for the aligning moment"}},
  };
  for (const auto& [source, text, needles] : cases) {
    const std::string message = test::model_error_of([&] { parse_tir_aligning(text, source); });
    INFO(source << ": " << message);
    CHECK_THAT(message, Contains(source));
    for (const auto& needle : needles) CHECK_THAT(message, Contains(needle));
  }
}

}  // namespace test_planar_aligning_moment
