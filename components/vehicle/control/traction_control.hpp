#pragma once

#include "connectors/signal.hpp"

namespace acausal::vehicle {

/// Traction control (engine torque intervention), rule-based and sampled at
/// startTime and every samplePeriod after. At each sample it reads the
/// driven axle's practical slip from the faster driven wheel,
///   kappa = (max(w_left, w_right)·radius - v_vehicle)/max(|v_vehicle|, v_min)
/// (v_min keeps it finite at a standing start), and moves a throttle limit:
/// above kappa_high it cuts the limit to exp(-cut_rate·samplePeriod) of the
/// throttle in effect (a fast, geometric cut, as a spark or injection cut
/// is: halved every 10 ms by default), inside the band it holds it, below
/// kappa_low it restores it at restore_rate towards 1 (a slow rise, so the
/// wheels do not spin up again at once). throttle = min(throttle_demand,
/// limit): the driver's demand whenever the wheels grip. mode: cut (-1),
/// hold (0), restore (1). For one driven wheel connect its speed to both
/// w_left and w_right. v_vehicle: the body's speed, or an estimate from the
/// undriven wheels. The component has no continuous state: a model needs one
/// elsewhere (the car has many).
struct TractionControl : Component {
  RealInput throttle_demand{*this, "throttle_demand"};
  RealInput w_left{*this, "w_left", {.unit = "rad/s"}};
  RealInput w_right{*this, "w_right", {.unit = "rad/s"}};
  RealInput v_vehicle{*this, "v_vehicle", {.unit = "m/s"}};
  RealOutput throttle{*this, "throttle"};
  Parameter radius = parameter("radius", 0.3, {.unit = "m", .min = 1e-6});
  Parameter kappa_low = parameter("kappa_low", 0.1, {.unit = "1", .min = 0, .description = "restore below"});
  Parameter kappa_high = parameter("kappa_high", 0.2, {.unit = "1", .min = 0, .description = "cut above"});
  Parameter cut_rate = parameter("cut_rate", 70.0, {.unit = "1/s", .min = 0, .description = "exponential cut"});
  Parameter restore_rate = parameter("restore_rate", 1.0, {.unit = "1/s", .min = 0});
  Parameter v_min = parameter("v_min", 1.0, {.unit = "m/s", .min = 1e-6});
  Parameter samplePeriod = parameter("samplePeriod", 0.01, {.unit = "s", .min = 1e-15});
  Parameter startTime = parameter("startTime", 0.0, {.unit = "s"});
  Discrete kappa = discrete("kappa", {.unit = "1", .description = "the slip read at the last sample"});
  Discrete mode =
      discrete("mode", {.start = 1.0, .kind = DiscreteKind::integer, .description = "cut (-1), hold (0), restore (1)"});
  Discrete limit = discrete("limit", {.start = 1.0, .description = "throttle limit, 0..1"});

  explicit TractionControl(std::string name) : Component(std::move(name)) {
    require(kappa_low < kappa_high, "kappa_low must be below kappa_high");
    const Expr slip = (max(w_left, w_right) * radius - v_vehicle) / max(abs(v_vehicle), v_min);
    const Expr chosen_mode = ifelse(slip > kappa_high, -1.0, ifelse(slip < kappa_low, 1.0, 0.0));
    const Expr cut = min(pre(limit), max(throttle_demand, 0.0)) * exp(-cut_rate * samplePeriod);
    // The actions act only at the samples: their relations need no state
    // events of their own (no_event), as in Modelica's when-clauses.
    when(sample(startTime, samplePeriod),
         {kappa == no_event(slip), mode == no_event(chosen_mode),
          limit == no_event(ifelse(
                       chosen_mode < -0.5, cut,
                       ifelse(chosen_mode > 0.5, min(pre(limit) + restore_rate * samplePeriod, 1.0), pre(limit))))});
    equation(throttle == min(throttle_demand, limit));
  }
};

}  // namespace acausal::vehicle
