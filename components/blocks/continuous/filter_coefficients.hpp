// The coefficients of MSL's Continuous.Filter (Modelica.Blocks.Continuous.
// Internal.Filter, MSL 4.0.0), computed as MSL computes them: a base low pass
// with cut-off 1 rad/s as first-order factors (s + cr) and second-order factors
// (s² + c1·s + c0) (`base`), then moved to f_cut and turned into a high, band
// or band stop filter, and written as the real and complex-conjugate
// eigenvalues of the block's sections (`roots`). Templates on the number
// type: with double they give numbers, with Expr the block's expressions of
// its parameters (f_cut, f_min, A_ripple), so that changing one after
// compile() needs no recompilation.
//
// Where MSL solves an equation numerically at initialization, these use
// closed forms with the same solution: ChebyshevI's -3 dB frequency from the
// Chebyshev polynomial (MSL: normalizationFactor by Brent's method), and the
// band pass split of a pole pair from a quadratic (MSL: bandPassAlpha by
// Brent's method on a quartic). The Bessel base filter, a table of constants
// in MSL (orders 1…41, from high-precision symbolic computation), is computed
// here from the roots of the Bessel polynomial (orders 1 … 20). The band pass
// and band stop outputs differ from MSL 4.0.0's where those are wrong (see
// band_pass and band_stop).
#pragma once

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

namespace acausal::blocks {

/// MSL Modelica.Blocks.Types.AnalogFilter: the characteristic of a Filter.
enum class AnalogFilter { CriticalDamping, Bessel, Butterworth, ChebyshevI };

/// MSL Modelica.Blocks.Types.FilterType: what a Filter lets through.
enum class FilterType { LowPass, HighPass, BandPass, BandStop };

namespace internal::filter {

/// A base low pass filter, DC gain 1: Π cr/(s + cr) · Π c0/(s² + c1·s + c0)
/// (MSL's cr, c0, c1 of Internal.Filter.base).
template <class S>
struct Base {
  std::vector<S> cr, c0, c1;
};

/// The sections of the block (MSL's r, a, b, ku, k1, k2 of Internal.Filter.roots):
/// real poles der(x) = r·(x - u); complex pairs der(x1) = a·x1 - b·x2 + ku·u,
/// der(x2) = b·x1 + a·x2 with outputs as Filter describes.
template <class S>
struct Roots {
  std::vector<S> r, a, b, ku, k1, k2;
};

template <class S>
Base<S> convert(const Base<double>& base) {
  Base<S> out;
  for (double v : base.cr) out.cr.push_back(S(v));
  for (double v : base.c0) out.c0.push_back(S(v));
  for (double v : base.c1) out.c1.push_back(S(v));
  return out;
}

/// The -3 dB amplitude, 10^(-3/20) (MSL normalizes to it, not to 1/√2).
inline double minus_3db() { return std::pow(10.0, -3.0 / 20.0); }

/// |H(j·w)| of a base filter.
inline double amplitude(const Base<double>& base, double w) {
  double A2 = 1.0;
  for (double cr : base.cr) A2 *= (cr * cr + w * w) / (cr * cr);
  for (std::size_t i = 0; i < base.c0.size(); ++i) {
    const double re = base.c0[i] - w * w, im = base.c1[i] * w;
    A2 *= (re * re + im * im) / (base.c0[i] * base.c0[i]);
  }
  return 1.0 / std::sqrt(A2);
}

/// The frequency w [rad/s] where a base filter's amplitude is -3 dB (MSL
/// normalizationFactor): its amplitude falls monotonically for the base
/// filters it is used on, so bisection finds the one crossing to rounding.
inline double normalization_factor(const Base<double>& base) {
  const double beta = minus_3db();
  double lo = 0.0, hi = 1.0;
  while (amplitude(base, hi) >= beta) lo = hi, hi *= 2.0;
  for (int k = 0; k < 200 && hi - lo > 1e-16 * hi; ++k) {
    const double mid = 0.5 * (lo + hi);
    (amplitude(base, mid) >= beta ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

/// The base filter scaled in frequency by 1/alpha: s → alpha·s.
inline Base<double> scaled(Base<double> base, double alpha) {
  for (double& v : base.cr) v /= alpha;
  for (double& v : base.c1) v /= alpha;
  for (double& v : base.c0) v /= alpha * alpha;
  return base;
}

/// MSL base.CriticalDamping: `order` equal real poles, normalized to -3 dB at 1 rad/s.
inline Base<double> critical_damping(int order, bool normalized) {
  const double alpha = normalized ? std::sqrt(std::pow(10.0, 3.0 / 10.0 / order) - 1.0) : 1.0;
  return {std::vector<double>(static_cast<std::size_t>(order), 1.0 / alpha), {}, {}};
}

/// MSL base.Butterworth: poles on the unit circle; |H(j)| = 1/√2 (MSL leaves
/// it unnormalized: `normalized` does not change it).
inline Base<double> butterworth(int order) {
  Base<double> base;
  if (order % 2 == 1) base.cr.push_back(1.0);
  for (int i = 1; i <= order / 2; ++i) {
    base.c0.push_back(1.0);
    base.c1.push_back(-2.0 * std::cos(std::numbers::pi * (0.5 + (i - 0.5) / order)));
  }
  return base;
}

/// The highest Bessel order computed: up to it the coefficients agree with
/// MSL's table within 1e-14 (order <= 12) and 4e-10 (order 20); beyond, the
/// roots of the Bessel polynomial are too ill-conditioned for long double
/// (MSL's table, from high-precision symbolic computation, goes to 41).
constexpr int max_bessel_order = 20;

/// MSL base.Bessel: the reverse Bessel polynomial θ_n(s) = Σ (2n-k)!/((n-k)!·k!·2^(n-k))·s^k
/// over θ_n(0); normalized, scaled so that |H(j)| = 10^(-3/20) (MSL's table
/// holds the normalized one and the factor). Its roots by Aberth's
/// iteration, the polynomial evaluated by the recurrence
/// θ_n = (2n-1)·θ_(n-1) + s²·θ_(n-2) in long double; the pairs ordered by
/// increasing imaginary part, as in MSL's table. Orders 1 … max_bessel_order.
inline Base<double> bessel(int order, bool normalized) {
  if (order < 1 || order > max_bessel_order)
    throw std::invalid_argument("Bessel filter of order " + std::to_string(order) + ": orders 1 to " +
                                std::to_string(max_bessel_order) + " are available");
  using C = std::complex<long double>;
  const int n = order;
  auto theta = [n](C s, C& derivative) {
    C p0 = 1, p1 = s + C(1), d0 = 0, d1 = 1;
    if (n == 0) {
      derivative = 0;
      return p0;
    }
    for (int k = 2; k <= n; ++k) {
      const C p2 = C(2.0L * k - 1) * p1 + s * s * p0;
      const C d2 = C(2.0L * k - 1) * d1 + C(2) * s * p0 + s * s * d0;
      p0 = p1, p1 = p2, d0 = d1, d1 = d2;
    }
    derivative = d1;
    return p1;
  };
  // θ_n(0) = (2n)!/(n!·2^n): the product of the roots' magnitudes (θ_n is monic).
  long double theta0 = 1;
  for (int k = n + 1; k <= 2 * n; ++k) theta0 *= k / 2.0L;
  const long double R = std::pow(theta0, 1.0L / n);
  std::vector<C> z(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i)
    z[i] = std::polar(R, 2.0L * std::numbers::pi_v<long double> * (i + 0.25L) / n + 0.4L);
  // Beyond order 12 the steps end in rounding noise above the tolerance: the
  // iterations are capped, the roots then as good as the noise allows.
  for (int iteration = 0; iteration < 300; ++iteration) {
    long double largest = 0;
    for (int i = 0; i < n; ++i) {
      C derivative;
      const C value = theta(z[i], derivative);
      if (value == C(0)) continue;
      const C ratio = value / derivative;
      C sum = 0;
      for (int j = 0; j < n; ++j)
        if (j != i) sum += C(1) / (z[i] - z[j]);
      const C step = ratio / (C(1) - ratio * sum);
      z[i] -= step;
      largest = std::max(largest, std::abs(step) / std::abs(z[i]));
    }
    if (largest < 1e-18L) break;
  }
  Base<double> base;
  std::sort(z.begin(), z.end(), [](const C& a, const C& b) { return std::abs(a.imag()) < std::abs(b.imag()); });
  std::size_t next = 0;
  if (n % 2 == 1) base.cr.push_back(static_cast<double>(-z[next++].real()));
  std::vector<C> upper;
  for (; next < z.size(); ++next)
    if (z[next].imag() > 0) upper.push_back(z[next]);
  if (upper.size() != static_cast<std::size_t>(n / 2))
    throw std::runtime_error("Bessel filter of order " + std::to_string(n) + ": the roots did not converge");
  for (const C& p : upper) {
    base.c0.push_back(static_cast<double>(std::norm(p)));
    base.c1.push_back(static_cast<double>(-2.0L * p.real()));
  }
  return normalized ? scaled(base, normalization_factor(base)) : base;
}

/// MSL base.ChebyshevI: pass band ripple A_ripple [dB]. Normalized, the
/// -3 dB frequency of the unnormalized filter is the closed form
/// cosh(acosh(T)/order) with ε²·T² = 10^(3/10)·g - 1, g = 1 (odd order) or
/// 1 + ε² (even order: MSL's sections have DC gain 1, so the ripple peaks at
/// +A_ripple dB). For an odd order with A_ripple >= 3 dB the -3 dB point lies
/// in the ripple band, where MSL's search returns one of several crossings;
/// here it is the band edge 1 rad/s (no scaling).
template <class S>
Base<S> chebyshev_i(int order, const S& A_ripple, bool normalized) {
  using std::cosh, std::log, std::max, std::pow, std::sinh, std::sqrt;
  const S epsilon = sqrt(pow(S(10.0), A_ripple / 10.0) - 1.0);
  const S x = 1.0 / epsilon;
  const S fac = log(x + sqrt(x * x + 1.0)) / double(order);  // asinh(1/ε)/order
  const S sh = sinh(fac), ch = cosh(fac);
  S alpha = S(1.0);
  if (normalized) {
    const double g = std::pow(10.0, 3.0 / 10.0);
    const S K = order % 2 == 1 ? S(g - 1.0) : g * (1.0 + epsilon * epsilon) - 1.0;
    const S T = max(sqrt(K) / epsilon, S(1.0));
    alpha = cosh(log(T + sqrt(T * T - 1.0)) / double(order));
  }
  Base<S> base;
  if (order % 2 == 1) base.cr.push_back(sh / alpha);
  for (int i = 1; i <= order / 2; ++i) {
    const double phi = order % 2 == 1 ? i * std::numbers::pi / order : (2 * i - 1) * std::numbers::pi / (2.0 * order);
    const double c = std::cos(phi);
    base.c0.push_back((ch * ch - c * c) / (alpha * alpha));
    base.c1.push_back(2.0 * c * sh / alpha);
  }
  return base;
}

/// MSL roots.lowPass: the base filter at w_cut = 2π·f_cut; outputs y = x (real), y = x2 (pair).
template <class S>
Roots<S> low_pass(const Base<S>& base, const S& f_cut) {
  using std::sqrt;
  const S w = 2.0 * std::numbers::pi * f_cut;
  Roots<S> out;
  for (const S& cr : base.cr) out.r.push_back(-(w * cr));
  for (std::size_t i = 0; i < base.c0.size(); ++i) {
    const S c0 = w * w * base.c0[i], c1 = w * base.c1[i];
    const S a = -c1 / 2.0, b = sqrt(c0 - a * a);
    out.a.push_back(a), out.b.push_back(b), out.ku.push_back(c0 / b);
  }
  return out;
}

/// MSL roots.highPass: s → w_cut/s; outputs y = -x + u (real), y = k1·x1 + k2·x2 + u (pair).
template <class S>
Roots<S> high_pass(const Base<S>& base, const S& f_cut) {
  using std::sqrt;
  const S w = 2.0 * std::numbers::pi * f_cut;
  Roots<S> out;
  for (const S& cr : base.cr) out.r.push_back(-(w / cr));
  for (std::size_t i = 0; i < base.c0.size(); ++i) {
    const S c0 = w * w / base.c0[i], c1 = w * base.c1[i] / base.c0[i];
    const S a = -c1 / 2.0, b = sqrt(c0 - a * a), ku = c0 / b;
    const S ba2 = (b / a) * (b / a);
    out.a.push_back(a), out.b.push_back(b), out.ku.push_back(ku);
    out.k1.push_back(2.0 * a / ku), out.k2.push_back((1.0 - ba2) / (1.0 + ba2));
  }
  return out;
}

/// MSL Utilities.bandPassAlpha: alpha in (0, 1) with alpha² = z solving
/// z² + (a·w·z/(1+z))² - (2 + b·w²)·z + 1 = 0 (the factors of the band pass
/// quartic). With t = z + 1/z and v = t + 2 it is v² - (4 + b·w²)·v + a²·w² = 0,
/// whose root v > 4 (one exists when b > a²/4, complex poles) gives z.
template <class S>
S band_pass_alpha(const S& a, const S& b, const S& w) {
  using std::sqrt;
  const S p = 4.0 + b * w * w;
  const S v = (p + sqrt(p * p - 4.0 * a * a * w * w)) / 2.0;
  const S t = v - 2.0;
  return sqrt(2.0 / (t + sqrt(t * t - 4.0)));
}

/// MSL coefficients.bandPass/bandStop: f0 = √(f_min·f_max), each real pole
/// of the base filter becomes one second-order section, each pole pair two
/// (c0, c1, in order); `stop` chooses the band stop. gain[i] is the factor of
/// section i's numerator that gives the base section's own DC gain 1 at the
/// centre (cr, or √c0 for each half of a pair): MSL 4.0.0 leaves it out
/// (see band_pass).
template <class S>
void band_coefficients(const Base<S>& base, const S& f_min, const S& f_max, bool stop, std::vector<S>& c0,
                       std::vector<S>& c1, std::vector<S>& gain) {
  using std::sqrt;
  const S f0 = sqrt(f_min * f_max);
  const S w_cut = 2.0 * std::numbers::pi * f0;
  const S w_band = (f_max - f_min) / f0;
  const S w_cut2 = w_cut * w_cut;
  for (const S& cr : base.cr) {
    c1.push_back(stop ? w_cut * w_band / cr : w_cut * cr * w_band);
    c0.push_back(w_cut2);
    gain.push_back(cr);
  }
  for (std::size_t i = 0; i < base.c0.size(); ++i) {
    const S ww = stop ? w_band / base.c0[i] : w_band;
    const S alpha = band_pass_alpha(base.c1[i], base.c0[i], ww);
    const S c = base.c1[i] * ww / (alpha + 1.0 / alpha);
    c1.push_back(w_cut * c / alpha);
    c1.push_back(w_cut * c * alpha);
    c0.push_back(w_cut2 / (alpha * alpha));
    c0.push_back(w_cut2 * alpha * alpha);
    gain.push_back(sqrt(base.c0[i]));
    gain.push_back(sqrt(base.c0[i]));
  }
}

/// MSL roots.bandPass: section i is cn_i·s/(s² + c1·s + c0), outputs
/// y = k1·x1 + k2·x2 (no feedthrough). MSL 4.0.0 uses cn = w_band·w_cut for
/// every section, the transform of 1/(s + cr) and 1/(s² + c1·s + c0) rather
/// than of the base filter's sections with DC gain 1, so its gain at the
/// centre is 1/(Π cr·Π c0) (1 only for Butterworth). Here
/// cn_i = w_band·w_cut·gain_i: gain 1 at the centre, -3 dB (normalized) at
/// f_min and f_max, as MSL documents; same poles and states' equations.
template <class S>
Roots<S> band_pass(const Base<S>& base, const S& f_min, const S& f_max) {
  using std::sqrt;
  std::vector<S> c0, c1, gain;
  band_coefficients(base, f_min, f_max, false, c0, c1, gain);
  const S f0 = sqrt(f_min * f_max);
  const S cn = (f_max - f_min) / f0 * (2.0 * std::numbers::pi * f0);  // w_band·w_cut
  Roots<S> out;
  for (std::size_t i = 0; i < c0.size(); ++i) {
    const S a = -c1[i] / 2.0, b = sqrt(c0[i] - a * a), ku = c0[i] / b;
    out.a.push_back(a), out.b.push_back(b), out.ku.push_back(ku);
    out.k1.push_back(cn * gain[i] / ku), out.k2.push_back(cn * gain[i] * a / (b * ku));
  }
  return out;
}

/// MSL roots.bandStop: section i is (s² + w_cut²)/(s² + c1·s + c0), outputs
/// y = k1·x1 + k2·x2 + u. MSL 4.0.0 writes the numerator s² + c0_i, which is
/// s² + w_cut² only for the sections of real poles: for a pole pair its zeros
/// are at w_cut/alpha and w_cut·alpha instead of the centre (a Butterworth
/// band stop of order 2 passes 52 % at the centre). Here every section has
/// its zeros at the centre, as the transform gives; same poles and states' equations.
template <class S>
Roots<S> band_stop(const Base<S>& base, const S& f_min, const S& f_max) {
  using std::sqrt;
  std::vector<S> c0, c1, gain;
  band_coefficients(base, f_min, f_max, true, c0, c1, gain);
  const S w_cut = 2.0 * std::numbers::pi * sqrt(f_min * f_max);
  Roots<S> out;
  for (std::size_t i = 0; i < c0.size(); ++i) {
    const S a = -c1[i] / 2.0, b = sqrt(c0[i] - a * a), ku = c0[i] / b;
    out.a.push_back(a), out.b.push_back(b), out.ku.push_back(ku);
    out.k1.push_back(2.0 * a / ku), out.k2.push_back((w_cut * w_cut + a * a - b * b) / (b * ku));
  }
  return out;
}

}  // namespace internal::filter
}  // namespace acausal::blocks
