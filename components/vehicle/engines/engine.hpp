#pragma once

#include <numbers>

#include "connectors/rotational.hpp"
#include "connectors/signal.hpp"

namespace acausal::vehicle {

/// Combustion engine with crankshaft inertia J driving `flange`:
/// J·der(w) = throttle_input·tau_curve - tau_friction·tanh(w/w_eps) - d_friction·w + flange.tau.
/// torque_model (a structural choice, only the chosen curve is compiled):
/// polynomial (0), seed 003's curve torque_c·rpm² + torque_b·rpm + torque_a,
/// evaluated at engineMinRPM below it and faded to 0 above engineMaxRPM (over
/// rpm_blend); parabola (1), a parabola through tau_peak at omega_peak that
/// falls to 0 at omega_max. P_out = -flange.tau·w is the power delivered.
///
/// Stall: the engine runs (`running` = 1) until its speed falls below
/// w_stall (250 rpm), an event whose cause reads `w < w_stall`; stalled
/// (`running` = 0) it makes no torque whatever the throttle, and its
/// friction stops it. It fires again when cranked (a Starter on the same
/// flange) or pushed (through an engaged clutch) above w_fire (300 rpm). It
/// starts running at any initial speed: a model that starts it at rest
/// treats it as cranked. w_stall = 0 gives an engine that never stalls.
struct Engine : Component {
  rotational::Flange flange{*this, "flange"};
  RealInput throttle_input{*this, "throttle_input"};
  Parameter J = parameter("J", 0.2, {.unit = "kg.m2", .min = 1e-9});
  Parameter torque_model = parameter("torque_model", 0, {.description = "torque curve (polynomial, parabola)",
                                                         .choices = {"polynomial", "parabola"}});
  Parameter torque_a = parameter("torque_a", 100.0, {.unit = "N.m"});
  Parameter torque_b = parameter("torque_b", 0.075, {.unit = "N.m/rpm"});
  Parameter torque_c = parameter("torque_c", -9.375e-6, {.unit = "N.m/rpm2"});
  Parameter engineMinRPM = parameter("engineMinRPM", 1000.0, {.unit = "rpm", .min = 0});
  Parameter engineMaxRPM = parameter("engineMaxRPM", 6500.0, {.unit = "rpm", .min = 0});
  Parameter rpm_blend = parameter("rpm_blend", 100.0, {.unit = "rpm", .min = 1e-9});
  Parameter tau_peak = parameter("tau_peak", 250.0, {.unit = "N.m", .min = 0});
  Parameter omega_peak = parameter("omega_peak", 420.0, {.unit = "rad/s", .min = 0});
  Parameter omega_max = parameter("omega_max", 680.0, {.unit = "rad/s", .min = 0});
  Parameter tau_friction = parameter("tau_friction", 10.0, {.unit = "N.m", .min = 0});
  Parameter d_friction = parameter("d_friction", 0.02, {.unit = "N.m.s/rad", .min = 0});
  Parameter w_eps = parameter("w_eps", 1.0, {.unit = "rad/s", .min = 1e-9});
  Parameter w_stall = parameter("w_stall", 250.0 * std::numbers::pi / 30.0,
                                {.unit = "rad/s", .min = 0, .description = "running, it stalls below this (250 rpm)"});
  Parameter w_fire = parameter("w_fire", 300.0 * std::numbers::pi / 30.0,
                               {.unit = "rad/s", .min = 0, .description = "stalled, it fires above this (300 rpm)"});
  Discrete running = discrete("running", {.start = 1.0, .kind = DiscreteKind::boolean,
                                          .description = "1 while it runs, 0 stalled"});
  Variable phi = variable("phi", {.unit = "rad"});
  Variable w = variable("w", {.unit = "rad/s", .state = StateSelect::prefer});
  Variable rpm = variable("rpm", {.unit = "rpm"});
  Variable tau_curve = variable("tau_curve", {.unit = "N.m"});
  Variable tau_drive = variable("tau_drive", {.unit = "N.m"});
  Variable tau_loss = variable("tau_loss", {.unit = "N.m"});
  Variable P_out = variable("P_out", {.unit = "W"});

  explicit Engine(std::string name) : Component(std::move(name)) {
    stored_energy(0.5 * J * w * w);
    dissipated_power(tau_loss * w);
    supplied_power(tau_drive * w);  // combustion
    require(omega_max > omega_peak, "omega_max must exceed omega_peak");
    require(engineMaxRPM > engineMinRPM, "engineMaxRPM must exceed engineMinRPM");
    require(w_fire > w_stall, "w_fire must exceed w_stall: an engine that fires runs above its stall speed");
    const Expr was_running = pre(running) > 0.5;
    when({was_running && w < w_stall, !was_running && w > w_fire}, {running == ifelse(was_running, 0.0, 1.0)});
    equation(phi == flange.phi);
    equation(w == der(phi));
    equation(rpm == w * (60.0 / (2.0 * std::numbers::pi)));
    const Expr n = max(rpm, engineMinRPM);
    const Expr polynomial = (torque_c * n * n + torque_b * n + torque_a) * 0.5 * (1.0 - tanh((rpm - engineMaxRPM) / rpm_blend));
    const Expr x = (w - omega_peak) / (omega_max - omega_peak);
    const Expr parabola = tau_peak * max(1.0 - x * x, 0.0);
    equation(tau_curve == ifelse(chosen(torque_model, 0), polynomial, parabola));
    equation(tau_drive == running * throttle_input * tau_curve);
    equation(tau_loss == tau_friction * tanh(w / w_eps) + d_friction * w);
    equation(J * der(w) == tau_drive - tau_loss + flange.tau);
    equation(P_out == -flange.tau * w);
  }
};

}  // namespace acausal::vehicle
