#pragma once

#include "connectors/signal.hpp"

namespace acausal::vehicle {

/// Anti-lock brake controller for one wheel: a classic rule-based (threshold)
/// ABS, sampled at startTime and every samplePeriod after, and its hydraulic
/// modulator. At each sample it reads the practical slip
///   kappa = (w_wheel·radius - v_vehicle)/max(v_vehicle, v_min)
/// (a locked wheel reads -1) and its trend since the last sample (the wheel's
/// deceleration, which the classic "-a/+a" thresholds read), and picks a mode:
/// release (-1) while the slip is not recovering and, extrapolated one sample
/// ahead, below kappa_high (deeper than the slip band; a locked wheel neither
/// falls nor recovers: it is released); hold (0) while it is below kappa_high
/// but recovering (the hydraulic lag keeps the wheel diving for a sample or
/// two after a dump starts: dumping on would starve it); apply (+1) otherwise.
/// The commanded pressure (a fraction of the brake's tau_max) falls as
/// exp(-dump_rate·t) while releasing. While applying above the band (the
/// wheel under-braked) it rises at rise_rate up to `memory` times p_release,
/// the pressure at which the last release began, and from there, and inside
/// the band, grows geometrically, by rise_rate (above) or rise_rate_band
/// (inside) times itself per second: the slip creeps past the tire's peak,
/// which the band brackets, to the next release, with steps that scale with
/// the road's μ. It never exceeds the driver's brake_demand. Until the first
/// release of a brake application the command is the demand itself (the ABS
/// is out of the loop), and so it is below v_min or without demand: the car
/// stops and holds with the wheels locked.
/// The modulator is a first-order lag T_hydraulic·der(p_hydraulic) = pressure
/// - p_hydraulic, and brake = min(p_hydraulic, brake_demand): the inlet
/// valve's check valve lets the wheel pressure follow the master cylinder
/// down at once when the driver lifts the pedal. Connect brake to
/// vehicle::Brake.brake_input.
/// v_vehicle is the speed over ground: the body's speed in a simulation, an
/// estimate (from the fastest wheel, an accelerometer) in a car. For forward
/// driving: the ABS is inactive below v_min.
struct ABSController : Component {
  RealInput brake_demand{*this, "brake_demand"};
  RealInput w_wheel{*this, "w_wheel", {.unit = "rad/s"}};
  RealInput v_vehicle{*this, "v_vehicle", {.unit = "m/s"}};
  RealOutput brake{*this, "brake"};
  Parameter radius = parameter("radius", 0.3, {.unit = "m", .min = 1e-6});
  Parameter kappa_low = parameter("kappa_low", -0.08, {.unit = "1", .max = 0, .description = "top of the slip band"});
  Parameter kappa_high =
      parameter("kappa_high", -0.2, {.unit = "1", .max = 0, .description = "bottom of the slip band: release below"});
  Parameter rise_rate =
      parameter("rise_rate", 10.0,
                {.unit = "1/s",
                 .min = 0,
                 .description = "pressure rise above the slip band, to memory·p_release, then geometric"});
  Parameter rise_rate_band = parameter(
      "rise_rate_band", 2.0, {.unit = "1/s", .min = 0, .description = "geometric pressure rise inside the slip band"});
  Parameter dump_rate =
      parameter("dump_rate", 15.0, {.unit = "1/s", .min = 0, .description = "geometric pressure fall (release)"});
  Parameter memory = parameter(
      "memory", 0.8, {.unit = "1", .min = 0, .max = 1, .description = "fast rise up to this fraction of p_release"});
  Parameter v_min = parameter("v_min", 2.0, {.unit = "m/s", .min = 1e-6, .description = "ABS inactive below"});
  Parameter T_hydraulic = parameter("T_hydraulic", 0.02, {.unit = "s", .min = 1e-6});
  Parameter samplePeriod = parameter("samplePeriod", 0.01, {.unit = "s", .min = 1e-15});
  Parameter startTime = parameter("startTime", 0.0, {.unit = "s"});
  Variable p_hydraulic = variable("p_hydraulic", {.start = 0.0, .fixed = true, .description = "wheel pressure, 0..1"});
  Discrete kappa = discrete("kappa", {.unit = "1", .description = "the slip read at the last sample"});
  Discrete mode = discrete(
      "mode", {.start = 1.0, .kind = DiscreteKind::integer, .description = "release (-1), hold (0), apply (1)"});
  Discrete engaged =
      discrete("engaged", {.kind = DiscreteKind::boolean, .description = "the ABS modulates this brake application"});
  Discrete p_release =
      discrete("p_release", {.start = 1.0, .description = "commanded pressure when the last release began"});
  Discrete pressure = discrete("pressure", {.description = "commanded pressure, 0..1"});

  explicit ABSController(std::string name) : Component(std::move(name)) {
    require(kappa_high < kappa_low, "kappa_high must be below kappa_low (a deeper slip)");
    // The actions read only pre() of this component's discretes: each is
    // written out in full rather than reading another assigned in the same clause.
    const Expr slip = (w_wheel * radius - v_vehicle) / max(v_vehicle, v_min);
    const Expr active = v_vehicle > v_min && brake_demand > 0.0;
    // Extrapolated one sample ahead: at low speed the slip moves fast
    // (dκ/dt grows as 1/v), and the hydraulic lag delays a dump's effect.
    const Expr falling = slip <= pre(kappa), predicted = 2.0 * slip - pre(kappa);
    const Expr chosen_mode =
        ifelse(falling && predicted < kappa_high, -1.0, ifelse(!falling && slip < kappa_high, 0.0, 1.0));
    const Expr engages = active && (pre(engaged) > 0.5 || chosen_mode < -0.5);
    const Expr starts_release = chosen_mode < -0.5 && pre(mode) > -0.5;
    // The outlet valve's flow grows with the wheel pressure, so the dump is
    // geometric; the slow rises are too, so that every step scales with the
    // road's μ (on ice the wheel holds at a tenth of its pressure on dry
    // asphalt). The floor of 0.01 lets a pressure dumped to nearly nothing grow again.
    const Expr p = pre(pressure), cap = memory * pre(p_release), grow = max(p, 0.01) * samplePeriod;
    const Expr up =
        ifelse(slip > kappa_low, ifelse(p < cap, min(p + rise_rate * samplePeriod, cap), p + rise_rate * grow),
               p + rise_rate_band * grow);
    const Expr next = ifelse(chosen_mode < -0.5, p * exp(-dump_rate * samplePeriod), ifelse(chosen_mode < 0.5, p, up));
    const Expr modulated = min(max(next, 0.0), brake_demand);
    // The actions act only at the samples: their relations need no state
    // events of their own (no_event), as in Modelica's when-clauses.
    when(sample(startTime, samplePeriod),
         {kappa == slip,
          p_release == no_event(ifelse(engages, ifelse(starts_release, pre(pressure), pre(p_release)), 1.0)),
          mode == no_event(ifelse(active, chosen_mode, 1.0)), engaged == no_event(ifelse(engages, 1.0, 0.0)),
          pressure == no_event(ifelse(engages, modulated, max(brake_demand, 0.0)))});
    equation(T_hydraulic * der(p_hydraulic) == pressure - p_hydraulic);
    equation(brake == min(p_hydraulic, brake_demand));
  }
};

}  // namespace acausal::vehicle
