// MSL's random number generators (Modelica.Math.Random v4.0.0, ModelicaRandom.c)
// in 64-bit integers, written from the C definitions rather than from the
// library's expressions: the noise blocks must match them exactly.
#pragma once

#include <cmath>
#include <cstdint>

namespace acausal::test {

struct MslXorshift128plus {
  std::uint64_t s0 = 0, s1 = 0;  // MSL's state[1:2] and state[3:4] as 64-bit words

  static double to_unit(std::uint64_t x) { return static_cast<double>(static_cast<std::int64_t>(x)) * 0x1p-64 + 0.5; }
  static std::uint64_t xorshift64star(std::uint64_t x) {
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    return x * 2685821657736338717ull;
  }
  // Xorshift128plus.initialState(localSeed, globalSeed) via initialStateWithXorshift64star.
  MslXorshift128plus(double global_seed, double local_seed) {
    auto local = static_cast<std::int32_t>(static_cast<std::int64_t>(local_seed));
    const auto global = static_cast<std::int32_t>(static_cast<std::int64_t>(global_seed));
    if (local == 0 && global == 0) local = 126247697;
    std::uint64_t x = (std::uint64_t{static_cast<std::uint32_t>(global)} << 32) | static_cast<std::uint32_t>(local);
    for (int i = 0; i < 10; ++i) x = xorshift64star(x);
    s0 = x;
    s1 = xorshift64star(x);
  }
  // Xorshift128plus.random: the number in (0, 1], the state advanced.
  double next() {
    std::uint64_t a = s0;
    const std::uint64_t b = s1;
    s0 = b;
    a ^= a << 23;
    s1 = (a ^ b ^ (a >> 17) ^ (b >> 26)) + b;
    return to_unit(s1);
  }
  // MSL's Integer state[k] (1-based) as the unsigned halves the blocks hold.
  double state(int k) const {
    const std::uint64_t w = k <= 2 ? s0 : s1;
    return static_cast<double>(k % 2 == 1 ? (w & 0xffffffffu) : (w >> 32));
  }
};

// Normal.cumulative for checking NormalNoise's quantile: Phi((y - mu)/sigma).
inline double normal_cdf(double y, double mu, double sigma) { return 0.5 * std::erfc(-(y - mu) / (sigma * std::sqrt(2.0))); }

}  // namespace acausal::test
