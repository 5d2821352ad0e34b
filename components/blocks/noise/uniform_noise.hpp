#pragma once

#include "components/blocks/noise/partial_noise.hpp"

namespace acausal::blocks {

/// Uniform noise (MSL Blocks.Noise.UniformNoise): at startTime and every
/// samplePeriod after, MSL's Uniform.quantile(r_raw, y_min, y_max) =
/// r_raw·(y_max - y_min) + y_min of the next number r_raw in (0, 1] of MSL's
/// stream, held in between (y_off before startTime); see PartialNoise.
struct UniformNoise : PartialNoise {
  Parameter y_min = parameter("y_min", 0.0);
  Parameter y_max = parameter("y_max", 1.0);

  explicit UniformNoise(std::string name) : PartialNoise(std::move(name)) {
    require(y_max > y_min, "y_max must exceed y_min");
    draw(raw_number() * (y_max - y_min) + y_min);
  }
};

}  // namespace acausal::blocks
