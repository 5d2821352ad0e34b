#pragma once

#include <string>

#include "components/common/friction_modes.hpp"
#include "components/vehicle/driveline/brake.hpp"
#include "components/vehicle/driveline/directional_efficiency.hpp"
#include "connectors/rotational.hpp"
#include "connectors/signal.hpp"

namespace acausal::vehicle {

/// Gearbox with reverse, neutral and up to six forward gears, chosen by
/// gear_input (-1 reverse, 0 neutral, 1..6). Ratios are input speed / output
/// speed: negative in reverse, positive and falling from gear to gear forward;
/// a ratio of 0 is a gear that does not exist and acts as neutral (absent
/// forward gears are the top ones). Shifts are events. The input shaft
/// (inertia J_in) meshes with the output through a synchronizer, a friction
/// cone of capacity tau_sync on the slip w_slip = w_in - ratio·w_out:
///   J_in·der(w_in) = flange_in.tau - tau_mesh,  flange_out.tau = -ratio·η·tau_mesh.
/// With friction = smooth (the default), tau_mesh = tau_sync·tanh(w_slip/w_sync):
/// no events, a slip of order w_sync. With friction = locking (FrictionModes)
/// the engaged gear holds the shafts exactly at the ratio while
/// |tau_mesh| < tau_sync; a shift makes the slip jump, the cone slides at
/// ±tau_sync until the input shaft turns at the new ratio, and locks again.
/// The energy of each synchronization is dissipated and shows in P_loss. η is
/// the gear's efficiency when the input drives, its inverse when the output drives.
struct Gearbox : Component {
  rotational::Flange flange_in{*this, "flange_in"}, flange_out{*this, "flange_out"};
  RealInput gear_input{*this, "gear_input"};
  Parameter ratio_reverse = parameter("ratio_reverse", -3.5, {.max = 0});
  Parameter ratio_1 = parameter("ratio_1", 3.6, {.min = 0});
  Parameter ratio_2 = parameter("ratio_2", 2.1, {.min = 0});
  Parameter ratio_3 = parameter("ratio_3", 1.4, {.min = 0});
  Parameter ratio_4 = parameter("ratio_4", 1.0, {.min = 0});
  Parameter ratio_5 = parameter("ratio_5", 0.8, {.min = 0});
  Parameter ratio_6 = parameter("ratio_6", 0.0, {.min = 0});
  Parameter efficiency_reverse = parameter("efficiency_reverse", 1.0, {.min = 1e-3, .max = 1});
  Parameter efficiency_1 = parameter("efficiency_1", 1.0, {.min = 1e-3, .max = 1});
  Parameter efficiency_2 = parameter("efficiency_2", 1.0, {.min = 1e-3, .max = 1});
  Parameter efficiency_3 = parameter("efficiency_3", 1.0, {.min = 1e-3, .max = 1});
  Parameter efficiency_4 = parameter("efficiency_4", 1.0, {.min = 1e-3, .max = 1});
  Parameter efficiency_5 = parameter("efficiency_5", 1.0, {.min = 1e-3, .max = 1});
  Parameter efficiency_6 = parameter("efficiency_6", 1.0, {.min = 1e-3, .max = 1});
  Parameter J_in = parameter("J_in", 0.02, {.unit = "kg.m2", .min = 1e-9});
  Parameter tau_sync = parameter("tau_sync", 3000.0, {.unit = "N.m", .min = 0});
  Parameter friction_law = parameter("friction", FrictionLaw::smooth,
                                     {.description = "synchronizer law (locking, smooth)", .choices = FrictionLaw::names});
  Parameter w_sync = parameter("w_sync", 1.0, {.unit = "rad/s", .min = 1e-12, .description = "smooth law's slip scale"});
  Parameter w_jump = parameter("w_jump", 1e-3, {.unit = "rad/s", .min = 1e-12,
                                                .description = "a slip the locked cone finds at an event: it slides"});
  Parameter P_eps = parameter("P_eps", 100.0, {.unit = "W", .min = 1e-9});
  Variable w_in = variable("w_in", {.unit = "rad/s", .state = StateSelect::prefer});
  Variable w_out = variable("w_out", {.unit = "rad/s"});
  Variable ratio = variable("ratio");
  Variable efficiency = variable("efficiency");
  Variable w_slip = variable("w_slip", {.unit = "rad/s", .description = "w_in - ratio·w_out"});
  Variable tau_mesh = variable("tau_mesh", {.unit = "N.m"});
  Variable P_loss = variable("P_loss", {.unit = "W"});
  FrictionModes friction{*this, "N.m", "rad/s2"};

  explicit Gearbox(std::string name) : Component(std::move(name)) {
    stored_energy(0.5 * J_in * w_in * w_in);
    dissipated_power(P_loss);
    const Expr& gear = gear_input;
    auto by_gear = [&](const Expr& reverse, const Expr& neutral, const Expr* forward) {
      Expr value = forward[5];
      for (int k = 4; k >= 0; --k) value = ifelse(gear < k + 1.5, forward[k], value);
      return ifelse(gear < -0.5, reverse, ifelse(gear < 0.5, neutral, value));
    };
    const Expr ratios[] = {ratio_1, ratio_2, ratio_3, ratio_4, ratio_5, ratio_6};
    for (int k = 1; k < 6; ++k)
      require(ratios[k] <= 0.0 || (ratios[k - 1] > 0.0 && ratios[k] < ratios[k - 1]),
              "ratio_" + std::to_string(k + 1) + " must be 0 (absent) or below ratio_" + std::to_string(k) + " > 0");
    const Expr efficiencies[] = {efficiency_1, efficiency_2, efficiency_3, efficiency_4, efficiency_5, efficiency_6};
    equation(ratio == by_gear(ratio_reverse, 0.0, ratios));
    equation(efficiency == by_gear(efficiency_reverse, 1.0, efficiencies));
    equation(w_in == der(flange_in.phi));
    equation(w_out == der(flange_out.phi));
    const Expr engaged = ifelse(ratio * ratio > 0.0, 1.0, 0.0);
    equation(w_slip == w_in - ratio * w_out);
    const Expr locking = chosen(friction_law, FrictionLaw::locking);
    // A shift changes the ratio at an event and with it the slip, which a
    // locked cone would otherwise keep (stuck holds the slip's rate at 0):
    // free for that iteration, the cone then slides towards the new ratio.
    // Only read at events (a held slip does not move): no root function.
    const Expr shifted = equal(pre(friction.mode), FrictionModes::Stuck) && no_event(abs(w_slip) > w_jump);
    const Expr free = engaged <= 0.0 || shifted;
    // The ratio is constant between events: the slip's rate without der(ratio).
    friction.equations_when(locking, *this, w_slip, der(w_in) - ratio * der(w_out), tau_sync, tau_sync, free,
                            Expr(1e10));
    equation(tau_mesh == ifelse(locking, friction.force(free, tau_sync, -tau_sync),
                                engaged * tau_sync * tanh(w_slip / w_sync)));
    equation(J_in * der(w_in) == flange_in.tau - tau_mesh);
    const Expr eta = directional_efficiency(efficiency, tau_mesh * w_in, P_eps);
    equation(flange_out.tau == -ratio * eta * tau_mesh);
    equation(P_loss == tau_mesh * w_in + flange_out.tau * w_out);
  }
};

}  // namespace acausal::vehicle
