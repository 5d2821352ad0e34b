#pragma once

#include "connectors/signal.hpp"

namespace acausal::blocks {

/// Sampler (MSL Blocks.Discrete.Sampler, a zero-order hold): y takes the value
/// of u at startTime and every samplePeriod after, and holds it in between;
/// 0 before the first sample. The samples are time events.
struct Sampler : Component {
  RealInput u{*this, "u"};
  RealOutput y{*this, "y"};
  Parameter samplePeriod = parameter("samplePeriod", 0.01, {.unit = "s", .min = 1e-15});
  Parameter startTime = parameter("startTime", 0.0, {.unit = "s"});
  Discrete ySample = discrete("ySample", {.description = "u at the last sample"});

  explicit Sampler(std::string name) : Component(std::move(name)) {
    when(sample(startTime, samplePeriod), {ySample == u});
    equation(y == ySample);
  }
};

}  // namespace acausal::blocks
