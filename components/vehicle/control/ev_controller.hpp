#pragma once

#include <string>

#include "connectors/signal.hpp"

namespace acausal::vehicle {

/// Vehicle controller of a battery-electric car: maps the accelerator and
/// brake pedals (0..1, clamped) to a torque command for a MotorDrive (tau_ref)
/// and a friction-brake demand (brake_demand, 0..1, for vehicle::Brake's
/// brake_input or an ABSController's brake_demand), blending regenerative
/// braking in series with the friction brakes. For forward driving: the
/// motor turns forward (w_motor > 0) when the car does (v > 0).
/// Drive: tau_ref = accelerator·tau_drive_max with
/// tau_drive_max = min(tau_available, eta_drive·P_discharge_max/max(|w_motor|, w_eps)):
/// the motor's envelope (MotorDrive.tau_max_available) and the battery's
/// discharge limit, less the drive's losses, which eta_drive estimates.
/// Braking: the pedal asks for T_request = brake·T_brake_max at the wheels.
/// The motor takes as much as it may first,
/// tau_regen = min(T_request/ratio, tau_regen_max) with
/// tau_regen_max = fade·min(tau_available, P_charge_max/max(|w_motor|, w_eps)),
/// and the friction brakes the rest, brake_demand = (T_request -
/// ratio·tau_regen)/T_brake_max; the command is tau_ref = accelerator·tau_drive_max
/// - tau_regen. The charge limit is applied to the shaft power, which exceeds
/// the power the battery receives by the drive's losses, so the battery never
/// gets more than P_charge_max. The regeneration fades linearly to zero below
/// v_fade (2.5 m/s, 9 km/h by default): fade = clamp(v/v_fade, 0, 1), none
/// when reversing; the friction brakes take over as it fades, so the car stops
/// and holds on them (and ABS, which acts on the friction brakes only). Below
/// w_eps the power limits are read as at w_eps: lower torques, no division by
/// zero. Regeneration is negative mechanical power at the motor with the DC
/// power flowing back into the battery; reversing the supply's polarity
/// (plugging) also brakes, but with the supply delivering power, and is not
/// regeneration. Inputs tau_available, P_discharge_max and P_charge_max are
/// magnitudes (>= 0). The motor's lag (MotorDrive.T_c) is not compensated:
/// the friction share is computed from the commanded regenerative torque.
struct EVController : Component {
  RealInput accelerator{*this, "accelerator", {.unit = "1", .description = "accelerator pedal, 0..1"}};
  RealInput brake{*this, "brake", {.unit = "1", .description = "brake pedal, 0..1"}};
  RealInput v{*this, "v", {.unit = "m/s", .description = "vehicle speed over ground"}};
  RealInput w_motor{*this, "w_motor", {.unit = "rad/s", .description = "motor speed (MotorDrive.w)"}};
  RealInput tau_available{
      *this, "tau_available", {.unit = "N.m", .description = "the motor's envelope (MotorDrive.tau_max_available)"}};
  RealInput P_discharge_max{*this, "P_discharge_max", {.unit = "W", .description = "battery discharge power limit"}};
  RealInput P_charge_max{*this, "P_charge_max", {.unit = "W", .description = "battery charge power limit"}};
  RealOutput tau_ref{*this, "tau_ref", {.unit = "N.m", .description = "motor torque command"}};
  RealOutput brake_demand{*this, "brake_demand", {.unit = "1", .description = "friction brakes, 0..1"}};
  Parameter ratio = parameter("ratio", 9.0, {.unit = "1", .min = 1e-9, .description = "motor speed / wheel speed"});
  Parameter T_brake_max = parameter(
      "T_brake_max", 4800.0,
      {.unit = "N.m", .min = 1e-9, .description = "wheel brake torque at full pedal, all friction brakes together"});
  Parameter v_fade =
      parameter("v_fade", 2.5, {.unit = "m/s", .min = 1e-9, .description = "regeneration fades to 0 below"});
  Parameter eta_drive = parameter(
      "eta_drive", 0.9, {.unit = "1", .min = 0, .max = 1, .description = "drive efficiency assumed for the discharge limit"});
  Parameter w_eps = parameter("w_eps", 1.0, {.unit = "rad/s", .min = 1e-9,
                                             .description = "the power limits are read at no lower speed"});
  Variable fade = variable("fade", {.unit = "1", .description = "share of the regeneration allowed at v"});
  Variable tau_drive_max = variable("tau_drive_max", {.unit = "N.m", .description = "drive torque allowed"});
  Variable tau_regen_max = variable("tau_regen_max", {.unit = "N.m", .description = "regenerative torque allowed"});
  Variable T_request = variable("T_request", {.unit = "N.m", .description = "brake torque asked for at the wheels"});
  Variable tau_regen = variable("tau_regen", {.unit = "N.m", .description = "regenerative torque at the motor (>= 0)"});
  Variable T_friction = variable("T_friction", {.unit = "N.m", .description = "friction brake torque asked for"});

  explicit EVController(std::string name) : Component(std::move(name)) {
    // Kinks only (continuous): no events at the pedal's ends, the fade's ends or the limits' corners.
    const auto clamp01 = [](const Expr& x) { return no_event(min(max(x, 0.0), 1.0)); };
    const Expr speed = no_event(max(abs(w_motor), w_eps));
    equation(fade == clamp01(v / v_fade));
    equation(tau_drive_max == no_event(min(tau_available, eta_drive * P_discharge_max / speed)));
    equation(tau_regen_max == fade * no_event(min(tau_available, P_charge_max / speed)));
    equation(T_request == clamp01(brake) * T_brake_max);
    equation(tau_regen == no_event(min(T_request / ratio, tau_regen_max)));
    equation(T_friction == T_request - ratio * tau_regen);
    equation(tau_ref == clamp01(accelerator) * tau_drive_max - tau_regen);
    equation(brake_demand == T_friction / T_brake_max);
  }
};

}  // namespace acausal::vehicle
