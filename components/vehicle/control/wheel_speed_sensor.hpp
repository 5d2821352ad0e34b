#pragma once

#include <numbers>

#include "connectors/rotational.hpp"
#include "connectors/signal.hpp"

namespace acausal::vehicle {

/// Wheel speed sensor: an incremental encoder (a toothed ring and a pickup, as
/// in ABS) with pulses_per_revolution pulses per turn, read at startTime and
/// every samplePeriod after. It counts the pulses passed,
/// counts = floor(phi·ppr/2π), and reports the speed from the pulses of the
/// last period, w = (counts - pre(counts))·2π/(ppr·samplePeriod), held until
/// the next sample: the mean speed over the period, in steps of one count per
/// period, 2π/(ppr·samplePeriod): at 48 pulses and 10 ms, 13 rad/s (real ABS
/// units also time the pulse edges at low speed). w is 0 until the second
/// sample, since a difference of counts needs two. Reading the angle takes no torque.
struct WheelSpeedSensor : Component {
  rotational::Flange flange{*this, "flange"};
  RealOutput w{*this, "w", {.unit = "rad/s"}};
  Parameter pulses_per_revolution =
      parameter("pulses_per_revolution", 48.0, {.unit = "1", .min = 1, .description = "a whole number"});
  Parameter samplePeriod = parameter("samplePeriod", 0.01, {.unit = "s", .min = 1e-15});
  Parameter startTime = parameter("startTime", 0.0, {.unit = "s"});
  Discrete counts = discrete("counts", {.kind = DiscreteKind::integer, .description = "pulses counted"});
  Discrete counting =
      discrete("counting", {.kind = DiscreteKind::boolean, .description = "true from the first sample on"});
  Discrete w_sample = discrete("w_sample", {.unit = "rad/s", .description = "the speed measured at the last sample"});

  explicit WheelSpeedSensor(std::string name) : Component(std::move(name)) {
    require(equal(floor(pulses_per_revolution), pulses_per_revolution), "pulses_per_revolution must be a whole number");
    const Expr pulses = floor(flange.phi * pulses_per_revolution / (2.0 * std::numbers::pi));
    const Expr count = 2.0 * std::numbers::pi / (pulses_per_revolution * samplePeriod);
    when(sample(startTime, samplePeriod),
         {counts == pulses, counting == 1.0, w_sample == ifelse(pre(counting), (pulses - pre(counts)) * count, 0.0)});
    equation(w == w_sample);
    equation(flange.tau == 0.0);
  }
};

}  // namespace acausal::vehicle
