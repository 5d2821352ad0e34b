// SoftSoilWheel (issue 38): every check compares the wheel with the
// specification's soil (the shipped table's values, not the wheel's own
// parameters), so a wheel that computes with another soil than it is given
// fails. Rigs: Bekker's regime (no shear, small sinkage), a slip sweep on
// sandy loam, and a wheel pulling a mass (energy books).
#include <cmath>

#include "components/blocks/sources/constant.hpp"
#include "components/blocks/sources/ramp.hpp"
#include "components/rotational/constant_torque.hpp"
#include "components/rotational/speed.hpp"
#include "components/translational/mass.hpp"
#include "components/translational/speed.hpp"
#include "components/vehicle/terrain/gauss_legendre.hpp"
#include "harness/rigs.hpp"
#include "harness/soil_checklist.hpp"

namespace acausal::harness {

namespace {

using vehicle::SoftSoilWheel;
using vehicle::Soil;

/// Stands in for the body over the wheel: presses the contact down with the
/// constant load W (quasi-static, as VehicleBody's axle loads: the normal pair
/// is out of the books on both sides) and hands the traction axis on.
/// The specification's soil's own view of the wheel as named variables (the
/// checks' plots label their series by name). Its parameters are the
/// specification's soil and rig (with units, so the view's equations are
/// checked like any component's); from the wheel it reads only its contact
/// angles and speeds:
///   W_soil: the vertical force of Wong–Reece's stresses of that soil over
///     the wheel's contact, the wheel's law written out again and integrated
///     by 48 Gauss–Legendre points per region after θ = a + (b - a)·u²(3 - 2u)
///     (smooth at the singular ends), a finer rule than the wheel's 16. It
///     equals W when the wheel's sinkage is the one this soil gives.
///   F_coulomb: the Coulomb limit A·c + W·tan φ over the wheel's horizontal contact length.
/// No connectors: it observes, it does not act.
struct SoilView : Component {
  Parameter radius = parameter("radius", 0.5, {.unit = "m"});
  Parameter width = parameter("width", 0.3, {.unit = "m"});
  Parameter v_eps = parameter("v_eps", 0.01, {.unit = "m/s"});
  Parameter load = parameter("load", 1000.0, {.unit = "N"});
  Parameter n = parameter("n", 1.0);
  Parameter k_eq = parameter("k_eq", 1e6, {.description = "k_c/b + k_phi [N/m^(n+2)]"});
  Parameter c = parameter("c", 0.0, {.unit = "Pa"});
  Parameter phi = parameter("phi", 0.0, {.unit = "rad"});
  Parameter K = parameter("K", 0.025, {.unit = "m"});
  Variable W_soil = variable("W_soil", {.unit = "N"});
  Variable F_coulomb = variable("F_coulomb", {.unit = "N"});

  SoilView(std::string name, const SoftSoilWheel& w) : Component(std::move(name)) {
    static const vehicle::GaussLegendre rule = vehicle::gauss_legendre(48);
    const Expr rim = w.omega * radius, d = tanh(w.v / v_eps);
    const Expr v_roll = vehicle::slip_reference_speed(rim, w.v, v_eps);
    const Expr t1 = w.theta_1, tm = w.theta_m, t2 = w.theta_2;
    const auto sigma = [&](const Expr& angle) { return k_eq * pow(max(radius * (cos(angle) - cos(t1)), 0.0), n); };
    Expr sum = 0.0;
    for (const bool front : {true, false}) {
      const Expr a = front ? tm : t2, b = front ? t1 : tm;
      for (std::size_t k = 0; k < rule.nodes.size(); ++k) {
        const double u = 0.5 * (1.0 + rule.nodes[k]), g = u * u * (3.0 - 2.0 * u);
        const Expr theta = a + (b - a) * g;
        const Expr weight = 0.5 * rule.weights[k] * 6.0 * u * (1.0 - u) * (b - a);
        // Behind θm the stress at the angle mapped linearly onto the front region (the same fraction g).
        const Expr normal = front ? sigma(theta) : sigma(t1 - g * (t1 - tm));
        const Expr j = radius * (rim * (t1 - theta) - w.v * (sin(t1) - sin(theta))) / v_roll;
        const Expr tau = (c + normal * tan(phi)) * vehicle::janosi_mobilisation(j / K);
        sum = sum + weight * (normal * cos(theta) + d * tau * sin(theta));
      }
    }
    equation(W_soil == radius * width * sum);
    equation(F_coulomb == width * radius * (sin(t1) - sin(t2)) * c + load * tan(phi));
  }
};

/// The view of the soil `s` on the wheel of a rig (radius, width, v_eps) under `load`.
SoilView& soil_view(Model& m, const SoftSoilWheel& wheel, const Soil& s, double radius, double width, double v_eps,
                    double load) {
  return m.add<SoilView>("soil",
                         {{"radius", radius}, {"width", width}, {"v_eps", v_eps}, {"load", load}, {"n", s.n},
                          {"k_eq", s.modulus(width)}, {"c", s.c}, {"phi", s.phi}, {"K", s.K}},
                         wheel);
}

}  // namespace

Checklist soil_wheel_checklist(const Builder<SoftSoilWheel>& make) {
  Checklist list("soil_wheel", "SoftSoilWheel: a rigid wheel on soft soil (issue 38)");
  const double radius = 0.5, width = 0.3, v = 1.0, v_eps = 0.01;

  {
    // Bekker's regime: no shear (c = φ = 0), no shift of the peak stress
    // (c1 = c2 = 0), n close to 1 (Bekker's (3 - n)/3 is exact at n = 1) and
    // a sinkage below 3 % of the diameter (the rim a parabola):
    //   z0 = [3W / ((3 - n)(k_c + b·k_φ)√D)]^(2/(2n+1)),  R_c = b·(k_c/b + k_φ)·z0^(n+1)/(n+1).
    Soil s = vehicle::soil("grenville_loam");
    s.c = 0, s.phi = 0, s.c1 = 0, s.c2 = 0;
    const double W = 2000.0, D = 2 * radius, n = s.n;
    const double z0 = std::pow(3 * W / ((3 - n) * (s.k_c + width * s.k_phi) * std::sqrt(D)), 2 / (2 * n + 1));
    const double R_c = width * s.modulus(width) * std::pow(z0, n + 1) / (n + 1);
    Rig& rig = list.rig("bekker", "grenville loam without shear (c = φ = 0, c1 = c2 = 0), a 1 m wheel 0.3 m wide "
                                  "under 2 kN rolling freely at 1 m/s: Bekker's closed forms",
                        run_options(0.5, 0.05));
    auto& wheel = make(rig.model(), "wheel", vehicle::with_soil(s, {{"radius", radius}, {"b", width}}, true));
    wheel.guess_sinkage(W);
    soil_contact_bench(rig.model(), wheel.flange_rot, wheel.contact, W, v, v / radius, v / radius, 1.0);
    rig.expect_connectors(wheel, {{"flange_rot", "rotational.Flange"}, {"contact", "vehicle.WheelContact"}});
    auto& view = soil_view(rig.model(), wheel, s, radius, width, v_eps, W);
    rig.check(relation(view.W_soil, W, 1e-3)
                  .titled("vertical equilibrium: the soil's stresses carry W within 0.1 % at every row"));
    rig.check(relation(wheel.z, z0, 1e-2).titled("sinkage = Bekker's z0 within 1 %"));
    rig.check(relation(wheel.R, R_c, 1e-2).titled("compaction resistance = Bekker's R_c within 1 %"));
    rig.check(relation(wheel.DP, -wheel.R, 1e-9, 1e-6).titled("without shear the pull is minus the resistance"));
  }

  {
    const Soil s = vehicle::soil("sandy_loam");
    const double W = 3000.0, sweep = 8.0;
    Rig& rig = list.rig("slip_sweep", "sandy loam, a 1 m wheel 0.3 m wide under 3 kN, the hull at 1 m/s, the axle "
                                      "speeding up so that the slip sweeps 0..0.8 over 8 s",
                        run_options(sweep, 0.02));
    auto& wheel = make(rig.model(), "wheel",
                       vehicle::with_soil(s, {{"radius", radius}, {"b", width}, {"v_eps", v_eps}, {"J", 2.0}}, true));
    wheel.guess_sinkage(W);
    soil_contact_bench(rig.model(), wheel.flange_rot, wheel.contact, W, v, v / radius, v / (radius * 0.2), sweep);
    auto& view = soil_view(rig.model(), wheel, s, radius, width, v_eps, W);
    rig.check(relation(view.W_soil, W, 1e-3)
                  .titled("vertical equilibrium: the soil's stresses carry W within 0.1 % at every row"));
    rig.check(monotonic(wheel.DP, 1, 0.0, sweep, 1e-6 * W).titled("the pull rises with slip"));
    // The contact's horizontal length from the wheel's angles, the strength from the specification's soil.
    rig.check(bound(wheel.DP, -W, view.F_coulomb, 1e-9)
                  .titled("the pull stays below the Coulomb limit A·c + W·tan φ"));
    rig.check(sign(wheel.DP, -1, 0.0).when(wheel.slip < 1e-3)
                  .titled("at zero slip the wheel is pushed through its rut (pull < 0)"));
    rig.check(sign(wheel.P_soil, 1, 1e-9 * W).titled("the soil only takes energy (P_soil >= 0)"));
  }

  {
    const Soil s = vehicle::soil("sandy_loam");
    const double W = 3000.0, v0 = 1.0;
    Rig& rig = list.rig("pulling", "sandy loam, 450 N·m on the axle of a 1 m wheel under 3 kN pulling 400 kg from "
                                   "1 m/s at 20 % slip",
                        run_options(3.0, 0.01));
    Model& m = rig.model();
    auto& wheel = make(m, "wheel", vehicle::with_soil(s, {{"radius", radius}, {"b", width}, {"J", 2.0}}, true));
    wheel.guess_sinkage(W);
    soil_wheel_pulling_mass(m, wheel, W, 450.0, 400.0, v0, v0 / (radius * 0.8));
    auto& view = soil_view(m, wheel, s, radius, width, 0.01, W);
    rig.check(relation(view.W_soil, W, 1e-3)
                  .titled("vertical equilibrium: the soil's stresses carry W within 0.1 % at every row"));
    rig.check(sign(wheel.P_soil, 1, 1e-9 * W).titled("the soil only takes energy (P_soil >= 0)"));
    rig.energy_balance(1e-5);
  }
  return list;
}

}  // namespace acausal::harness
