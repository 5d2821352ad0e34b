#pragma once

#include "components/blocks/interpolation.hpp"
#include "connectors/rotational.hpp"
#include "connectors/wheel_contact.hpp"

namespace acausal::vehicle {

/// The Wheel's tire law, a structural choice (`{"tire_law", TireLaw::pacejka}`
/// in C++, `tire_law="pacejka"` in Python): the laws not chosen, their
/// variables and their events are not compiled.
struct TireLaw {
  enum : int { tanh, linear, pacejka };
  static inline const std::vector<std::string> names = {"tanh", "linear", "pacejka"};
};

/// Wheel with rotational inertia and a slip-based tire law, coupling the
/// driveline (flange_rot) to the body (contact). The traction force rises with
/// the slip S_a = (ω·r - v)/|ω·r| (regularized by v_eps near standstill) and
/// saturates at F_max = μ·N: wheel spin emerges when τ/r exceeds it.
/// tire_law: tanh, the saturation μN·tanh(slip_stiffness·S_a/μ); linear, the
/// saturated-linear law of seed 000, N·clamp(S_a/slip_compliance, ±μ);
/// pacejka, the magic formula μN·D·sin(C·atan(B·S_a - E·(B·S_a - atan(B·S_a)))).
/// The load N = c_z·δ comes from the tire deflection δ = -contact.s_normal;
/// with lift_off (for bodies with a suspension) it is c_z·max(δ, 0).
/// μ may change along the road: between patch_start and patch_end (blended
/// over patch_blend) it is mu_patch (an ice patch, one side of a split-μ road).
/// set_friction_table() replaces both by a table μ(position).
/// Rolling resistance is a torque Crr·N·r·tanh(ω·r/v_eps) against rotation.
struct Wheel : Component {
  rotational::Flange flange_rot{*this, "flange_rot"};
  WheelContact contact{*this, "contact"};
  Parameter radius = parameter("radius", 0.3, {.unit = "m", .min = 1e-6});
  Parameter J = parameter("J", 1.0, {.unit = "kg.m2", .min = 1e-9});
  Parameter mu = parameter("mu", 0.8, {.min = 0});
  Parameter c_z = parameter("c_z", 2.5e5, {.unit = "N/m", .min = 1e-6});
  Parameter Crr = parameter("Crr", 0.0, {.min = 0});
  Parameter tire_law = parameter("tire_law", TireLaw::tanh,
                                 {.description = "tire law (tanh, linear, pacejka)", .choices = TireLaw::names});
  Parameter slip_stiffness = parameter("slip_stiffness", 100.0, {.min = 1e-6});
  Parameter slip_compliance = parameter("slip_compliance", 0.01, {.min = 1e-9});
  Parameter B = parameter("B", 10.0, {.min = 0});
  Parameter C = parameter("C", 1.9, {.min = 0});
  Parameter D = parameter("D", 1.0, {.min = 0});
  Parameter E = parameter("E", 0.97, {.max = 1});  // E > 1 reverses the force at large slip
  Parameter v_eps = parameter("v_eps", 0.1, {.unit = "m/s", .min = 1e-9});
  Parameter mu_patch = parameter("mu_patch", 0.1, {.min = 0});
  Parameter patch_start = parameter("patch_start", 0.0, {.unit = "m"});
  Parameter patch_end = parameter("patch_end", 0.0, {.unit = "m"});
  Parameter patch_blend = parameter("patch_blend", 0.05, {.unit = "m", .min = 1e-9});
  Parameter lift_off = parameter("lift_off", 0.0,
                                 {.description = "the tire can leave the road (yes: N = c_z·max(deflection, 0))",
                                  .choices = {"no", "yes"}});

  Variable phi = variable("phi", {.unit = "rad"});
  Variable omega = variable("omega", {.unit = "rad/s", .state = StateSelect::prefer});
  Variable v = variable("v", {.unit = "m/s"});
  Variable N = variable("N", {.unit = "N"});
  Variable deflection = variable("deflection", {.unit = "m"});
  Variable mu_road = variable("mu_road");
  Variable F_max = variable("F_max", {.unit = "N"});
  Variable F_traction = variable("F_traction", {.unit = "N"});
  Variable v_slip = variable("v_slip", {.unit = "m/s"});
  Variable S_a = variable("S_a");
  Variable s_a = variable("s_a");
  Variable s_b = variable("s_b");
  Variable tau_roll = variable("tau_roll", {.unit = "N.m"});
  Variable P_rot = variable("P_rot", {.unit = "W"});
  Variable P_trans = variable("P_trans", {.unit = "W"});
  Variable P_slip = variable("P_slip", {.unit = "W"});

  explicit Wheel(std::string name) : Component(std::move(name)) {
    stored_energy(0.5 * J * omega * omega + 0.5 * c_z * deflection * deflection);
    dissipated_power(P_slip + tau_roll * omega);
    // An inverted patch would blend mu beyond mu_patch, the wrong way.
    require(patch_end >= patch_start, "patch_end must be at least patch_start");
    const Expr rim_speed = omega * radius;
    const Expr x = contact.s_traction;
    equation(phi == flange_rot.phi);
    equation(omega == der(phi));
    equation(v == der(contact.s_traction));
    equation(N == -contact.f_normal);
    // A body that sets the axle load (quasi-static) needs N = c_z·deflection
    // to fix the deflection; one whose suspension sets the axle's height can
    // let the tire leave the road (an event; no load, so no traction, while airborne).
    equation(N == c_z * ifelse(chosen(lift_off, 1), max(deflection, 0.0), deflection));
    equation(contact.s_normal == -deflection);
    friction_law_ = equation(mu_road == mu + (mu_patch - mu) * 0.5 * (tanh((x - patch_start) / patch_blend) -
                                                                      tanh((x - patch_end) / patch_blend)));
    equation(F_max == mu_road * N);
    equation(v_slip == rim_speed - v);
    equation(S_a == v_slip / sqrt(rim_speed * rim_speed + v_eps * v_eps));
    equation(s_a == v_slip * rim_speed / (rim_speed * rim_speed + v_eps * v_eps));
    equation(s_b == v_slip * v / (v * v + v_eps * v_eps));
    const Expr tanh_law = F_max * tanh(slip_stiffness * S_a / (mu_road + 1e-12));
    const Expr linear_law = N * max(min(S_a / slip_compliance, mu_road), -mu_road);
    const Expr BS = B * S_a;
    const Expr pacejka = F_max * D * sin(C * atan(BS - E * (BS - atan(BS))));
    equation(F_traction == ifelse(chosen(tire_law, TireLaw::tanh), tanh_law,
                                  ifelse(chosen(tire_law, TireLaw::linear), linear_law, pacejka)));
    equation(contact.f_traction == -F_traction);
    equation(tau_roll == Crr * N * radius * tanh(rim_speed / v_eps));
    equation(J * der(omega) == flange_rot.tau - radius * F_traction - tau_roll);
    equation(P_rot == flange_rot.tau * omega);
    equation(P_trans == F_traction * v);
    equation(P_slip == F_traction * v_slip);
  }

  /// Road friction as a table of (position of the contact [m], μ) points,
  /// interpolated linearly and held beyond its ends, in place of mu and the
  /// patch (seed 004's terrain). Call before compiling.
  void set_friction_table(const std::vector<std::pair<double, double>>& points) {
    for (const auto& [x, value] : points)
      if (!(value >= 0.0)) throw ModelError(path() + ": friction table value " + std::to_string(value) + " at x = " +
                                            std::to_string(x) + " must be >= 0");
    replace_equation(friction_law_, mu_road == blocks::piecewise_linear(contact.s_traction, points,
                                                                        path() + " friction table", "positions"));
  }

 private:
  std::size_t friction_law_ = 0;
};

}  // namespace acausal::vehicle
