#pragma once

#include <fmt/format.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "components/blocks/continuous/filter_coefficients.hpp"
#include "components/blocks/continuous/init.hpp"
#include "connectors/signal.hpp"

namespace acausal::blocks {

/// What MSL's structural parameters analogFilter, filterType and order of a
/// Filter choose: the number of its states and the form of its sections.
struct FilterOptions {
  AnalogFilter analogFilter = AnalogFilter::CriticalDamping;
  FilterType filterType = FilterType::LowPass;
  int order = 2;
};

/// MSL Blocks.Continuous.Filter: a low pass, high pass, band pass or band
/// stop filter of characteristic CriticalDamping, Bessel, Butterworth or
/// ChebyshevI, as MSL builds it: a base low pass with cut-off 1 rad/s (real
/// poles, complex pole pairs), transformed to f_cut (band: f_min … f_cut) and
/// written as first- and second-order sections in series, each with DC gain 1
/// (band pass: gain 1 at the centre √(f_min·f_cut); band stop: zero there):
///   real pole:  der(x) = r·(x - v), out = x (low pass) or v - x (high pass);
///   pole pair:  der(x1) = a·x1 - b·x2 + ku·v, der(x2) = b·x1 + a·x2,
///               out = x2 (low pass), k1·x1 + k2·x2 (band pass) or
///               k1·x1 + k2·x2 + v (high pass, band stop);
/// v the previous section's output, u/u_nominal at the first; y = gain·u_nominal·out
/// of the last. The states x_1 … x_nx (MSL's x[nx]) are real poles first, then
/// the pairs; nx = order (low, high pass) or 2·order (band pass, band stop).
/// normalized (default true): the amplitude at f_cut is -3 dB = 10^(-3/20)
/// (0.7079…; Butterworth is not rescaled, MSL's choice: 1/√2 at f_cut either
/// way). A_ripple [dB] (ChebyshevI only): the pass band ripple.
/// Differences from MSL 4.0.0, whose band filters leave the base sections'
/// gains out: its band pass has gain 1/(Π cr·Π c0) at the centre (1 only for
/// Butterworth) and its band stop's pole-pair sections have their zeros off
/// the centre; here the outputs k1, k2 are those of the exact transform
/// (same poles, same states' equations; filter_coefficients.hpp).
/// analogFilter, filterType and order are structural, a FilterOptions given
/// to the constructor (from Python only the defaults: a CriticalDamping low
/// pass of order 2); Bessel orders 1 … 20. f_cut, f_min, gain and A_ripple
/// change after compile() like other parameters: the coefficients are
/// expressions of them (filter_coefficients.hpp, MSL's Internal.Filter).
/// init (MSL, default SteadyState): der(x) = 0; InitialState: x_k = x_start_k;
/// InitialOutput: y = y_start with der(x_k) = 0 for k < nx; NoInit: the
/// states' start values.
struct Filter : Component {
  RealInput u{*this, "u"};
  RealOutput y{*this, "y"};
  Parameter f_cut = parameter("f_cut", 1.0, {.unit = "Hz", .min = 1e-15, .description = "cut-off frequency"});
  Parameter gain = parameter("gain", 1.0, {.description = "amplitude of the frequency response at zero frequency"});
  Parameter A_ripple = parameter(
      "A_ripple", 0.5, {.unit = "1", .min = 1e-15, .description = "pass band ripple in dB (ChebyshevI only), > 0"});
  Parameter f_min = parameter(
      "f_min", 0.0,
      {.unit = "Hz", .min = 0, .description = "band f_min … f_cut (band pass, band stop: -3 dB at both ends)"});
  Parameter normalized = parameter(
      "normalized", 1, {.description = "true: the amplitude at f_cut is -3 dB", .choices = {"false", "true"}});
  Parameter init = parameter("init", SteadyState, init_type_attributes());
  Parameter y_start = parameter("y_start", 0.0, {.description = "initial output (init = InitialOutput)"});
  Parameter u_nominal =
      parameter("u_nominal", 1.0, {.min = 1e-15, .description = "nominal input: the states are scaled by it"});
  const AnalogFilter analogFilter;
  const FilterType filterType;
  const int order;
  std::vector<Parameter> x_start;
  std::vector<Variable> x;

  explicit Filter(std::string name, FilterOptions options = {})
      : Component(std::move(name)),
        analogFilter(options.analogFilter),
        filterType(options.filterType),
        order(options.order) {
    namespace f = internal::filter;
    if (order < 1) throw ModelError(fmt::format("Filter '{}': order = {}; it must be at least 1", path(), order));
    if (analogFilter == AnalogFilter::Bessel && order > f::max_bessel_order)
      throw ModelError(fmt::format("Filter '{}': a Bessel filter of order {}; orders 1 to {} are available", path(),
                                   order, f::max_bessel_order));
    // The base low pass, normalized or not (compile() keeps the one chosen).
    const Expr is_normalized = chosen(normalized, 1);
    auto merge = [&](const f::Base<Expr>& yes, const f::Base<Expr>& no) {
      f::Base<Expr> out = yes;
      auto pick = [&](std::vector<Expr>& a, const std::vector<Expr>& b) {
        for (std::size_t i = 0; i < a.size(); ++i)
          if (!(a[i].is_const() && b[i].is_const() && a[i].value() == b[i].value())) a[i] = ifelse(is_normalized, a[i], b[i]);
      };
      pick(out.cr, no.cr), pick(out.c0, no.c0), pick(out.c1, no.c1);
      return out;
    };
    f::Base<Expr> base;
    switch (analogFilter) {
      case AnalogFilter::CriticalDamping:
        base = merge(f::convert<Expr>(f::critical_damping(order, true)), f::convert<Expr>(f::critical_damping(order, false)));
        break;
      case AnalogFilter::Bessel:
        base = merge(f::convert<Expr>(f::bessel(order, true)), f::convert<Expr>(f::bessel(order, false)));
        break;
      case AnalogFilter::Butterworth: base = f::convert<Expr>(f::butterworth(order)); break;
      case AnalogFilter::ChebyshevI:
        base = merge(f::chebyshev_i<Expr>(order, A_ripple, true), f::chebyshev_i<Expr>(order, A_ripple, false));
        break;
    }
    const bool band = filterType == FilterType::BandPass || filterType == FilterType::BandStop;
    f::Roots<Expr> roots;
    switch (filterType) {
      case FilterType::LowPass: roots = f::low_pass<Expr>(base, f_cut); break;
      case FilterType::HighPass: roots = f::high_pass<Expr>(base, f_cut); break;
      case FilterType::BandPass: roots = f::band_pass<Expr>(base, f_min, f_cut); break;
      case FilterType::BandStop: roots = f::band_stop<Expr>(base, f_min, f_cut); break;
    }
    if (band) {
      require(f_min > 0.0 && f_min < f_cut, "a band pass or band stop filter needs 0 < f_min < f_cut");
      // MSL's assertion: a section of the band filter must keep complex poles.
      std::vector<Expr> c0, c1, gains;
      f::band_coefficients<Expr>(base, f_min, f_cut, filterType == FilterType::BandStop, c0, c1, gains);
      Expr complex_poles = 1.0;
      for (std::size_t i = 0; i < c0.size(); ++i) complex_poles = complex_poles && c0[i] - c1[i] * c1[i] / 4.0 >= 0.0;
      require(complex_poles,
              "the band is too wide for this analog filter: a section would not have complex poles (MSL's "
              "assertion); narrow the band or choose another analogFilter");
    }
    const std::size_t nr = roots.r.size(), na = roots.a.size(), nx = nr + 2 * na;
    for (std::size_t k = 1; k <= nx; ++k) {
      x_start.push_back(parameter(fmt::format("x_start_{}", k), 0.0,
                                  {.description = fmt::format("initial value of x_{} (init = InitialState)", k)}));
      x.push_back(variable(fmt::format("x_{}", k), {.description = "filter state"}));
    }
    Expr v = u / u_nominal;
    for (std::size_t i = 0; i < nr; ++i) {
      equation(der(x[i]) == roots.r[i] * (x[i] - v));
      v = filterType == FilterType::LowPass ? Expr(x[i]) : v - x[i];
    }
    for (std::size_t i = 0; i < na; ++i) {
      const Variable& x1 = x[nr + 2 * i];
      const Variable& x2 = x[nr + 2 * i + 1];
      equation(der(x1) == roots.a[i] * x1 - roots.b[i] * x2 + roots.ku[i] * v);
      equation(der(x2) == roots.b[i] * x1 + roots.a[i] * x2);
      switch (filterType) {
        case FilterType::LowPass: v = x2; break;
        case FilterType::BandPass: v = roots.k1[i] * x1 + roots.k2[i] * x2; break;
        case FilterType::HighPass:
        case FilterType::BandStop: v = roots.k1[i] * x1 + roots.k2[i] * x2 + v; break;
      }
    }
    equation(y == gain * u_nominal * v);
    const Expr output = chosen(init, InitialOutput);
    for (std::size_t k = 0; k < nx; ++k) {
      initial_value(x[k], x_start[k], chosen(init, InitialState));
      initial_equation(der(x[k]) == 0.0, chosen(init, SteadyState) || (output && Expr(k + 1 < nx ? 1.0 : 0.0)));
    }
    initial_equation(y == y_start, output);
  }
};

}  // namespace acausal::blocks
