#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "solver/symbolic/expr.hpp"
#include "solver/symbolic/table.hpp"

namespace acausal::blocks {

/// MSL's random number generators (Modelica.Math.Random, v4.0.0), written in
/// expressions so that their state lives in a block's discrete variables:
/// Xorshift64star (2 Integers of state), Xorshift128plus (4 Integers), the
/// seeding Utilities.initialStateWithXorshift64star, and
/// Modelica.Utilities.Strings.hashString for automaticLocalSeed. Same seeds,
/// same numbers as MSL's C code (ModelicaRandom.c), to the bit.
///
/// A 64-bit word is two 32-bit halves {lo, hi} held as whole doubles in
/// [0, 2^32) (MSL's Integer pair {s32[0], s32[1]} read as unsigned). Shifts,
/// additions and the 64-bit product are floor/mod arithmetic on whole numbers
/// below 2^53, exact in doubles; xor goes byte by byte through a lookup table
/// (ConstantSegments, so its value is the stored byte, not an interpolation).
namespace msl_random {

inline constexpr double two16 = 65536.0, two32 = 4294967296.0;

/// MSL's Strings.hashString (ModelicaStrings_hashString: uthash's AP hash),
/// as the signed 32-bit Integer MSL returns.
inline std::int32_t hash_string(const std::string& s) {
  std::uint32_t h = 0xAAAAAAAAu;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const std::uint32_t c = static_cast<unsigned char>(s[i]);
    h ^= (i & 1) == 0 ? ((h << 7) ^ (c * (h >> 3))) : ~((h << 11) + (c ^ (h >> 5)));
  }
  return static_cast<std::int32_t>(h);
}

/// a xor b for whole numbers a, b in [0, 256): x = 256·a + b read from a table.
inline Expr xor8(const Expr& a, const Expr& b) {
  static const Table1D xor_table = [] {
    Table1D t;
    t.smoothness = TableSmoothness::constant;
    t.extrapolation = TableExtrapolation::hold;
    t.x.resize(65536);
    t.y.resize(65536);
    for (unsigned k = 0; k < 65536; ++k) {
      t.x[k] = k;
      t.y[k] = static_cast<double>((k >> 8) ^ (k & 255u));
    }
    return t;
  }();
  return table(256.0 * a + b, xor_table);
}

/// floor(a / 2^k) and a mod 2^k for a whole a >= 0.
inline Expr shr(const Expr& a, int k) { return floor(a / static_cast<double>(std::uint64_t{1} << k)); }
inline Expr low_bits(const Expr& a, int k) { return mod(a, static_cast<double>(std::uint64_t{1} << k)); }

/// a xor b for whole numbers in [0, 2^32).
inline Expr xor32(const Expr& a, const Expr& b) {
  Expr out = 0.0;
  for (int byte = 0; byte < 4; ++byte) {
    const double scale = static_cast<double>(std::uint64_t{1} << (8 * byte));
    const Expr ab = low_bits(shr(a, 8 * byte), 8), bb = low_bits(shr(b, 8 * byte), 8);
    out = out + scale * xor8(ab, bb);
  }
  return out;
}

/// A 64-bit unsigned word.
struct Word {
  Expr lo, hi;
};

inline Word operator^(const Word& a, const Word& b) { return {xor32(a.lo, b.lo), xor32(a.hi, b.hi)}; }

/// w >> k and (w << k) mod 2^64, 0 < k < 32.
inline Word shift_right(const Word& w, int k) {
  return {shr(w.lo, k) + low_bits(w.hi, k) * static_cast<double>(std::uint64_t{1} << (32 - k)), shr(w.hi, k)};
}
inline Word shift_left(const Word& w, int k) {
  const double up = static_cast<double>(std::uint64_t{1} << k);
  return {low_bits(w.lo, 32 - k) * up, low_bits(w.hi, 32 - k) * up + shr(w.lo, 32 - k)};
}

/// (a + b) mod 2^64.
inline Word add(const Word& a, const Word& b) {
  const Expr lo = a.lo + b.lo, carry = floor(lo / two32);
  return {lo - carry * two32, mod(a.hi + b.hi + carry, two32)};
}

/// (w · c) mod 2^64 for a constant c, in 16-bit limbs (partial sums < 2^36).
inline Word multiply(const Word& w, std::uint64_t c) {
  const Expr x[4] = {low_bits(w.lo, 16), shr(w.lo, 16), low_bits(w.hi, 16), shr(w.hi, 16)};
  double cl[4];
  for (int j = 0; j < 4; ++j) cl[j] = static_cast<double>((c >> (16 * j)) & 0xffffu);
  Expr limb[4], carry = 0.0;
  for (int k = 0; k < 4; ++k) {
    Expr sum = carry;
    for (int i = 0; i <= k; ++i)
      if (cl[k - i] != 0.0) sum = sum + x[i] * cl[k - i];
    limb[k] = low_bits(sum, 16);
    carry = shr(sum, 16);
  }
  return {limb[0] + limb[1] * two16, limb[2] + limb[3] * two16};
}

/// ModelicaRandom_RAND: the word read as a signed 64-bit integer, to double,
/// times 2^-64, plus 0.5: a number in (0, 1] (one rounding in the sum, as the
/// C conversion of the integer; the rest is exact).
inline Expr to_unit(const Word& w) {
  const Expr signed_hi = w.hi - floor(w.hi / 2147483648.0) * two32;
  return (signed_hi * two32 + w.lo) * 5.42101086242752217004e-20 + 0.5;
}

/// A signed 32-bit Integer (a seed) as its unsigned bit pattern.
inline Expr unsigned32(const Expr& i) { return mod(floor(i), two32); }

/// Xorshift64star.random: the next state (and the number is to_unit of it).
inline Word xorshift64star(Word x) {
  x = x ^ shift_right(x, 12);
  x = x ^ shift_left(x, 25);
  x = x ^ shift_right(x, 27);
  return multiply(x, 2685821657736338717ull);
}

/// Xorshift64star.initialState(localSeed, globalSeed): {localSeed, globalSeed}
/// (126247697 for a local seed when both are 0), then 10 steps.
inline Word xorshift64star_initial_state(const Expr& local_seed, const Expr& global_seed) {
  const Expr both_zero = abs(floor(local_seed)) + abs(floor(global_seed)) < 0.5;
  Word x{unsigned32(ifelse(both_zero, 126247697.0, local_seed)), unsigned32(global_seed)};
  for (int i = 0; i < 10; ++i) x = xorshift64star(x);
  return x;
}

/// Xorshift128plus state: words s[0] (MSL state[1:2]) and s[1] (state[3:4]).
struct State128 {
  Word s0, s1;
};

/// Xorshift128plus.initialState = Utilities.initialStateWithXorshift64star(local, global, 4):
/// the Xorshift64star initial state, then one Xorshift64star step of it.
inline State128 xorshift128plus_initial_state(const Expr& local_seed, const Expr& global_seed) {
  const Word first = xorshift64star_initial_state(local_seed, global_seed);
  return {first, xorshift64star(first)};
}

/// Xorshift128plus.random: the next state; the number drawn is to_unit(next.s1).
inline State128 xorshift128plus(const State128& s) {
  Word s1 = s.s0;
  const Word s0 = s.s1;
  s1 = s1 ^ shift_left(s1, 23);
  return {s0, add(s1 ^ s0 ^ shift_right(s1, 17) ^ shift_right(s0, 26), s0)};
}

}  // namespace msl_random

}  // namespace acausal::blocks
