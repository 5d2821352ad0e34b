#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "components/vehicle/terrain/gauss_legendre.hpp"
#include "components/vehicle/terrain/partial_soil_contact.hpp"
#include "connectors/rotational.hpp"
#include "connectors/wheel_contact.hpp"

namespace acausal::vehicle {

/// A stretch of ground with its own soil, from s_from [m] along the travel on
/// (SoilPatchWheel).
struct SoilPatch {
  double s_from;
  Soil soil;
};

/// Rigid wheel on soft soil (Wong and Reece, J. Terramechanics 4(1), 1967;
/// Wong, Theory of Ground Vehicles, ch. 2): it couples the driveline
/// (flange_rot) to the body (contact) like the Wheel, with the soil's
/// stresses in place of a tire law. The wheel (radius, width b) sinks z, the
/// unknown that vertical equilibrium determines: the contact spans the angles
/// θ2..θ1 from the vertical, cos θ1 = 1 - z/radius, θ2 = -c3·θ1 behind it.
/// Normal stress: σ = k_eq·(radius·(cos θ - cos θ1))^n in front of
/// θm = (c1 + c2·slip)·θ1 (held within [-c3, 0.95]·θ1), and behind θm the
/// same law with the angle mapped linearly so that σ falls to 0 at θ2.
/// Shear stress (Janosi–Hanamoto): τ = (c + σ·tan φ)·(1 - exp(-j/K)), odd in
/// the shear displacement j(θ) = radius·(ω·r·(θ1 - θ) - v·(sin θ1 - sin θ))/v_roll.
/// Slip: slip = (ω·r - v)/v_roll, with v_roll the larger of |ω·r| and |v|
/// smoothed over v_eps (at least v_eps at standstill): Wong's slip
/// i = 1 - v/(ω·r) when driving, minus his skid 1 - ω·r/v when braking, and
/// j is Wong–Reece's j when driving (a locked wheel slides by the distance it
/// has travelled over each soil element). The integrals over θ are fixed
/// Gauss–Legendre sums (gauss_points per region, a constructor argument) in
/// the equations, so the wheel has symbolic derivatives:
///   W  = radius·b·∫(σ cos θ + d·τ sin θ)dθ  (vertical equilibrium, sets z)
///   H  = radius·b·∫τ cos θ dθ (thrust),  R = radius·b·∫σ sin θ dθ (compaction)
///   DP = H - d·R (drawbar pull, on the body),  T_soil = radius²·b·∫τ dθ
/// where d = tanh(v/v_eps) mirrors the contact when the wheel travels backward
/// (at standstill the rut is symmetric: no compaction force). The soil
/// dissipates P_soil = T_soil·ω - DP·v (≥ 0 when driving). Valid while the
/// wheel sinks well less than its radius (θ1 below about 60°); it needs a
/// load (W > 0): it cannot lift off. guess_sinkage(W) sets the start value
/// of θ1 from Bekker's closed form, for the initial Newton iteration.
struct SoftSoilWheel : PartialSoilContact {
  rotational::Flange flange_rot{*this, "flange_rot"};
  WheelContact contact{*this, "contact"};
  Parameter radius = parameter("radius", 0.5, {.unit = "m", .min = 1e-6});
  Parameter J = parameter("J", 1.0, {.unit = "kg.m2", .min = 1e-9});
  Parameter c1 = parameter("c1", Soil{}.c1, {.min = -1, .max = 1, .description = "θm/θ1 at zero slip (Wong-Reece)"});
  Parameter c2 = parameter("c2", Soil{}.c2, {.min = -1, .max = 1, .description = "slope of θm/θ1 with slip (Wong-Reece)"});
  Parameter c3 = parameter("c3", 0.0, {.min = 0, .max = 1, .description = "rear contact angle θ2 = -c3·θ1"});
  Parameter v_eps = parameter("v_eps", 0.01, {.unit = "m/s", .min = 1e-9, .description = "speed below which the slip is regularized"});

  Variable phi = variable("phi", {.unit = "rad"});
  Variable omega = variable("omega", {.unit = "rad/s", .state = StateSelect::prefer});
  Variable v = variable("v", {.unit = "m/s"});
  Variable W = variable("W", {.unit = "N", .description = "vertical load"});
  Variable z = variable("z", {.unit = "m", .start = 0.03, .description = "sinkage"});
  Variable theta_1 = variable("theta_1", {.unit = "rad", .start = 0.35, .description = "entry angle"});
  Variable theta_m = variable("theta_m", {.unit = "rad", .description = "angle of the maximum normal stress"});
  Variable theta_2 = variable("theta_2", {.unit = "rad", .description = "exit angle"});
  Variable v_roll = variable("v_roll", {.unit = "m/s", .description = "the speed the slip is relative to"});
  Variable slip = variable("slip", {.description = "(ω·r - v)/v_roll"});
  Variable sigma_max = variable("sigma_max", {.unit = "Pa", .description = "normal stress at θm"});
  Variable l_contact = variable("l_contact", {.unit = "m", .description = "horizontal length of the contact"});
  Variable H = variable("H", {.unit = "N", .description = "thrust of the shear stress"});
  Variable R = variable("R", {.unit = "N", .description = "compaction resistance"});
  Variable DP = variable("DP", {.unit = "N", .description = "drawbar pull"});
  Variable T_soil = variable("T_soil", {.unit = "N.m", .description = "torque of the soil against rotation"});
  Variable P_soil = variable("P_soil", {.unit = "W", .description = "power dissipated in the soil"});

  explicit SoftSoilWheel(std::string name, int points = 16) : SoftSoilWheel(std::move(name), points, {}, 0.0) {}

 protected:
  /// The wheel on the soil of its parameters up to the first patch, then on
  /// each patch's soil (SoilPatchWheel; no patches: the parameters' soil throughout).
  SoftSoilWheel(std::string name, int points, const std::vector<SoilPatch>& patches, double blend_length)
      : PartialSoilContact(std::move(name)), gauss_points_(points) {
    const GaussLegendre rule = gauss_legendre(points);  // throws for a count out of range
    const SoilAlongTravel soil = soil_along_travel(patches, blend_length);
    const Expr& n = soil.n;
    const Expr &c = soil.c, &K = soil.K, &c1 = soil.c1, &c2 = soil.c2;
    stored_energy(0.5 * J * omega * omega);
    dissipated_power(P_soil);
    const Expr rim_speed = omega * radius;
    equation(phi == flange_rot.phi);
    equation(omega == der(phi));
    equation(v == der(contact.s_traction));
    equation(W == -contact.f_normal);
    equation(contact.s_normal == -z);
    equation(z == radius * (1.0 - cos(theta_1)));
    equation(v_roll == slip_reference_speed(rim_speed, v, v_eps));
    equation(slip == (rim_speed - v) / v_roll);
    equation(theta_2 == -c3 * theta_1);
    equation(theta_m == no_event(max(min(c1 + c2 * slip, 0.95), -c3)) * theta_1);
    equation(l_contact == radius * (sin(theta_1) - sin(theta_2)));

    const Expr& k_eq = soil.k_eq;
    const Expr spread = theta_1 - theta_m;  // Δ: the front region's width in θ
    // The normal stress at the angle θ1 - w·Δ (0 < w ≤ 1): in front of θm at
    // θ = θ1 - w·Δ itself; behind it, Wong–Reece's mapped angle. The depth
    // r(cos θ - cos θ1) is written 2r·sin((θ1 + θ)/2)·sin((θ1 - θ)/2), exact near θ1.
    const auto normal_stress = [&](double w) {
      return k_eq * pow(2.0 * radius * sin(theta_1 - 0.5 * w * spread) * sin(0.5 * w * spread), n);
    };
    const Expr direction = tanh(v / v_eps);  // d: +1 forward, -1 backward, 0 at standstill
    const Expr& tan_phi = soil.tan_phi;
    const auto shear_stress = [&](const Expr& sigma, const Expr& theta) {
      const Expr j = radius * (rim_speed * (theta_1 - theta) - v * (sin(theta_1) - sin(theta))) / v_roll;
      return (c + sigma * tan_phi) * janosi_mobilisation(j / K);
    };
    // The two regions, each by the rule mapped to u ∈ [0, 1] (weights halved).
    // The stresses at the rule's nodes, shared: the front node u sits at
    // w = 1 - u, the rear node u at w = u, and the nodes are symmetric.
    const std::size_t count = rule.nodes.size();
    std::vector<Expr> sigma(count);
    for (std::size_t k = 0; k < count; ++k) sigma[k] = normal_stress(0.5 * (1.0 + rule.nodes[k]));
    Expr vertical = 0.0, thrust = 0.0, compaction = 0.0, torque = 0.0;
    for (const bool front : {true, false}) {
      const Expr from = front ? Expr(theta_m) : Expr(theta_2), width = front ? spread : theta_m - theta_2;
      Expr fz = 0.0, fx_tau = 0.0, fx_sigma = 0.0, t = 0.0;
      for (std::size_t k = 0; k < count; ++k) {
        const double u = 0.5 * (1.0 + rule.nodes[k]), weight = 0.5 * rule.weights[k];
        const Expr theta = from + u * width;
        const Expr& s = front ? sigma[count - 1 - k] : sigma[k];
        const Expr tau = shear_stress(s, theta);
        fz = fz + weight * (s * cos(theta) + direction * tau * sin(theta));
        fx_tau = fx_tau + weight * tau * cos(theta);
        fx_sigma = fx_sigma + weight * s * sin(theta);
        t = t + weight * tau;
      }
      vertical = vertical + width * fz;
      thrust = thrust + width * fx_tau;
      compaction = compaction + width * fx_sigma;
      torque = torque + width * t;
    }
    equation(sigma_max == k_eq * pow(2.0 * radius * sin(0.5 * (theta_1 + theta_m)) * sin(0.5 * spread), n));
    // Vertical equilibrium: the soil carries the load. It fixes the sinkage.
    equation(W == radius * b * vertical);
    equation(H == radius * b * thrust);
    equation(R == radius * b * compaction);
    equation(DP == H - direction * R);
    equation(T_soil == radius * radius * b * torque);
    equation(contact.f_traction == -DP);
    equation(J * der(omega) == flange_rot.tau - T_soil);
    equation(P_soil == T_soil * omega - DP * v);
  }


 public:
  int gauss_points() const { return gauss_points_; }

  /// The start value of theta_1 (not fixed: a guess for the initial Newton
  /// iteration) from Bekker's closed-form sinkage of a rigid wheel under the
  /// load W [N], z0 = (3W / ((3 - n)·k_eq·b·√(2·radius)))^(2/(2n+1)), held
  /// below half the radius. Call after setting the parameters.
  void guess_sinkage(double load) {
    const double r = value_of("radius"), width = value_of("b"), exponent = value_of("n");
    const double k = sinkage_modulus_value() * width;
    double z0 = std::pow(3.0 * std::max(load, 0.0) / ((3.0 - std::min(exponent, 2.9)) * k * std::sqrt(2.0 * r)),
                         2.0 / (2.0 * exponent + 1.0));
    if (!std::isfinite(z0)) z0 = 0.05 * r;
    z0 = std::clamp(z0, 1e-6 * r, 0.5 * r);
    set_start("theta_1", std::acos(1.0 - z0 / r), false);
  }

 private:
  /// The soil's properties as expressions of the position: the parameters,
  /// changed at each patch's s_from by the C² step 10x³ - 15x⁴ + 6x⁵ over
  /// x ∈ [0, 1] across blend_length (centred on s_from): a patch's own values
  /// hold exactly from s_from + blend/2 to the next s_from - blend/2, and the
  /// residual stays smooth (a sharp switch would be a discontinuity the
  /// integrator steps into blind; no event is needed).
  struct SoilAlongTravel {
    Expr n, k_eq, c, tan_phi, K, c1, c2;
  };
  SoilAlongTravel soil_along_travel(const std::vector<SoilPatch>& patches, double blend) {
    SoilAlongTravel soil{n, sinkage_modulus(), c, tan(phi_soil), K, c1, c2};
    if (patches.empty()) return soil;
    if (!(blend > 0.0) || !std::isfinite(blend))
      throw ModelError(fmt::format("{}: the soil patches' blend_length must be positive (it is {})", name(), blend));
    // Each patch's soil as parameters (patch1_n, patch1_k_c, ...), with the
    // units of the wheel's own: changeable without recompiling.
    const Expr blend_length = parameter("blend_length", blend, {.unit = "m", .min = 1e-9});
    const Expr s = contact.s_traction;
    Expr previous_k_eq = soil.k_eq, previous_n = n, previous_c = c, previous_tan_phi = tan(phi_soil),
         previous_K = K, previous_c1 = c1, previous_c2 = c2;
    for (std::size_t k = 0; k < patches.size(); ++k) {
      const SoilPatch& patch = patches[k];
      if (k > 0 && !(patch.s_from - patches[k - 1].s_from >= blend))
        throw ModelError(fmt::format(
            "{}: soil patch {} ('{}') starts at s = {} m, less than blend_length = {} m after patch {} ('{}', s = {} m): "
            "list the patches in order of s_from, at least blend_length apart",
            name(), k + 1, patch.soil.name, patch.s_from, blend, k, patches[k - 1].soil.name, patches[k - 1].s_from));
      const std::string p = fmt::format("patch{}_", k + 1);
      const Expr s_from = parameter(p + "s_from", patch.s_from, {.unit = "m", .description = "where the patch starts"});
      const Expr n_k = parameter(p + "n", patch.soil.n, {.min = 1e-3, .max = 5});
      const Expr k_c_k = parameter(p + "k_c", patch.soil.k_c, {.min = 0});
      const Expr k_phi_k = parameter(p + "k_phi", patch.soil.k_phi, {.min = 0});
      const Expr c_k = parameter(p + "c", patch.soil.c, {.unit = "Pa", .min = 0});
      const Expr phi_k = parameter(p + "phi_soil", patch.soil.phi, {.unit = "rad", .min = 0, .max = 1.55});
      const Expr K_k = parameter(p + "K", patch.soil.K, {.unit = "m", .min = 1e-9});
      const Expr c1_k = parameter(p + "c1", patch.soil.c1, {.min = -1, .max = 1});
      const Expr c2_k = parameter(p + "c2", patch.soil.c2, {.min = -1, .max = 1});
      const Expr x = no_event(max(min((s - s_from) / blend_length + 0.5, 1.0), 0.0));
      const Expr step = x * x * x * (10.0 + x * (-15.0 + 6.0 * x));
      const Expr k_eq_k = k_c_k / b + k_phi_k, tan_phi_k = tan(phi_k);
      soil.n = soil.n + (n_k - previous_n) * step;
      soil.k_eq = soil.k_eq + (k_eq_k - previous_k_eq) * step;
      soil.c = soil.c + (c_k - previous_c) * step;
      soil.tan_phi = soil.tan_phi + (tan_phi_k - previous_tan_phi) * step;
      soil.K = soil.K + (K_k - previous_K) * step;
      soil.c1 = soil.c1 + (c1_k - previous_c1) * step;
      soil.c2 = soil.c2 + (c2_k - previous_c2) * step;
      previous_n = n_k, previous_k_eq = k_eq_k, previous_c = c_k, previous_tan_phi = tan_phi_k;
      previous_K = K_k, previous_c1 = c1_k, previous_c2 = c2_k;
    }
    return soil;
  }
  int gauss_points_;
};

/// A SoftSoilWheel on ground whose soil changes along the travel (a firm
/// road, then sandy loam, then dry sand): the wheel's own soil parameters
/// (set_soil, Soil::parameters) hold before the first patch; patch k's soil
/// holds from its s_from [m] (the wheel contact's travelled distance,
/// contact.s_traction) on. The change is a smooth step over blend_length
/// [m] centred on s_from (C², compact: the soils are exact outside the
/// blends), so the equations stay smooth without events; within a blend the
/// wheel meets a soil whose n, k_eq, c, tan φ, K, c1, c2 lie between the two.
/// The patches use Bekker's pressure law k_c/b + k_φ (pressure_law is the
/// first soil's only). The patches' soils and positions become parameters
/// (patch1_s_from, patch1_n, patch1_k_c, patch1_k_phi, patch1_c,
/// patch1_phi_soil, patch1_K, patch1_c1, patch1_c2, patch2_..., and
/// blend_length), changeable on a compiled model; their number is fixed at
/// construction. In order of s_from, at least blend_length apart; a
/// ModelError naming the wheel and the patch otherwise.
struct SoilPatchWheel : SoftSoilWheel {
  SoilPatchWheel(std::string name, std::vector<SoilPatch> patches, double blend_length = 0.5, int points = 16)
      : SoftSoilWheel(name, points, check_patches(name, patches), blend_length),
        patches_(std::move(patches)), blend_length_(blend_length) {}

  const std::vector<SoilPatch>& patches() const { return patches_; }
  double blend_length() const { return blend_length_; }

 private:
  static const std::vector<SoilPatch>& check_patches(const std::string& name, const std::vector<SoilPatch>& patches) {
    if (patches.empty())
      throw ModelError(fmt::format("{}: a SoilPatchWheel needs at least one soil patch (else use SoftSoilWheel)", name));
    return patches;
  }
  std::vector<SoilPatch> patches_;
  double blend_length_;
};

}  // namespace acausal::vehicle
