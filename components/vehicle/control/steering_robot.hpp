#pragma once

#include <numbers>
#include <string>
#include <vector>

#include "connectors/signal.hpp"

namespace acausal::vehicle {

/// The SteeringRobot's input, a structural choice (`{"profile",
/// SteeringProfile::sine_with_dwell}` in C++, `profile="sine_with_dwell"` in
/// Python; step by default): the profiles not chosen are not compiled.
struct SteeringProfile {
  enum : int { step, ramp, sine, sine_with_dwell };
  static inline const std::vector<std::string> names = {"step", "ramp", "sine", "sine_with_dwell"};
};

/// Open-loop steering robot for handling maneuvers: a steering angle delta
/// (road-wheel angle, or steering-wheel angle when it drives a steering
/// ratio; positive to the left, ISO 8855) as a function of time, zero before
/// start_time (t0) and continuous everywhere, so that no maneuver starts with
/// a jump a real robot cannot make. With A = amplitude, ω = 2π·frequency,
/// T = 1/frequency:
///   step, ramp: delta = sign(A)·rate·(t − t0) until it reaches A at
///     t0 + |A|/rate, then A. The two are the same shape: ISO 7401's step
///     steer is a fast ramp (rate = A/0.15 s: the step rises in 0.15 s, the
///     defaults), a slowly increasing steer (ISO 4138, NHTSA) a slow one;
///   sine: delta = A·sin(ω·(t − t0)) from t0 on (ISO 7401's sinusoidal input);
///   sine_with_dwell (NHTSA FMVSS No. 126): the 0.7 Hz sine's first
///     half-period to +A and back, on to −A at its negative peak
///     t1 = t0 + 3T/4, held at −A for the dwell (0.5 s), then the sine's last
///     quarter period from −A back to zero, A·sin(ω·(t − t0 − dwell)), which
///     it reaches at t0 + T + dwell; zero after.
/// Its area is −A·dwell: the two half-waves cancel. A negative amplitude
/// mirrors each profile (the right-first sine with dwell). t_end is when the
/// profile reaches its final value: t0 + |A|/rate (step, ramp), t0 + T + dwell
/// (sine with dwell); for the sine, which goes on, the end of its first period.
/// Each corner (t0, the end of the rise, the dwell's start and end, the end
/// of the sine with dwell) is a relation on time alone: a time event that the
/// integrator stops at, so it never steps across a kink of the input.
struct SteeringRobot : Component {
  RealOutput delta{*this, "delta", {.unit = "rad"}};
  Parameter profile = parameter(
      "profile", SteeringProfile::step,
      {.description = "steering input (step, ramp, sine, sine_with_dwell)", .choices = SteeringProfile::names});
  Parameter amplitude = parameter(
      "amplitude", 0.06, {.unit = "rad", .description = "final angle (step, ramp) or peak (sine, sine with dwell)"});
  Parameter start_time = parameter("start_time", 0.0, {.unit = "s", .description = "the steering starts"});
  Parameter rate =
      parameter("rate", 0.4, {.unit = "rad/s", .min = 0, .description = "rise rate of the step and the ramp"});
  Parameter frequency = parameter(
      "frequency", 0.7, {.unit = "Hz", .min = 0, .description = "frequency of the sine and the sine with dwell"});
  Parameter dwell = parameter("dwell", 0.5, {.unit = "s", .min = 0, .description = "hold at the sine's negative peak"});
  Variable t_end = variable("t_end", {.unit = "s", .description = "the profile reaches its final value"});

  explicit SteeringRobot(std::string name) : Component(std::move(name)) {
    const Expr ramping = chosen(profile, SteeringProfile::step) || chosen(profile, SteeringProfile::ramp);
    const Expr sine = chosen(profile, SteeringProfile::sine);
    // The rise lasts |A|/rate; the sine's corners sit at multiples of 1/frequency.
    require(!ramping || rate > 0, "the step and the ramp need a positive rate (they rise to the amplitude at it)");
    require(ramping || frequency > 0, "the sine profiles need a positive frequency (their corners are at 1/frequency)");
    const Expr t = time_symbol(), t0 = start_time, A = amplitude;
    const Expr w = 2 * std::numbers::pi * frequency, period = 1.0 / frequency;
    // Each condition is time against parameters: a time event.
    const Expr rise_end = t0 + abs(A) / rate;
    const Expr ramp = ifelse(t < t0, 0.0, ifelse(t < rise_end, sign(A) * rate * (t - t0), A));
    const Expr wave = ifelse(t < t0, 0.0, A * sin(w * (t - t0)));
    const Expr dwell_start = t0 + 0.75 * period, dwell_end = dwell_start + dwell, end = t0 + period + dwell;
    const Expr with_dwell =
        ifelse(t < t0, 0.0,
               ifelse(t < dwell_start, A * sin(w * (t - t0)),
                      ifelse(t < dwell_end, -A, ifelse(t < end, A * sin(w * (t - t0 - dwell)), 0.0))));
    equation(delta == ifelse(ramping, ramp, ifelse(sine, wave, with_dwell)));
    equation(t_end == ifelse(ramping, rise_end, ifelse(sine, t0 + period, end)));
  }
};

}  // namespace acausal::vehicle
