// MSL Blocks (4.0.0): Continuous.Filter, CriticalDamping, Der, TransferFunction,
// StateSpace and the sources Sinc, ExpSine and Sine/CosineVariableFrequencyAndAmplitude,
// against closed forms (tolerances stated at each check) and the MSL examples
// Blocks.Examples.Filter, FilterWithDifferentiation, FilterWithRiseTime,
// CompareSincExpSine and Modulation against their MAP-LIB reference results
// (tests/data/msl/README.md), every signal within 1e-3 of its range as in the
// other MSL tests.
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <functional>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

#include "msl_reference.hpp"
#include "linear_response.hpp"
#include "support.hpp"

namespace test_msl_filters {

using namespace acausal;
using namespace acausal::test;
using Catch::Matchers::Contains;
using blocks::AnalogFilter;
using blocks::FilterType;

namespace {

constexpr double pi = std::numbers::pi;
const double minus_3db = std::pow(10.0, -3.0 / 20.0);  // MSL's normalization: |H(f_cut)| = -3 dB


// |G(j·2π·f)| of a compiled block from a Constant "source" (its k the input) to `output`.
struct FrequencyResponse {
  LinearModel lin;
  double amplitude(double f) const { return std::abs(transfer(lin, {0.0, 2 * pi * f})); }
};

template <class Block, class... Options>
FrequencyResponse frequency_response(const ParameterValues& values, Options&&... options) {
  Model m("response");
  auto& source = m.add<blocks::Constant>("source", {{"k", 0.0}});
  auto& block = m.add<Block>("block", values, std::forward<Options>(options)...);
  m.connect(source.y, block.u);
  Simulator sim = compile_checked(m);
  Result r = sim.simulate(run_for(0.01, 0.01));
  return {linearize(r, 0.01, {"source.k"}, {"block.y"})};
}

// worst() where a row at an event instant (its time twice) is read as a left
// limit (the first) or a right limit (the second): expected(t) is evaluated
// just before t for the first.
double worst_across_events(const Result& r, const std::string& name, const std::function<double(double)>& expected) {
  const auto& t = r.time();
  return worst(r, name, [&](double time, std::size_t k) {
    const bool left = k + 1 < t.size() && t[k + 1] == time;
    return expected(left ? std::nextafter(time, -1e300) : time);
  });
}

const char* name_of(AnalogFilter a) {
  switch (a) {
    case AnalogFilter::CriticalDamping: return "CriticalDamping";
    case AnalogFilter::Bessel: return "Bessel";
    case AnalogFilter::Butterworth: return "Butterworth";
    case AnalogFilter::ChebyshevI: return "ChebyshevI";
  }
  return "";
}

}  // namespace

TEST_CASE("Filter base coefficients: Bessel as MSL's table, ChebyshevI's closed-form -3 dB point as MSL's search",
          "[library][blocks][filter]") {
  namespace f = blocks::internal::filter;
  // MSL 4.0.0 Internal.Filter.Utilities.BesselBaseCoefficients: den1 = {a} (a·p + 1),
  // den2 = {b2, b1} (b2·p² + b1·p + 1), normalized; alpha = 1/w0.
  const f::Base<double> b3 = f::bessel(3, true), b4 = f::bessel(4, true);
  CHECK(b3.cr[0] == Approx(1 / 0.7548574865985343).epsilon(1e-14));
  CHECK(b3.c0[0] == Approx(1 / 0.4756958028827457).epsilon(1e-14));
  CHECK(b3.c1[0] == Approx(0.9980615136104388 / 0.4756958028827457).epsilon(1e-14));
  CHECK(b4.c0[0] == Approx(1 / 0.4873729247240677).epsilon(1e-14));
  CHECK(b4.c1[0] == Approx(1.337564170455762 / 0.4873729247240677).epsilon(1e-14));
  CHECK(b4.c0[1] == Approx(1 / 0.3877724315741958).epsilon(1e-14));
  CHECK(b4.c1[1] == Approx(0.7730405590839861 / 0.3877724315741958).epsilon(1e-14));
  // Not normalized: MSL scales the normalized base by alpha (order 3: 0.5704770156982642).
  CHECK(f::bessel(3, false).cr[0] == Approx(1 / (0.7548574865985343 * 0.5704770156982642)).epsilon(1e-14));
  CHECK_THROWS_AS(f::bessel(21, true), std::invalid_argument);
  // ChebyshevI normalized: the -3 dB frequency by bisection on |H| (MSL's
  // normalizationFactor) equals the closed form, within 1e-12.
  for (int order = 1; order <= 8; ++order)
    for (double A_ripple : {0.1, 0.5, 1.0, 2.0}) {
      INFO("order " << order << ", A_ripple " << A_ripple);
      const f::Base<double> raw = f::chebyshev_i(order, A_ripple, false);
      const f::Base<double> searched = f::scaled(raw, f::normalization_factor(raw));
      const f::Base<double> closed = f::chebyshev_i(order, A_ripple, true);
      for (std::size_t i = 0; i < closed.cr.size(); ++i) CHECK(closed.cr[i] == Approx(searched.cr[i]).epsilon(1e-12));
      for (std::size_t i = 0; i < closed.c0.size(); ++i) {
        CHECK(closed.c0[i] == Approx(searched.c0[i]).epsilon(1e-12));
        CHECK(closed.c1[i] == Approx(searched.c1[i]).epsilon(1e-12));
      }
      CHECK(f::amplitude(closed, 1.0) == Approx(minus_3db).epsilon(1e-12));
    }
  // bandPassAlpha: the closed form solves MSL's residue in (0, 1).
  for (double a : {0.5, 1.0, 1.9})
    for (double w : {0.1, 0.5, 2.0}) {
      const double b = 1.2, z = std::pow(f::band_pass_alpha(a, b, w), 2);
      CHECK(z > 0.0);
      CHECK(z < 1.0);
      CHECK(std::fabs(z * z + std::pow(a * w * z / (1 + z), 2) - (2 + b * w * w) * z + 1) < 1e-13);
    }
}

TEST_CASE("Filter frequency responses by linearize(): -3 dB at f_cut (Butterworth 1/sqrt(2)), gain, band edges",
          "[library][blocks][filter][analysis]") {
  const double f_cut = 2.0, f_min = 1.2, f0 = std::sqrt(f_min * f_cut), gain = 1.5;
  for (AnalogFilter analog :
       {AnalogFilter::CriticalDamping, AnalogFilter::Bessel, AnalogFilter::Butterworth, AnalogFilter::ChebyshevI}) {
    // The amplitude at the band edges: MSL normalizes to -3 dB except Butterworth (1/√2 by construction).
    const double edge = (analog == AnalogFilter::Butterworth ? 1 / std::sqrt(2.0) : minus_3db) * gain;
    for (int order : {1, 2, 3, 4}) {
      INFO(name_of(analog) << " of order " << order);
      const ParameterValues values{{"f_cut", f_cut}, {"f_min", f_min}, {"gain", gain}};
      const auto low = frequency_response<blocks::Filter>(values, blocks::FilterOptions{analog, FilterType::LowPass, order});
      CHECK(low.lin.A.rows == order);
      CHECK(low.amplitude(f_cut) == Approx(edge).epsilon(1e-9));
      CHECK(low.amplitude(0.0) == Approx(gain).epsilon(1e-12));
      CHECK(low.amplitude(1e3 * f_cut) < 1e-2 * gain);
      const auto high = frequency_response<blocks::Filter>(values, blocks::FilterOptions{analog, FilterType::HighPass, order});
      CHECK(high.lin.A.rows == order);
      CHECK(high.amplitude(f_cut) == Approx(edge).epsilon(1e-9));
      CHECK(high.amplitude(1e6 * f_cut) == Approx(gain).epsilon(1e-6));
      CHECK(high.amplitude(0.0) < 1e-12);
      const auto pass = frequency_response<blocks::Filter>(values, blocks::FilterOptions{analog, FilterType::BandPass, order});
      CHECK(pass.lin.A.rows == 2 * order);
      CHECK(pass.amplitude(f_min) == Approx(edge).epsilon(1e-9));
      CHECK(pass.amplitude(f_cut) == Approx(edge).epsilon(1e-9));
      CHECK(pass.amplitude(f0) == Approx(gain).epsilon(1e-9));
      CHECK(pass.amplitude(0.0) < 1e-12);
      const auto stop = frequency_response<blocks::Filter>(values, blocks::FilterOptions{analog, FilterType::BandStop, order});
      CHECK(stop.lin.A.rows == 2 * order);
      CHECK(stop.amplitude(f_min) == Approx(edge).epsilon(1e-9));
      CHECK(stop.amplitude(f_cut) == Approx(edge).epsilon(1e-9));
      CHECK(stop.amplitude(f0) < 1e-9 * gain);
      CHECK(stop.amplitude(0.0) == Approx(gain).epsilon(1e-12));
    }
  }
  // normalized = false: MSL's unmodified CriticalDamping, each lag's corner at f_cut: |H| = 2^(-order/2) there.
  const auto plain = frequency_response<blocks::Filter>({{"f_cut", f_cut}, {"normalized", 0}},
                                                        blocks::FilterOptions{AnalogFilter::CriticalDamping,
                                                                              FilterType::LowPass, 3});
  CHECK(plain.amplitude(f_cut) == Approx(std::pow(2.0, -1.5)).epsilon(1e-9));
  // ChebyshevI, even order: the ripple peaks at +A_ripple dB in the pass band (MSL's sections have DC gain 1).
  const auto ripple = frequency_response<blocks::Filter>({{"f_cut", f_cut}, {"A_ripple", 1.0}, {"normalized", 0}},
                                                         blocks::FilterOptions{AnalogFilter::ChebyshevI,
                                                                               FilterType::LowPass, 4});
  double peak = 0;
  for (int k = 0; k <= 20000; ++k) peak = std::max(peak, ripple.amplitude(f_cut * k / 20000.0));
  CHECK(peak == Approx(std::pow(10.0, 1.0 / 20.0)).epsilon(1e-6));
  CHECK(ripple.amplitude(f_cut) == Approx(1.0).epsilon(1e-9));  // the band edge (not normalized): 0 dB
}

TEST_CASE("Filter: f_cut and A_ripple change after compile(), refused choices and relations",
          "[library][blocks][filter][errors]") {
  Model m("retuned");
  auto& source = m.add<blocks::Constant>("source", {{"k", 0.0}});
  auto& filter = m.add<blocks::Filter>("filter", {{"f_cut", 2.0}},
                                       blocks::FilterOptions{AnalogFilter::ChebyshevI, FilterType::LowPass, 3});
  m.connect(source.y, filter.u);
  Simulator sim = m.compile();
  sim.set_parameter("filter.f_cut", 5.0);
  sim.set_parameter("filter.A_ripple", 1.0);
  LinearModel lin = linearize(sim.simulate(run_for(0.01, 0.01)), 0.01, {"source.k"}, {"filter.y"});
  CHECK(std::abs(transfer(lin, {0.0, 2 * pi * 5.0})) == Approx(minus_3db).epsilon(1e-9));
  // normalized is structural: compile() folds it.
  CHECK_THROWS_WITH(sim.set_parameter("filter.normalized", 0), Contains("normalized"));

  CHECK_THROWS_WITH(Model("b").add<blocks::Filter>("bessel", {}, blocks::FilterOptions{AnalogFilter::Bessel,
                                                                                       FilterType::LowPass, 21}),
                    Contains("orders 1 to 20"));
  CHECK_THROWS_WITH(Model("o").add<blocks::Filter>("zero", {}, blocks::FilterOptions{.order = 0}),
                    Contains("at least 1"));
  // A band filter needs 0 < f_min < f_cut (f_min's default 0 is refused, as MSL asserts).
  Model band("band");
  auto& c = band.add<blocks::Constant>("c");
  auto& stop = band.add<blocks::Filter>("stop", {{"f_cut", 2.0}},
                                        blocks::FilterOptions{AnalogFilter::Butterworth, FilterType::BandStop, 2});
  band.connect(c.y, stop.u);
  CHECK_THROWS_WITH(band.compile(), Contains("0 < f_min < f_cut") && Contains("stop.f_min = "));
  // A band too wide for CriticalDamping's real poles (MSL's assertion).
  Model wide("wide");
  auto& c2 = wide.add<blocks::Constant>("c");
  auto& pass = wide.add<blocks::Filter>("pass", {{"f_cut", 10.0}, {"f_min", 0.1}},
                                        blocks::FilterOptions{AnalogFilter::CriticalDamping, FilterType::BandPass, 2});
  wide.connect(c2.y, pass.u);
  CHECK_THROWS_WITH(wide.compile(), Contains("too wide"));
}

TEST_CASE("CriticalDamping: step response of n equal lags, 1/sqrt(2) at f when normalized",
          "[library][blocks][filter]") {
  for (int normalized : {1, 0}) {
    INFO("normalized " << normalized);
    const int n = 3;
    const double f = 2.0, alpha = normalized ? std::sqrt(std::pow(2.0, 1.0 / n) - 1.0) : 1.0, w = 2 * pi * f / alpha;
    Model m("lags");
    auto& step = m.add<blocks::Step>("step", {{"height", 1.0}});
    auto& lags = m.add<blocks::CriticalDamping>(
        "lags", {{"f", f}, {"normalized", normalized}, {"initType", blocks::InitialState}}, n);
    m.connect(step.y, lags.u);
    Result r = compile_checked(m).simulate(run_for(2.0, 0.005, 1e-10));
    // y = 1 - exp(-w t)·Σ_{k<n} (w t)^k/k!, within 1e-7.
    CHECK(worst(r, "lags.y", [&](double t) {
            double sum = 0, term = 1;
            for (int k = 0; k < n; ++k) sum += term, term *= w * t / (k + 1);
            return 1.0 - std::exp(-w * t) * sum;
          }) < 1e-7);
    CHECK(worst(r, "lags.x_1", [&](double t) { return 1.0 - std::exp(-w * t); }) < 1e-7);
    const auto response = frequency_response<blocks::CriticalDamping>({{"f", f}, {"normalized", normalized}}, n);
    CHECK(response.amplitude(f) == Approx(normalized ? 1 / std::sqrt(2.0) : std::pow(2.0, -1.5)).epsilon(1e-9));
  }
}

TEST_CASE("Der differentiates exactly: a sine and its second derivative", "[library][blocks]") {
  Model m("der");
  auto& sine = m.add<blocks::Sine>("sine", {{"amplitude", 2.0}, {"f", 0.5}, {"phase", 0.3}});
  auto& d1 = m.add<blocks::Der>("d1");
  auto& d2 = m.add<blocks::Der>("d2");
  m.connect(sine.y, d1.u);
  m.connect(d1.y, d2.u);
  m.connect(sine.y, m.add<blocks::Integrator>("area").u);  // a state, so IDA has something to integrate
  Result r = compile_checked(m).simulate(run_for(4.0, 0.01, 1e-10));
  const double w = 2 * pi * 0.5;
  // Exact outputs: the derivatives come from the equations, not from the integrator (1e-12).
  CHECK(worst(r, "d1.y", [&](double t) { return 2.0 * w * std::cos(w * t + 0.3); }) < 1e-12);
  CHECK(worst(r, "d2.y", [&](double t) { return -2.0 * w * w * std::sin(w * t + 0.3); }) < 1e-12);
}

TEST_CASE("TransferFunction: MSL's (2s + 4)/(s + 3), a second-order lag and InitialOutput against closed forms",
          "[library][blocks]") {
  Model m("tf");
  auto& step = m.add<blocks::Step>("step", {{"height", 1.0}, {"startTime", 0.5}});
  auto& lead = m.add<blocks::TransferFunction>("lead", {{"initType", blocks::SteadyState}}, std::vector<double>{2.0, 4.0},
                                               std::vector<double>{1.0, 3.0});
  // 4/(s² + 2s + 4): w = 2 rad/s, damping 0.5; a = {1, 2, 4}, written with a_1 = 2 to check the scaling.
  auto& lag = m.add<blocks::TransferFunction>("lag", {{"initType", blocks::SteadyState}}, std::vector<double>{8.0},
                                              std::vector<double>{2.0, 4.0, 8.0});
  auto& decay = m.add<blocks::TransferFunction>("decay", {{"initType", blocks::InitialOutput}, {"y_start", 2.0}},
                                                std::vector<double>{1.0}, std::vector<double>{1.0, 1.0});
  auto& gain = m.add<blocks::TransferFunction>("gain", {{"b_1", 3.0}, {"a_1", 2.0}});  // MSL's default sizes: y = 1.5·u
  auto& zero = m.add<blocks::Constant>("zero", {{"k", 0.0}});
  m.connect(step.y, lead.u);
  m.connect(step.y, lag.u);
  m.connect(step.y, gain.u);
  m.connect(zero.y, decay.u);
  Result r = compile_checked(m).simulate(run_for(5.0, 0.01, 1e-10));
  auto after = [](double t) { return std::max(t - 0.5, 0.0); };
  // Within 1e-7 (rtol 1e-10).
  CHECK(worst_across_events(r, "lead.y", [&](double t) {
          return t < 0.5 ? 0.0 : 4.0 / 3.0 + (2.0 - 4.0 / 3.0) * std::exp(-3.0 * after(t));
        }) < 1e-7);
  const double D = 0.5, w = 2.0, wd = w * std::sqrt(1 - D * D);
  auto second = [&](double t) {
    const double s = after(t);
    return 1.0 - std::exp(-D * w * s) * (std::cos(wd * s) + D / std::sqrt(1 - D * D) * std::sin(wd * s));
  };
  CHECK(worst(r, "lag.y", second) < 1e-7);
  // MSL's unscaled state: y = b_1·x_2, so x_2 = y/8 (x_scaled_2 = a_end·x_2 = y with a_end = a_3 = 8).
  CHECK(worst(r, "lag.x_2", [&](double t) { return second(t) / 8.0; }) < 1e-8);
  CHECK(worst(r, "lag.x_scaled_2", second) < 1e-7);
  CHECK(worst(r, "decay.y", [](double t) { return 2.0 * std::exp(-t); }) < 1e-7);
  CHECK(worst_across_events(r, "gain.y", [](double t) { return t < 0.5 ? 0.0 : 1.5; }) < 1e-12);
  CHECK_THROWS_WITH(Model("p").add<blocks::TransferFunction>("improper", {}, std::vector<double>{1.0, 2.0, 3.0},
                                                             std::vector<double>{1.0, 1.0}),
                    Contains("not proper"));
}

TEST_CASE("StateSpace: a second-order system, B changed after compile()", "[library][blocks]") {
  Model m("ss");
  auto& step = m.add<blocks::Step>("step", {{"height", 1.0}});
  using Matrix = blocks::StateSpace::Matrix;
  auto& ss = m.add<blocks::StateSpace>("ss", {{"initType", blocks::InitialState}}, Matrix{{0.0, 1.0}, {-4.0, -2.0}},
                                       Matrix{{0.0}, {4.0}}, Matrix{{1.0, 0.0}}, Matrix{{0.0}});
  m.connect(step.y, *ss.u[0]);
  Simulator sim = compile_checked(m);
  const double D = 0.5, w = 2.0, wd = w * std::sqrt(1 - D * D);
  auto second = [&](double t) {
    return 1.0 - std::exp(-D * w * t) * (std::cos(wd * t) + D / std::sqrt(1 - D * D) * std::sin(wd * t));
  };
  Result r = sim.simulate(run_for(5.0, 0.01, 1e-10));
  CHECK(worst(r, "ss.y1", second) < 1e-7);  // within 1e-7 (rtol 1e-10)
  sim.set_parameter("ss.B_2_1", 8.0);     // no recompilation: twice the gain
  Result doubled = sim.simulate(run_for(5.0, 0.01, 1e-10));
  CHECK(worst(doubled, "ss.y1", [&](double t) { return 2.0 * second(t); }) < 2e-7);
  CHECK_THROWS_WITH(Model("bad").add<blocks::StateSpace>("ss", {}, Matrix{{1.0}}, Matrix{{1.0}, {1.0}}),
                    Contains("B has 2 rows and A 1"));
}

TEST_CASE("Sinc, ExpSine and variable-frequency sources against closed forms, a replaced input is refused",
          "[library][blocks]") {
  Model m("sources");
  m.add<blocks::Sinc>("sinc", {{"amplitude", 2.0}, {"f", 3.0}, {"startTime", 0.2}, {"offset", 0.5}});
  m.add<blocks::ExpSine>("exp_sine", {{"amplitude", 2.0}, {"f", 3.0}, {"phase", 0.4}, {"damping", 1.5},
                                      {"startTime", 0.2}, {"offset", 0.5}});
  auto& frequency = m.add<blocks::Ramp>("frequency", {{"height", 4.0}, {"duration", 2.0}, {"offset", 1.0}});
  auto& chirp = m.add<blocks::SineVariableFrequencyAndAmplitude>(
      "chirp", {{"constantAmplitude", 3.0}, {"offset", -1.0}},
      blocks::VariableFrequencyOptions{.useConstantAmplitude = true});
  auto& cosine = m.add<blocks::CosineVariableFrequencyAndAmplitude>(
      "cosine", {{"constantAmplitude", 3.0}}, blocks::VariableFrequencyOptions{.useConstantAmplitude = true});
  m.connect(frequency.y, chirp.f);
  m.connect(frequency.y, cosine.f);
  Result r = compile_checked(m).simulate(run_for(2.0, 0.001, 1e-10));
  // Rows at the start time itself are left out: which side of the step they
  // show depends on the build's rounding of startTime (the sanitizer build).
  const auto away_from_start = [&](const std::string& name, auto expected) {
    double worst = 0.0;
    for (std::size_t k = 0; k < r.size(); ++k)
      if (std::fabs(r.time()[k] - 0.2) > 1e-9) worst = std::max(worst, std::fabs(r[name][k] - expected(r.time()[k])));
    return worst;
  };
  CHECK(away_from_start("sinc.y", [](double t) {
          const double x = 2 * pi * 3.0 * (t - 0.2);
          return 0.5 + (t < 0.2 ? 0.0 : t - 0.2 < 1e-15 ? 2.0 : 2.0 * std::sin(x) / x);
        }) < 1e-12);
  CHECK(away_from_start("exp_sine.y", [](double t) {
          return 0.5 + (t < 0.2 ? 0.0 : 2.0 * std::exp(-1.5 * (t - 0.2)) * std::sin(2 * pi * 3.0 * (t - 0.2) + 0.4));
        }) < 1e-12);
  // f = 1 + 2t: phi = 2π(t + t²), within 1e-6 rad (rtol 1e-10).
  auto phase = [](double t) { return 2 * pi * (t + t * t); };
  CHECK(worst(r, "chirp.phi", phase) < 1e-6);
  CHECK(worst(r, "chirp.y", [&](double t) { return -1.0 + 3.0 * std::sin(phase(t)); }) < 5e-6);
  CHECK(worst(r, "cosine.y", [&](double t) { return 3.0 * std::cos(phase(t)); }) < 5e-6);
  CHECK(worst(r, "chirp.amplitude", [](double) { return 3.0; }) < 1e-15);

  Model refused("refused");
  auto& source = refused.add<blocks::Constant>("source");
  auto& sine = refused.add<blocks::SineVariableFrequencyAndAmplitude>(
      "sine", {}, blocks::VariableFrequencyOptions{.useConstantAmplitude = true, .useConstantFrequency = true});
  refused.connect(source.y, sine.amplitude);
  CHECK_THROWS_WITH(refused.compile(), Contains("sine.amplitude") && Contains("useConstantAmplitude = false"));
}

// Modelica.Blocks.Examples.Filter: a step from 0.1 to 1.1 at 0.1 s into four
// low pass filters of order 3, f_cut = 2 Hz, initialized in steady state.
TEST_CASE("MSL Blocks.Examples.Filter: the four analog filters against MAP-LIB", "[msl][blocks][filter]") {
  Model m("Filter");
  auto& step = m.add<blocks::Step>("step", {{"startTime", 0.1}, {"offset", 0.1}});
  for (AnalogFilter analog :
       {AnalogFilter::CriticalDamping, AnalogFilter::Bessel, AnalogFilter::Butterworth, AnalogFilter::ChebyshevI}) {
    auto& filter = m.add<blocks::Filter>(name_of(analog), {{"f_cut", 2.0}, {"f_min", 0.8 * 2.0}},
                                         blocks::FilterOptions{analog, FilterType::LowPass, 3});
    m.connect(step.y, filter.u);
  }
  Result r = compile_checked(m).simulate(run_for(0.9, 1.8e-4, 1e-8));
  compare_with_reference(r, "Blocks_Filter.csv");
}

// Modelica.Blocks.Examples.FilterWithDifferentiation: a Bessel low pass of
// order 3 differentiated three times (Der: index reduction differentiates the filter).
TEST_CASE("MSL Blocks.Examples.FilterWithDifferentiation against MAP-LIB", "[msl][blocks][filter]") {
  Model m("FilterWithDifferentiation");
  auto& step = m.add<blocks::Step>("step", {{"startTime", 0.1}, {"offset", 0.1}});
  auto& bessel = m.add<blocks::Filter>("Bessel", {{"f_cut", 2.0}},
                                       blocks::FilterOptions{AnalogFilter::Bessel, FilterType::LowPass, 3});
  auto& der1 = m.add<blocks::Der>("der1");
  auto& der2 = m.add<blocks::Der>("der2");
  auto& der3 = m.add<blocks::Der>("der3");
  m.connect(step.y, bessel.u);
  m.connect(bessel.y, der1.u);
  m.connect(der1.y, der2.u);
  m.connect(der2.y, der3.u);
  Result r = compile_checked(m).simulate(run_for(0.9, 1.8e-4, 1e-8));
  compare_with_reference(r, "Blocks_FilterWithDifferentiation.csv");
  // Each derivative is the slope of the signal before it: central differences
  // on the 1.8e-4 s grid, away from the step, within 1e-4 of the derivative's range.
  const auto& t = r.time();
  const std::vector<std::pair<std::string, std::string>> chain = {
      {"Bessel.y", "der1.y"}, {"der1.y", "der2.y"}, {"der2.y", "der3.y"}};
  for (const auto& [signal, derivative] : chain) {
    const auto v = r[signal], d = r[derivative];
    const auto [lo, hi] = std::minmax_element(d.begin(), d.end());
    double worst_slope = 0;
    for (std::size_t k = 1; k + 1 < t.size(); ++k) {
      if (t[k + 1] - t[k - 1] < 1e-5 || std::fabs(t[k] - 0.1) < 1e-3) continue;  // event rows, the step
      worst_slope = std::max(worst_slope, std::fabs((v[k + 1] - v[k - 1]) / (t[k + 1] - t[k - 1]) - d[k]));
    }
    INFO(derivative);
    CHECK(worst_slope < 1e-4 * (*hi - *lo));
  }
}

// Modelica.Blocks.Examples.FilterWithRiseTime: CriticalDamping low passes of
// order 2 with f_cut = fac/(2π·riseTime), riseTime = 2 s, fac = 3, 4, 5.
TEST_CASE("MSL Blocks.Examples.FilterWithRiseTime against MAP-LIB", "[msl][blocks][filter]") {
  Model m("FilterWithRiseTime");
  auto& step = m.add<blocks::Step>("step", {{"startTime", 1.0}});
  for (int fac : {5, 4, 3}) {
    auto& filter = m.add<blocks::Filter>("filter_fac" + std::to_string(fac), {{"f_cut", fac / (2 * pi * 2.0)}});
    m.connect(step.y, filter.u);
  }
  Result r = compile_checked(m).simulate(run_for(4.0, 8e-4, 1e-8));
  compare_with_reference(r, "Blocks_FilterWithRiseTime.csv");
}

// Modelica.Blocks.Examples.CompareSincExpSine: sinc(f = 5 Hz) and two damped sines.
TEST_CASE("MSL Blocks.Examples.CompareSincExpSine against MAP-LIB", "[msl][blocks]") {
  Model m("CompareSincExpSine");
  auto& sinc = m.add<blocks::Sinc>("sinc", {{"f", 5.0}});
  m.add<blocks::ExpSine>("expSine1", {{"f", 5.0}, {"damping", 5.0}});
  m.add<blocks::ExpSine>("expSine2", {{"f", 5.0}, {"phase", pi / 2}, {"damping", 5.0}});
  m.connect(sinc.y, m.add<blocks::Integrator>("integral").u);  // a state, so IDA has something to integrate
  Result r = compile_checked(m).simulate(run_for(1.0, 5e-5, 1e-8));
  compare_with_reference(r, "Blocks_CompareSincExpSine.csv");
}

// Modelica.Blocks.Examples.Modulation: 100 Hz carriers, amplitude modulated by
// 1 + 0.5·sin(2π·2t) and frequency modulated by 100 + 50·sin(2π·2t) Hz.
TEST_CASE("MSL Blocks.Examples.Modulation against MAP-LIB and the closed form", "[msl][blocks]") {
  Model m("Modulation");
  using Options = blocks::VariableFrequencyOptions;
  m.add<blocks::SineVariableFrequencyAndAmplitude>("sine", {{"constantFrequency", 100.0}},
                                                   Options{.useConstantAmplitude = true, .useConstantFrequency = true});
  auto& amplitude = m.add<blocks::Sine>("amplitude", {{"amplitude", 0.5}, {"f", 2.0}, {"offset", 1.0}});
  auto& sinAM = m.add<blocks::SineVariableFrequencyAndAmplitude>("sinAM", {{"constantFrequency", 100.0}},
                                                                 Options{.useConstantFrequency = true});
  auto& cosAM = m.add<blocks::CosineVariableFrequencyAndAmplitude>("cosAM", {{"constantFrequency", 100.0}},
                                                                   Options{.useConstantFrequency = true});
  auto& frequency = m.add<blocks::Sine>("frequency", {{"amplitude", 50.0}, {"f", 2.0}, {"offset", 100.0}});
  auto& sinFM = m.add<blocks::SineVariableFrequencyAndAmplitude>("sinFM", {{"constantFrequency", 100.0}},
                                                                 Options{.useConstantAmplitude = true});
  auto& cosFM = m.add<blocks::CosineVariableFrequencyAndAmplitude>("cosFM", {{"constantFrequency", 100.0}},
                                                                   Options{.useConstantAmplitude = true});
  m.connect(amplitude.y, sinAM.amplitude);
  m.connect(amplitude.y, cosAM.amplitude);
  m.connect(frequency.y, sinFM.f);
  m.connect(frequency.y, cosFM.f);
  Result r = compile_checked(m).simulate(run_for(1.0, 5e-5, 1e-10));
  // The reference's FM phase drifts by up to 1.6e-3 rad (Dymola at 1e-6): 8e-4 of the range, inside 1e-3.
  compare_with_reference(r, "Blocks_Modulation.csv");
  // phi = 2π·(100·t + 50·(1 - cos(4π·t))/(4π)): within 1e-5 (rtol 1e-10).
  auto phi = [](double t) { return 2 * pi * (100.0 * t + 50.0 * (1.0 - std::cos(4 * pi * t)) / (4 * pi)); };
  CHECK(worst(r, "sinFM.y", [&](double t) { return std::sin(phi(t)); }) < 1e-5);
  CHECK(worst(r, "cosFM.y", [&](double t) { return std::cos(phi(t)); }) < 1e-5);
  CHECK(worst(r, "sinAM.y", [](double t) { return (1.0 + 0.5 * std::sin(4 * pi * t)) * std::sin(200 * pi * t); }) <
        1e-5);
}

}  // namespace test_msl_filters
