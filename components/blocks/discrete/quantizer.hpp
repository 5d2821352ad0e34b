#pragma once

#include "connectors/signal.hpp"

namespace acausal::blocks {

/// Quantizer: an A/D converter of resolution q. At startTime and every
/// samplePeriod after, u is rounded to the nearest multiple of q,
/// y = q·floor(u/q + 0.5) (halves round up), and held in between; 0 before
/// the first sample. Rounding happens only at samples: a continuous rounding
/// would jump wherever u crosses a step, which the integrator cannot follow.
struct Quantizer : Component {
  RealInput u{*this, "u"};
  RealOutput y{*this, "y"};
  Parameter q = parameter("q", 0.01, {.description = "resolution"});
  Parameter samplePeriod = parameter("samplePeriod", 0.01, {.unit = "s", .min = 1e-15});
  Parameter startTime = parameter("startTime", 0.0, {.unit = "s"});
  Discrete ySample = discrete("ySample", {.description = "u rounded at the last sample"});

  explicit Quantizer(std::string name) : Component(std::move(name)) {
    require(q > 0.0, "the resolution q must be positive");
    when(sample(startTime, samplePeriod), {ySample == q * floor(u / q + 0.5)});
    equation(y == ySample);
  }
};

}  // namespace acausal::blocks
