#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "components/electrical/one_port.hpp"
#include "components/thermal/conditional_heat_port.hpp"
#include "connectors/rotational.hpp"
#include "connectors/signal.hpp"
#include "solver/symbolic/table.hpp"

namespace acausal::vehicle {

/// Traction motor and inverter at system level (as Simscape's "Motor & Drive
/// (System Level)"): the drive delivers the commanded torque within its
/// envelope and draws its losses from the DC side, without modelling phases
/// or switching. DC side p, n (v = p.v - n.v, i from p through the drive to
/// n); the rotor, inertia J, drives `flange`; the stator is fixed to ground
/// (no support flange, as EMF).
/// Envelope: |tau| <= tau_max_available = tau_max·min(1, P_max/(tau_max·|w|)),
/// written P_max/max(|w|, P_max/tau_max) so that it never divides by zero
/// (full torque up to the base speed P_max/tau_max, constant power above), the
/// same in all four quadrants. Torque: the command tau_ref, clamped to the
/// envelope, passes a first-order lag T_c·der(tau_lag) = tau_cmd - tau_lag (the
/// current loop), and the delivered torque is tau_lag clamped to the envelope
/// again: the clamp at the input keeps the lag from winding up beyond the
/// envelope, the one at the output holds the limit while the speed rises
/// faster than the lag can follow, so |tau| never exceeds it. Within the
/// envelope a step of the command gives tau = tau_ref·(1 - exp(-t/T_c)).
/// J·der(w) = tau + flange.tau.
/// Losses LossPower >= 0: by default the loss model
/// k_c·tau² (copper) + k_i·w² (iron) + k_w·|w| (friction and windage) + P_0
/// (inverter standby), or a loss map over speed and torque (set_loss_map,
/// bilinear, held beyond the grid; a grid in the first quadrant only is
/// mirrored to the other three). The losses are drawn from the DC side, the
/// shaft gets the commanded torque: P_elec = v·i = P_mech + LossPower exactly,
/// with P_mech = tau·w. Motoring the drive draws more than the shaft gives;
/// regenerating (P_mech < 0) it returns |P_mech| - LossPower, less than the
/// shaft gave, and at low regenerative power it still draws (the losses exceed
/// what the shaft supplies). The DC voltage must not be zero (i = P_elec/v).
/// Defaults: a 100 kW, 250 N.m compact-car drive (base speed 400 rad/s,
/// 3820 rpm), illustrative and not measured: 96.7 % at 250 N.m and 400 rad/s,
/// 91 % at 10 N.m and 700 rad/s, 80 % at 250 N.m and 50 rad/s. With use_heat_port = 1 the losses leave through
/// heat_port (thermal::ConditionalHeatPort, MSL useHeatPort).
struct MotorDrive : electrical::OnePort {
  rotational::Flange flange{*this, "flange"};
  RealInput tau_ref{*this, "tau_ref", {.unit = "N.m", .description = "torque command"}};
  RealOutput tau{*this, "tau", {.unit = "N.m", .description = "torque delivered to the rotor"}};
  RealOutput w{*this, "w", {.unit = "rad/s", .state = StateSelect::prefer, .description = "rotor speed"}};
  RealOutput P_mech{*this, "P_mech", {.unit = "W", .description = "tau·w: < 0 while regenerating"}};
  RealOutput P_elec{*this, "P_elec", {.unit = "W", .description = "v·i, drawn from the DC side"}};
  RealOutput tau_max_available{
      *this, "tau_max_available", {.unit = "N.m", .description = "the envelope at w, either sign (>= 0)"}};
  Parameter tau_max = parameter("tau_max", 250.0, {.unit = "N.m", .min = 1e-9, .description = "peak torque"});
  Parameter P_max = parameter("P_max", 100e3, {.unit = "W", .min = 1e-9, .description = "peak power"});
  Parameter T_c = parameter("T_c", 0.02, {.unit = "s", .min = 1e-9, .description = "torque response time constant"});
  Parameter J = parameter("J", 0.05, {.unit = "kg.m2", .min = 1e-9, .description = "rotor inertia"});
  Parameter k_c = parameter("k_c", 0.05, {.unit = "W/(N2.m2)", .min = 0, .description = "copper loss per tau²"});
  Parameter k_i = parameter("k_i", 1e-3, {.unit = "W.s2/rad2", .min = 0, .description = "iron loss per w²"});
  Parameter k_w = parameter("k_w", 0.1, {.unit = "W.s/rad", .min = 0, .description = "friction loss per |w|"});
  Parameter P_0 = parameter("P_0", 100.0, {.unit = "W", .min = 0, .description = "constant (standby) loss"});
  Variable phi = variable("phi", {.unit = "rad"});
  Variable tau_cmd = variable("tau_cmd", {.unit = "N.m", .description = "tau_ref clamped to the envelope"});
  Variable tau_lag = variable("tau_lag", {.unit = "N.m", .start = 0.0, .fixed = true,
                                          .description = "the lag's state, before the output clamp"});
  thermal::ConditionalHeatPort heat{*this, "LossPower"};
  thermal::HeatPort& heat_port = heat.heat_port;
  Variable LossPower = heat.lossPower;

  explicit MotorDrive(std::string name) : OnePort(std::move(name)) {
    stored_energy(0.5 * J * w * w);
    // |w| in the friction loss, the envelope's corner at the base speed and the
    // clamps are kinks, continuous: no events, which a drive cycle would cross
    // thousands of times. Near w = 0 the envelope is flat (tau_max).
    const Expr speed = no_event(abs(w));
    const auto clamp = [&](const Expr& x) { return no_event(min(max(x, -tau_max_available), tau_max_available)); };
    equation(tau_max_available == P_max / no_event(max(speed, P_max / tau_max)));
    equation(tau_cmd == clamp(tau_ref));
    equation(T_c * der(tau_lag) == tau_cmd - tau_lag);
    equation(tau == clamp(tau_lag));
    equation(phi == flange.phi);
    equation(w == der(phi));
    equation(J * der(w) == tau + flange.tau);
    equation(P_mech == tau * w);
    loss_ = equation(LossPower == k_c * tau * tau + k_i * w * w + k_w * speed + P_0);
    equation(P_elec == v * i);
    equation(P_elec == P_mech + LossPower);
    heat.port_equations(*this);
  }

  /// The losses from a map instead of the loss model: losses[i][j] [W] at
  /// speeds[i] [rad/s] and torques[j] [N.m], both increasing, every value
  /// >= 0 (and finite); bilinear, held beyond the grid, so the losses stay
  /// >= 0 everywhere. A grid with no negative speed or torque is the first
  /// quadrant and is read at (|w|, |tau|), the same in all four; a grid with
  /// negative entries is read at (w, tau) and must cover the quadrants the
  /// drive runs in. Call before compiling.
  void set_loss_map(const std::vector<double>& speeds, const std::vector<double>& torques,
                    const std::vector<std::vector<double>>& losses) {
    const std::string context = path() + " loss map";
    if (losses.size() != speeds.size())
      throw ModelError(fmt::format("{}: {} rows of losses for {} speeds", context, losses.size(), speeds.size()));
    Table2D t{.u1 = speeds, .u2 = torques, .extrapolation = TableExtrapolation::hold,
              .smoothness = TableSmoothness::linear};
    for (std::size_t r = 0; r < losses.size(); ++r) {
      if (losses[r].size() != torques.size())
        throw ModelError(fmt::format("{}: row {} ({} rad/s) has {} losses for {} torques", context, r + 1, speeds[r],
                                     losses[r].size(), torques.size()));
      for (std::size_t c = 0; c < torques.size(); ++c)
        if (!(losses[r][c] >= 0.0))
          throw ModelError(fmt::format("{}: the loss {} W at {} rad/s, {} N.m must be >= 0 (a loss never feeds the "
                                       "drive)",
                                       context, losses[r][c], speeds[r], torques[c]));
      t.y.insert(t.y.end(), losses[r].begin(), losses[r].end());
    }
    check_table(t, context);
    const auto negative = [](const std::vector<double>& axis) {
      return std::any_of(axis.begin(), axis.end(), [](double x) { return x < 0.0; });
    };
    const bool first_quadrant = !negative(speeds) && !negative(torques);
    const Expr speed = first_quadrant ? no_event(abs(w)) : Expr(w);
    const Expr torque = first_quadrant ? no_event(abs(tau)) : Expr(tau);
    replace_equation(loss_, LossPower == table(speed, torque, t));
  }

 private:
  std::size_t loss_ = 0;
};

}  // namespace acausal::vehicle
