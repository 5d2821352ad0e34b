#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "connectors/signal.hpp"

namespace acausal::blocks {

/// L'Ecuyer's combined multiplicative congruential generator (Commun. ACM
/// 31(6), 1988), written in expressions: s1 := a1·s1 mod m1, s2 := a2·s2 mod m2,
/// z = s1 - s2 (plus m1 - 1 when below 1), u = z/m1 in (0, 1); period about
/// 2.3e18. Every product stays below 2^53, so the double arithmetic of the tape
/// (and of native code) is exact: the same seeds give the same numbers, to the
/// bit, on every machine.
namespace lecuyer {

inline constexpr double m1 = 2147483563.0, a1 = 40014.0;
inline constexpr double m2 = 2147483399.0, a2 = 40692.0;

/// The states after one step from (s1, s2), and the uniform number drawn.
struct Step {
  Expr state1, state2, u;
};

inline Step step(const Expr& s1, const Expr& s2) {
  const Expr next1 = mod(a1 * s1, m1), next2 = mod(a2 * s2, m2);
  const Expr z = next1 - next2;
  return {next1, next2, ifelse(z < 1.0, z + (m1 - 1.0), z) / m1};
}

/// a·b mod m, exactly, for whole numbers a, b, m below 2^31: b is split in
/// 16-bit halves so that no partial product reaches 2^53.
inline Expr mulmod(const Expr& a, const Expr& b, double m) {
  const Expr high = floor(b / 65536.0), low = b - high * 65536.0;
  return mod(mod(a * high, m) * 65536.0 + a * low, m);
}

/// The first states from two seeds (whole numbers, taken modulo 2^31). The
/// seeds are mixed by a product and a square mod m (a polynomial of degree 4):
/// a linear mix would make neighbouring seeds draw numbers that differ by the
/// same amount, so the k-th draws of seeds 1, 2, 3, ... would be correlated.
inline std::pair<Expr, Expr> seed(const Expr& global_seed, const Expr& local_seed) {
  const double bits31 = 2147483648.0;
  const Expr g = mod(floor(global_seed), bits31), l = mod(floor(local_seed), bits31);
  Expr h1 = mulmod(mod(g * a1 + l + 1.0, m1), mod(l * a2 + g + 7.0, m1), m1);
  Expr h2 = mulmod(mod(l * a1 + g + 3.0, m2), mod(g * a2 + l + 11.0, m2), m2);
  h1 = mod(mulmod(h1, h1, m1) + 12345.0, m1);
  h2 = mod(mulmod(h2, h2, m2) + 54321.0, m2);
  return {1.0 + mod(h1, m1 - 1.0), 1.0 + mod(h2, m2 - 1.0)};
}

/// A seed from an instance name (FNV-1a, modulo 2^31), as MSL's
/// automaticLocalSeed: blocks with different names draw different streams.
inline double name_seed(const std::string& name) {
  std::uint32_t h = 2166136261u;
  for (unsigned char c : name) h = (h ^ c) * 16777619u;
  return static_cast<double>(h & 0x7fffffffu);
}

}  // namespace lecuyer

/// The sampled random source shared by the noise blocks (MSL
/// Blocks.Interfaces.PartialNoise): at startTime and every samplePeriod after,
/// the generator steps and a new sample r is drawn and held; y is y_off
/// before the first sample. The stream is fixed by globalSeed and localSeed
/// (MSL's names; both ordinary parameters, so a new seed needs no recompiling):
/// the same seeds give the same signal in every run. localSeed defaults to a
/// hash of the block's name, so two blocks sharing globalSeed still differ.
struct PartialNoise : Component {
  RealOutput y{*this, "y"};
  Parameter samplePeriod = parameter("samplePeriod", 0.01, {.unit = "s", .min = 1e-15});
  Parameter startTime = parameter("startTime", 0.0, {.unit = "s"});
  Parameter y_off = parameter("y_off", 0.0, {.description = "the output before startTime"});
  Parameter globalSeed = parameter("globalSeed", 67867967.0, {.description = "a whole number, taken modulo 2^31"});
  Parameter localSeed =
      parameter("localSeed", lecuyer::name_seed(name()), {.description = "a whole number, taken modulo 2^31"});
  // 0 until the first sample: the generator's states are never 0 once seeded.
  Discrete state1 = discrete("state1", {.kind = DiscreteKind::integer, .description = "generator state (0: unseeded)"});
  Discrete state2 = discrete("state2", {.kind = DiscreteKind::integer, .description = "generator state (0: unseeded)"});
  Discrete r = discrete("r", {.description = "the sample held until the next one"});

 protected:
  explicit PartialNoise(std::string name) : Component(std::move(name)) {
    equation(y == ifelse(state1 < 0.5, y_off, r));
  }

  /// The generator's states before this sample: the seeded ones at the first.
  std::pair<Expr, Expr> previous_states() const {
    const auto [seeded1, seeded2] = lecuyer::seed(globalSeed, localSeed);
    const Expr unseeded = pre(state1) < 0.5;
    return {ifelse(unseeded, seeded1, pre(state1)), ifelse(unseeded, seeded2, pre(state2))};
  }

  /// At each sample: the states after `last`, and r = value.
  void draw(const lecuyer::Step& last, const Expr& value) {
    when(sample(startTime, samplePeriod), {state1 == last.state1, state2 == last.state2, r == value});
  }
};

}  // namespace acausal::blocks
