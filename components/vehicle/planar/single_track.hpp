#pragma once

#include <string>
#include <vector>

#include "connectors/signal.hpp"

namespace acausal::vehicle {

/// The SingleTrack's lateral tire law per axle, a structural choice
/// (`{"tire_law", LateralTireLaw::tanh}` in C++, `tire_law="tanh"` in Python;
/// linear by default): the law not chosen is not compiled.
struct LateralTireLaw {
  enum : int { linear, tanh };
  static inline const std::vector<std::string> names = {"linear", "tanh"};
};

/// Dynamic single-track ("bicycle") model: lateral velocity v_y and
/// yaw rate r of a rigid car (mass m, yaw inertia Iz, centre of gravity l_f
/// behind the front axle and l_r ahead of the rear one), by default on linear tires:
///   m·(der(v_y) + v_x·r) = F_f + F_r,   Iz·der(r) = l_f·F_f − l_r·F_r,
///   F_f = C_f·alpha_f, F_r = C_r·alpha_r (F_f, F_r the axles' lateral forces),
///   alpha_f = delta − (v_y + l_f·r)/v_x,  alpha_r = −(v_y − l_r·r)/v_x,
/// small angles throughout (the front force acts along the body's lateral
/// axis, cos(delta) ≈ 1): the textbook linear model, with understeer gradient
/// K_us = (m/L)(l_r/C_f − l_f/C_r) and steady yaw gain r/delta = v_x/(L + K_us·v_x²).
/// tire_law (LateralTireLaw): linear (default), the equations above, unbounded;
/// tanh, F = mu·F_z·tanh(C·alpha/(mu·F_z)) per axle, with F_z the static axle
/// load (m·g·l_r/L front, m·g·l_f/L rear, no load transfer): the same
/// cornering stiffness C at small slip, saturating at mu·F_z, so |F_f| + |F_r|
/// stays below mu·m·g and |a_y| below mu·g at every instant (the lateral
/// acceleration is the tire forces over m).
/// The longitudinal speed v_x is prescribed by the input v (no longitudinal
/// dynamics). It may reach zero and change sign: v_x in the slip angles is
/// |v_x| regularized below v_eps as the Wheel's slip is, by (v_x²/v_eps + v_eps)/2
/// (same value and slope at v_eps), and the steering term is delta·v_x/|v_x|,
/// so the slip angles stay finite at standstill and have the right sign when
/// reversing; for v_x ≥ v_eps the equations are exactly the textbook ones.
/// Near standstill the model is stiff (time constants ~ m·v_eps/C), not
/// kinematic. Outputs at the centre of gravity: x, y, psi (yaw angle), r,
/// beta = atan(v_y/|v_x|) (sideslip), v_x, v_y (body axes), a_y = der(v_y) + v_x·r.
/// The states x, y, psi, v_y, r start at 0 (set_start moves them).
struct SingleTrack : Component {
  RealInput v{*this, "v", {.unit = "m/s"}};
  RealInput delta{*this, "delta", {.unit = "rad"}};
  RealOutput x{*this, "x", {.unit = "m", .start = 0.0, .fixed = true, .state = StateSelect::prefer}};
  RealOutput y{*this, "y", {.unit = "m", .start = 0.0, .fixed = true, .state = StateSelect::prefer}};
  RealOutput psi{*this, "psi", {.unit = "rad", .start = 0.0, .fixed = true, .state = StateSelect::prefer}};
  RealOutput r{*this, "r", {.unit = "rad/s", .start = 0.0, .fixed = true, .state = StateSelect::prefer}};
  RealOutput beta{*this, "beta", {.unit = "rad"}};
  RealOutput v_x{*this, "v_x", {.unit = "m/s"}};
  RealOutput v_y{*this, "v_y", {.unit = "m/s", .start = 0.0, .fixed = true, .state = StateSelect::prefer}};
  RealOutput a_y{*this, "a_y", {.unit = "m/s2"}};
  Parameter m = parameter("m", 1500.0, {.unit = "kg", .min = 0});
  Parameter Iz = parameter("Iz", 2500.0, {.unit = "kg.m2", .min = 0, .description = "yaw inertia"});
  Parameter l_f = parameter("l_f", 1.2, {.unit = "m", .min = 0, .description = "front axle to centre of gravity"});
  Parameter l_r = parameter("l_r", 1.4, {.unit = "m", .min = 0, .description = "rear axle to centre of gravity"});
  Parameter C_f = parameter("C_f", 8.0e4, {.unit = "N/rad", .min = 0, .description = "front axle cornering stiffness"});
  Parameter C_r = parameter("C_r", 9.0e4, {.unit = "N/rad", .min = 0, .description = "rear axle cornering stiffness"});
  Parameter v_eps = parameter("v_eps", 0.1, {.unit = "m/s", .min = 1e-9});
  Parameter tire_law = parameter("tire_law", LateralTireLaw::linear,
                                 {.description = "lateral tire law (linear, tanh)", .choices = LateralTireLaw::names});
  Parameter mu = parameter("mu", 1.0, {.min = 0, .description = "road friction coefficient (tanh law)"});
  Parameter g = parameter("g", 9.81, {.unit = "m/s2", .min = 0, .description = "gravity, for the static axle loads (tanh law)"});
  Variable v_ref = variable("v_ref", {.unit = "m/s", .description = "|v_x| regularized below v_eps"});
  Variable alpha_f = variable("alpha_f", {.unit = "rad"});
  Variable alpha_r = variable("alpha_r", {.unit = "rad"});
  Variable F_f = variable("F_f", {.unit = "N", .description = "front axle lateral force"});
  Variable F_r = variable("F_r", {.unit = "N", .description = "rear axle lateral force"});

  explicit SingleTrack(std::string name) : Component(std::move(name)) {
    // m·der(v_y) and Iz·der(r) with a zero coefficient leave a derivative
    // undetermined (IDA fails on a singular matrix).
    require(m > 0, "the mass m must be positive");
    require(Iz > 0, "the yaw inertia Iz must be positive");
    require(l_f + l_r > 0, "the wheelbase l_f + l_r must be positive");
    const Expr saturating = chosen(tire_law, LateralTireLaw::tanh);
    // The tanh law divides by mu·F_z, F_z ∝ m·g·l_r (front), m·g·l_f (rear).
    require(!saturating || (mu > 0 && g > 0 && l_f > 0 && l_r > 0),
            "the tanh tire law needs mu, g, l_f and l_r positive (it divides by the axle's friction limit)");
    equation(v_x == v);
    // C1 across v_eps and at v_x = 0: no events needed.
    equation(v_ref == no_event(ifelse(abs(v_x) >= v_eps, abs(v_x), 0.5 * (v_x * v_x / v_eps + v_eps))));
    equation(alpha_f == delta * v_x / v_ref - (v_y + l_f * r) / v_ref);
    equation(alpha_r == -(v_y - l_r * r) / v_ref);
    // Static axle loads [N] and their friction limits mu·F_z (tanh law).
    const Expr L = l_f + l_r, limit_f = mu * m * g * l_r / L, limit_r = mu * m * g * l_f / L;
    equation(F_f == ifelse(saturating, limit_f * tanh(C_f * alpha_f / limit_f), C_f * alpha_f));
    equation(F_r == ifelse(saturating, limit_r * tanh(C_r * alpha_r / limit_r), C_r * alpha_r));
    equation(m * (der(v_y) + v_x * r) == F_f + F_r);
    equation(Iz * der(r) == l_f * F_f - l_r * F_r);
    equation(a_y == der(v_y) + v_x * r);
    equation(der(psi) == r);
    equation(der(x) == v_x * cos(psi) - v_y * sin(psi));
    equation(der(y) == v_x * sin(psi) + v_y * cos(psi));
    equation(beta == atan(v_y / v_ref));
  }
};

}  // namespace acausal::vehicle
