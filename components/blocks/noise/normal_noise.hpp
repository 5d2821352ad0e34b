#pragma once

#include <numbers>

#include "components/blocks/noise/partial_noise.hpp"

namespace acausal::blocks {

/// Normal noise (MSL Blocks.Noise.NormalNoise): a sample of the normal
/// distribution with mean mu and standard deviation sigma, drawn at startTime
/// and every samplePeriod after and held in between (y_off before startTime);
/// reproducible from globalSeed and localSeed (see PartialNoise). Each sample
/// takes two uniform numbers u1, u2 through Box–Muller,
/// mu + sigma·sqrt(-2·log(u1))·cos(2π·u2): exact in distribution, where MSL's
/// default inverts the normal CDF; u1 is never 0, so the sample is finite
/// (|y - mu| < 6.6·sigma).
struct NormalNoise : PartialNoise {
  Parameter mu = parameter("mu", 0.0);
  Parameter sigma = parameter("sigma", 1.0, {.min = 0});

  explicit NormalNoise(std::string name) : PartialNoise(std::move(name)) {
    const auto [s1, s2] = previous_states();
    const lecuyer::Step first = lecuyer::step(s1, s2), second = lecuyer::step(first.state1, first.state2);
    draw(second, mu + sigma * sqrt(-2.0 * log(first.u)) * cos(2.0 * std::numbers::pi * second.u));
  }
};

}  // namespace acausal::blocks
