#pragma once

#include "components/blocks/noise/partial_noise.hpp"

namespace acausal::blocks {

/// Uniform noise (MSL Blocks.Noise.UniformNoise): a sample uniformly
/// distributed in [y_min, y_max), drawn at startTime and every samplePeriod
/// after and held in between (y_off before startTime); reproducible from
/// globalSeed and localSeed (see PartialNoise).
struct UniformNoise : PartialNoise {
  Parameter y_min = parameter("y_min", 0.0);
  Parameter y_max = parameter("y_max", 1.0);

  explicit UniformNoise(std::string name) : PartialNoise(std::move(name)) {
    require(y_max > y_min, "y_max must exceed y_min");
    const auto [s1, s2] = previous_states();
    const lecuyer::Step next = lecuyer::step(s1, s2);
    draw(next, y_min + (y_max - y_min) * next.u);
  }
};

}  // namespace acausal::blocks
