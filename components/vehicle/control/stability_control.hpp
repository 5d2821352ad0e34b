#pragma once

#include <string>

#include "connectors/signal.hpp"

namespace acausal::vehicle {

/// Electronic stability control (ESC) by yaw-rate tracking and single-wheel
/// braking, at the signal level. The reference is the steady yaw rate of the
/// linear single-track car with understeer gradient K_us, bounded by the
/// friction limit (a steady turn at the yaw rate r needs a_y = v·r ≤ μ·g; 0.85
/// of it keeps the reference below what the tires can give):
///   r_ref = clamp(v·delta/(L + K_us·v²), ±r_limit),  r_limit = 0.85·mu·g/max(v, v_min),
/// and the error is e = r − r_ref (r measured, ISO 8855: positive to the left).
/// Which wheel: a brake force F > 0 on a wheel at lateral position y (left
/// wheels y = +track/2, right ones −track/2) is F_x = −F, and the yaw moment
/// M_z = x·F_y − y·F_x = y·F: braking a left wheel yaws the car left (+),
/// a right wheel right (−). The moment must oppose e: e > 0 (too much yaw to
/// the left, too little to the right) brakes a right wheel, e < 0 a left one.
/// The axle: the front when that moment opposes the car's own rotation (r·e > 0,
/// oversteer: |r| beyond |r_ref| with the same sign, or r against r_ref, the
/// car spinning away from the driver's intent), the rear when it adds to it
/// (r·e < 0, understeer: |r| short of |r_ref|). So:
///   left turn (r_ref > 0):  oversteer r > r_ref + deadband → front right (front outer),
///                           understeer 0 ≤ r < r_ref − deadband → rear left (rear inner);
///   right turn (r_ref < 0): oversteer r < r_ref − deadband → front left (front outer),
///                           understeer r_ref + deadband < r ≤ 0 → rear right (rear inner);
///   r against r_ref (beyond the deadband): the front wheel outer to the car's own rotation.
/// The front outer wheel carries the most load and braking it also takes
/// lateral grip from the front axle, which both turn the car out of a spin;
/// the rear inner wheel turns it in without taking grip from the front.
/// The ESC's demand on the braked side is gain·ramp(|e| − deadband), capped
/// at max_demand, where ramp is zero up to 0, x²/(2·deadband) up to the
/// deadband and x − deadband/2 beyond (C1: within the deadband the ESC does
/// nothing at all, and beyond it no step in demand); the front's share is
/// smoothstep(r·sign(e)/deadband) (0 up to 0, 1 from 1 on, 3x² − 2x³
/// between: a car that barely rotates counts as understeering), and the whole
/// fades in with smoothstep((v − v_min)/v_blend) (off below v_min, reversing
/// included). Each brake gets max(brake, the ESC's demand on it): the ESC
/// never brakes less than the driver asks (max_demand caps its own demand,
/// not the pedal). Every function is continuous and evaluated literally
/// (no_event): noise around a threshold makes no events. active is the
/// intervention level, the ESC's demand over max_demand, 0 to 1.
/// Connect v to the speed over ground, r to a yaw-rate sensor (SingleTrack.r)
/// and the brakes to the wheels' vehicle::Brake.brake_input.
struct StabilityControl : Component {
  RealInput delta{*this, "delta", {.unit = "rad"}};
  RealInput v{*this, "v", {.unit = "m/s"}};
  RealInput r{*this, "r", {.unit = "rad/s"}};
  RealInput brake{*this, "brake"};
  RealOutput brake_fl{*this, "brake_fl"};
  RealOutput brake_fr{*this, "brake_fr"};
  RealOutput brake_rl{*this, "brake_rl"};
  RealOutput brake_rr{*this, "brake_rr"};
  RealOutput r_ref{*this, "r_ref", {.unit = "rad/s"}};
  RealOutput active{*this, "active"};
  Parameter L = parameter("L", 2.7, {.unit = "m", .min = 0, .description = "wheelbase"});
  Parameter K_us =
      parameter("K_us", 0.0025, {.unit = "rad.s2/m", .min = 0, .description = "understeer gradient of the reference"});
  Parameter mu = parameter("mu", 1.0, {.min = 0, .description = "road friction coefficient, for the yaw-rate limit"});
  Parameter g = parameter("g", 9.81, {.unit = "m/s2", .min = 0});
  Parameter deadband =
      parameter("deadband", 0.05, {.unit = "rad/s", .min = 0, .description = "yaw-rate error the ESC ignores"});
  Parameter gain =
      parameter("gain", 5.0, {.unit = "s/rad", .min = 0, .description = "brake demand per yaw-rate error"});
  Parameter max_demand =
      parameter("max_demand", 0.5, {.min = 0, .max = 1, .description = "the largest brake demand of the ESC itself"});
  Parameter v_min = parameter("v_min", 3.0, {.unit = "m/s", .min = 1e-6, .description = "ESC off below"});
  Parameter v_blend = parameter(
      "v_blend", 1.0, {.unit = "m/s", .min = 1e-6, .description = "ESC fades in from v_min to v_min + v_blend"});
  Variable r_limit = variable("r_limit", {.unit = "rad/s", .description = "friction limit of the yaw rate"});
  Variable yaw_error = variable("yaw_error", {.unit = "rad/s", .description = "r − r_ref"});
  Variable esc_fl = variable("esc_fl", {.description = "the ESC's own demand, front left"});
  Variable esc_fr = variable("esc_fr", {.description = "the ESC's own demand, front right"});
  Variable esc_rl = variable("esc_rl", {.description = "the ESC's own demand, rear left"});
  Variable esc_rr = variable("esc_rr", {.description = "the ESC's own demand, rear right"});

  explicit StabilityControl(std::string name) : Component(std::move(name)) {
    // r_ref divides by L + K_us·v² (K_us >= 0); the smooth steps divide by the deadband; active by max_demand.
    require(L > 0, "the wheelbase L must be positive");
    require(deadband > 0, "the deadband must be positive (it is also the width of the smooth transitions)");
    require(max_demand > 0, "max_demand must be positive (active is the ESC's demand over it)");
    auto ramp = [&](const Expr& x) {
      return ifelse(x <= 0.0, 0.0, ifelse(x < deadband, x * x / (2 * deadband), x - deadband / 2));
    };
    auto smoothstep = [](const Expr& x) { return ifelse(x <= 0.0, 0.0, ifelse(x < 1.0, x * x * (3 - 2 * x), 1.0)); };
    equation(r_limit == 0.85 * mu * g / no_event(max(v, v_min)));
    equation(r_ref == no_event(min(max(v * delta / (L + K_us * v * v), -r_limit), r_limit)));
    equation(yaw_error == r - r_ref);
    const Expr on = no_event(smoothstep((v - v_min) / v_blend));
    const Expr right =
        on * no_event(min(gain * ramp(yaw_error - deadband), max_demand));  // e > 0: brake the right side
    const Expr left = on * no_event(min(gain * ramp(-yaw_error - deadband), max_demand));  // e < 0: the left side
    const Expr front_right = no_event(smoothstep(r / deadband)), front_left = no_event(smoothstep(-r / deadband));
    equation(esc_fr == right * front_right);
    equation(esc_rr == right * (1 - front_right));
    equation(esc_fl == left * front_left);
    equation(esc_rl == left * (1 - front_left));
    equation(brake_fl == no_event(max(brake, esc_fl)));
    equation(brake_fr == no_event(max(brake, esc_fr)));
    equation(brake_rl == no_event(max(brake, esc_rl)));
    equation(brake_rr == no_event(max(brake, esc_rr)));
    equation(active == (left + right) / max_demand);
  }
};

}  // namespace acausal::vehicle
