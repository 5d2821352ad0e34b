// Sampled sensors: floor() in the expression language, the seeded random
// generator of the noise blocks, noise statistics, zero-order hold and
// quantization, and the wheel speed encoder.
#include <acausal/acausal.hpp>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <numbers>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "components/blocks/noise/normal_noise.hpp"
#include "components/blocks/discrete/quantizer.hpp"
#include "components/blocks/discrete/sampler.hpp"
#include "components/blocks/noise/uniform_noise.hpp"
#include "components/vehicle/control/wheel_speed_sensor.hpp"
#include "solver/lower/tape.hpp"
#include "tests/msl_random_reference.hpp"
#include "tests/support.hpp"

namespace test_sensors {

using namespace acausal;

namespace {

constexpr double kPi = std::numbers::pi;

using IntegerXorshift = test::MslXorshift128plus;  // MSL's generator in 64-bit integers (tests/msl_random_reference.hpp)

// The held value of `name` in each sample period, read at mid-period rows
// (the run's output_interval must be period/2): one value per sample.
std::vector<double> per_sample(const Result& r, const std::string& name, double period) {
  const auto v = r[name];
  std::vector<double> out;
  for (std::size_t k = 0; k < r.size(); ++k) {
    const double phase = r.time()[k] / period - std::floor(r.time()[k] / period);
    if (std::fabs(phase - 0.5) < 1e-6) out.push_back(v[k]);
  }
  return out;
}

double mean(const std::vector<double>& x) {
  double s = 0;
  for (double v : x) s += v;
  return s / static_cast<double>(x.size());
}

double variance(const std::vector<double>& x) {
  const double m = mean(x);
  double s = 0;
  for (double v : x) s += (v - m) * (v - m);
  return s / static_cast<double>(x.size() - 1);
}

double correlation(const std::vector<double>& x, const std::vector<double>& y) {
  const double mx = mean(x), my = mean(y);
  double sxy = 0, sxx = 0, syy = 0;
  for (std::size_t k = 0; k < x.size(); ++k) {
    sxy += (x[k] - mx) * (y[k] - my);
    sxx += (x[k] - mx) * (x[k] - mx);
    syy += (y[k] - my) * (y[k] - my);
  }
  return sxy / std::sqrt(sxx * syy);
}

SimulationOptions samples_of(double period, int n) {
  return test::run_for((n - 0.25) * period, period / 2);  // samples at 0, T, ..., (n-1)·T
}

}  // namespace

TEST_CASE("floor folds, evaluates, prints, and has derivative zero", "[sensors][expr]") {
  Expr x = make_variable_symbol("x");
  CHECK(floor(Expr(2.7)).is_const(2.0));
  CHECK(floor(Expr(-2.5)).is_const(-3.0));
  CHECK(floor(Expr(-3.0)).is_const(-3.0));
  auto at = [&](const Expr& e, double xv) { return evaluate(e, [&](const Node*) { return xv; }); };
  CHECK(at(floor(x), 0.999999999) == 0.0);
  CHECK(at(floor(x), -1e-300) == -1.0);
  CHECK(at(floor(x), 4503599627370495.5) == 4503599627370495.0);  // 2^52 - 0.5
  CHECK(floor(x).str() == "floor(x)");
  CHECK(floor(x / 2.0 - 0.5).str() == "floor(x / 2 - 0.5)");
  CHECK(diff(floor(x), x).is_const(0.0));
  CHECK(der(floor(x * x)).is_const(0.0));
  CHECK(diff(x * floor(x), x).same(floor(x)));  // the product rule keeps floor(x) itself
  // Modelica's mod: in [0, b) for b > 0, whatever the sign of a.
  CHECK(mod(Expr(7.0), 3.0).is_const(1.0));
  CHECK(mod(Expr(-7.0), 3.0).is_const(2.0));
  CHECK(mod(Expr(-6.0), 3.0).is_const(0.0));
}

TEST_CASE("A deep shared expression prints cut at max_chars instead of exponentially long", "[sensors][expr]") {
  Expr x = make_variable_symbol("x"), e = x;
  for (int k = 0; k < 200; ++k) e = mod(e * 3.0 + 1.0, 7.0);  // each mod() reads its argument twice: 2^200 leaves
  const std::string text = to_string(
      e, [](const Node* n) { return symbol_name(n); }, 100);
  CHECK(text.size() == 103);
  CHECK(text.substr(100) == "...");
  CHECK(to_string(
            floor(x), [](const Node* n) { return symbol_name(n); }, 100) == "floor(x)");  // short: whole
}

TEST_CASE("floor-based mod is exact for the generator's products, checked against 64-bit integers", "[sensors][expr]") {
  Expr s = make_variable_symbol("s");
  const Expr next1 = mod(40014.0 * s, 2147483563.0), next2 = mod(40692.0 * s, 2147483399.0);
  // The worst cases sit where a·s / m is just below or above a whole number.
  std::vector<std::int64_t> states = {1, 2, 53668, 53669, 2147483562, 2147483398, 1073741782};
  std::mt19937_64 random(42);
  for (int k = 0; k < 20000; ++k) states.push_back(1 + static_cast<std::int64_t>(random() % 2147483562));
  long wrong = 0;
  for (std::int64_t v : states) {
    const double sv = static_cast<double>(v);
    wrong += evaluate(next1, [&](const Node*) { return sv; }) != static_cast<double>(40014 * v % 2147483563);
    if (v < 2147483399)
      wrong += evaluate(next2, [&](const Node*) { return sv; }) != static_cast<double>(40692 * v % 2147483399);
  }
  CHECK(wrong == 0);
}

TEST_CASE("floor runs on the tape and is written as libm's floor in native C", "[sensors][expr]") {
  Expr x = make_variable_symbol("x");
  Tape tape({floor(x), 2.0 * floor(x / 0.25 + 0.5)}, 1, [&](const Node* n) { return n == x.node() ? 0 : -1; });
  for (double v : {-2.5, -0.1, 0.0, 0.124, 0.125, 3.99, 1e12 + 0.5}) {
    tape.inputs()[0] = v;
    tape.run();
    CHECK(tape.output(0) == std::floor(v));
    CHECK(tape.output(1) == 2.0 * std::floor(v / 0.25 + 0.5));
  }
  std::string c;
  tape.write_c(c, "f");
  CHECK(c.find("floor(r[0])") != std::string::npos);
}

TEST_CASE("floor of a time-varying value in a continuous equation is a ModelError naming the equation",
          "[sensors][errors]") {
  // An encoder written with its count as a continuous variable: the count
  // would jump between events.
  struct ContinuousEncoder : Component {
    Variable phi = variable("phi", {.start = 0.0, .fixed = true});
    Variable counts = variable("counts");
    explicit ContinuousEncoder(std::string name) : Component(std::move(name)) {
      equation(der(phi) == 3.0);
      equation(counts == floor(phi * 10.0));
    }
  };
  Model bad("bad");
  bad.add<ContinuousEncoder>("enc");
  CHECK_THROWS_AS(bad.compile(), ModelError);
  CHECK_THROWS_WITH(bad.compile(), Catch::Contains("floor() in a continuous equation") &&
                                       Catch::Contains("use it in a when-clause or a discrete equation") &&
                                       Catch::Contains("(in enc.counts = floor(") && Catch::Contains("enc.phi"));
  // floor(time) jumps too.
  struct Staircase : Component {
    Variable x = variable("x", {.start = 0.0, .fixed = true});
    explicit Staircase(std::string name) : Component(std::move(name)) { equation(der(x) == floor(time_symbol())); }
  };
  Model stairs("stairs");
  stairs.add<Staircase>("s");
  CHECK_THROWS_WITH(stairs.compile(), Catch::Contains("floor() in a continuous equation"));

  // Of parameters and discretes it holds still between events: allowed.
  struct Allowed : Component {
    Parameter p = parameter("p", 2.7);
    Variable x = variable("x", {.start = 0.0, .fixed = true});
    Discrete d = discrete("d", {.start = 1.75});
    explicit Allowed(std::string name) : Component(std::move(name)) {
      when(sample(0.0, 0.5), {d == pre(d) + 0.5});
      equation(der(x) == floor(p) + floor(d));
    }
  };
  Model ok("ok");
  ok.add<Allowed>("a");
  Simulator sim = ok.compile();
  // d: 2.25 from t = 0, 2.75 from 0.5, 3.25 from 1.0: der(x) = 2 + 2, 2 + 2, 2 + 3.
  const Result r = sim.simulate(test::run_for(1.25, 0.25));
  CHECK(r["a.x"].back() == Approx(4 * 0.5 + 4 * 0.5 + 5 * 0.25).epsilon(1e-8));
}

TEST_CASE("The noise blocks draw MSL's Xorshift128plus stream exactly, seeded from globalSeed and localSeed",
          "[sensors]") {
  Model m("gen");
  m.add<blocks::UniformNoise>("uniform", {{"y_min", -1.0}, {"y_max", 3.0}, {"globalSeed", 12345}, {"localSeed", 7}});
  m.add<blocks::NormalNoise>("normal", {{"mu", 0.5}, {"sigma", 2.0}, {"globalSeed", 12345}, {"localSeed", 8}});
  Simulator sim = m.compile();
  // The report names what the blocks compute, without printing the generator out in full.
  CHECK(sim.report().count("hybrid", "when_clauses") == 2);
  CHECK(sim.report().str().size() < 20000);
  const int n = 300;
  const Result r = sim.simulate(samples_of(0.01, n));
  const auto u = per_sample(r, "uniform.y", 0.01), g = per_sample(r, "normal.y", 0.01);
  std::vector<std::vector<double>> states;
  for (int k = 1; k <= 4; ++k) states.push_back(per_sample(r, "uniform.state_" + std::to_string(k), 0.01));
  REQUIRE(u.size() == n);
  REQUIRE(g.size() == n);
  IntegerXorshift uniform(12345, 7), normal(12345, 8);
  long wrong_states = 0;
  double worst_uniform = 0, worst_normal = 0;
  for (int k = 0; k < n; ++k) {
    const double expected = uniform.next() * 4.0 - 1.0;
    for (int i = 1; i <= 4; ++i) wrong_states += states[i - 1][k] != uniform.state(i);
    worst_uniform = std::max(worst_uniform, std::fabs(u[k] - expected));
    // MSL's Normal.quantile of one number per sample: its cumulative gives the number back.
    worst_normal = std::max(worst_normal, std::fabs(test::normal_cdf(g[k], 0.5, 2.0) - normal.next()));
  }
  CHECK(wrong_states == 0);
  CHECK(worst_uniform < 1e-15);
  CHECK(worst_normal < 1e-13);
}

TEST_CASE("UniformNoise: 10^4 samples between y_min and y_max with the mean and variance of the uniform distribution",
          "[sensors]") {
  const double a = -2.0, b = 3.0, T = 0.01;
  const int n = 10000;
  Model m("uniform");
  m.add<blocks::UniformNoise>("noise", {{"y_min", a}, {"y_max", b}, {"samplePeriod", T}});
  Simulator sim = m.compile();
  const Result r = sim.simulate(samples_of(T, n));
  const auto y = per_sample(r, "noise.y", T);
  REQUIRE(y.size() == n);
  long outside = 0;
  for (double v : y) outside += !(v >= a && v < b);
  CHECK(outside == 0);
  // Standard errors: of the mean (b-a)/sqrt(12 n); of the sample variance
  // sqrt((mu4 - sigma^4)/n) with mu4 = (b-a)^4/80, sigma^2 = (b-a)^2/12.
  const double w = b - a, se_mean = w / std::sqrt(12.0 * n), se_var = w * w * std::sqrt((1.0 / 80 - 1.0 / 144) / n);
  INFO("mean " << mean(y) << ", variance " << variance(y));
  CHECK(std::fabs(mean(y) - (a + b) / 2) < 3 * se_mean);
  CHECK(std::fabs(variance(y) - w * w / 12) < 3 * se_var);
  // Successive samples are uncorrelated: |lag-1 correlation| below 3/sqrt(n).
  const std::vector<double> head(y.begin(), y.end() - 1), tail(y.begin() + 1, y.end());
  CHECK(std::fabs(correlation(head, tail)) < 3 / std::sqrt(n));
}

TEST_CASE("NormalNoise: 10^4 samples with mean mu, standard deviation sigma and the normal's shape", "[sensors]") {
  const double mu = 1.5, sigma = 0.4, T = 0.01;
  const int n = 10000;
  Model m("normal");
  m.add<blocks::NormalNoise>("noise", {{"mu", mu}, {"sigma", sigma}, {"samplePeriod", T}});
  Simulator sim = m.compile();
  const Result r = sim.simulate(samples_of(T, n));
  const auto y = per_sample(r, "noise.y", T);
  REQUIRE(y.size() == n);
  const double sd = std::sqrt(variance(y));
  INFO("mean " << mean(y) << ", standard deviation " << sd);
  // Standard errors: sigma/sqrt(n) for the mean, sigma/sqrt(2n) for the standard deviation.
  CHECK(std::fabs(mean(y) - mu) < 3 * sigma / std::sqrt(n));
  CHECK(std::fabs(sd - sigma) < 3 * sigma / std::sqrt(2.0 * n));
  // Mean and spread alone would pass a uniform of the same variance: within
  // one sigma lie 68.27 % of normal samples (57.7 % of uniform ones).
  long within = 0, extreme = 0;
  for (double v : y) {
    within += std::fabs(v - mu) < sigma;
    extreme += std::fabs(v - mu) >= 6.6 * sigma;  // 4e-11 per sample for a normal
  }
  const double p = 0.6826894921, fraction = static_cast<double>(within) / n;
  INFO("within one sigma: " << fraction);
  CHECK(std::fabs(fraction - p) < 3 * std::sqrt(p * (1 - p) / n));
  CHECK(extreme == 0);
}

TEST_CASE("Noise is reproducible: the same seeds give the same signal, other seeds another", "[sensors]") {
  const double T = 0.01;
  const int n = 500;
  auto build = [&](Model& m) {
    m.add<blocks::NormalNoise>("a", {{"globalSeed", 2024}, {"localSeed", 1}, {"samplePeriod", T}});
    m.add<blocks::NormalNoise>("b", {{"globalSeed", 2024}, {"localSeed", 2}, {"samplePeriod", T}});
    // Default localSeed: a hash of the name, so c and d differ without being told.
    m.add<blocks::UniformNoise>("c", {{"globalSeed", 2024}, {"samplePeriod", T}});
    m.add<blocks::UniformNoise>("d", {{"globalSeed", 2024}, {"samplePeriod", T}});
  };
  Model m1("noise"), m2("noise");
  build(m1);
  build(m2);
  Simulator sim1 = m1.compile(), sim2 = m2.compile();
  const Result first = sim1.simulate(samples_of(T, n)), again = sim1.simulate(samples_of(T, n));
  const Result other_model = sim2.simulate(samples_of(T, n));
  auto differing = [&](const std::vector<double>& x, const std::vector<double>& y) {
    REQUIRE(x.size() == y.size());
    long count = 0;
    for (std::size_t k = 0; k < x.size(); ++k) count += x[k] != y[k];
    return count;
  };
  for (const char* name : {"a.y", "b.y", "c.y", "d.y"}) {
    INFO(name);
    const auto y = per_sample(first, name, T);
    REQUIRE(y.size() == n);
    CHECK(y == per_sample(again, name, T));        // bit for bit, run after run
    CHECK(y == per_sample(other_model, name, T));  // and compile after compile
  }
  // Same globalSeed, other localSeed (given or from the name): other streams, uncorrelated.
  const auto a = per_sample(first, "a.y", T), b = per_sample(first, "b.y", T);
  const auto c = per_sample(first, "c.y", T), d = per_sample(first, "d.y", T);
  CHECK(differing(a, b) == n);
  CHECK(differing(c, d) == n);
  CHECK(std::fabs(correlation(a, b)) < 3 / std::sqrt(n));
  CHECK(std::fabs(correlation(c, d)) < 3 / std::sqrt(n));
  // Another globalSeed, set without recompiling: another stream; back again, the first.
  sim1.set_parameter("a.globalSeed", 2025);
  const auto reseeded = per_sample(sim1.simulate(samples_of(T, n)), "a.y", T);
  CHECK(differing(a, reseeded) == n);
  CHECK(std::fabs(correlation(a, reseeded)) < 3 / std::sqrt(n));
  sim1.set_parameter("a.globalSeed", 2024);
  CHECK(per_sample(sim1.simulate(samples_of(T, n)), "a.y", T) == a);
}

TEST_CASE("Neighbouring seeds give uncorrelated first samples (the seeds are mixed nonlinearly)", "[sensors]") {
  // A linear seeding would shift the k-th sample of seed s+1 by the same amount
  // from seed s's, whatever s: the k-th samples across seeds would be correlated.
  const int seeds = 400;
  for (int draw : {1, 2, 5}) {
    std::vector<double> kth_global, kth_local;
    for (int s = 0; s < seeds; ++s) {
      IntegerXorshift by_global(1000 + s, 3), by_local(1000, 3 + s);
      double ug = 0, ul = 0;
      for (int k = 0; k < draw; ++k) {
        ug = by_global.next();
        ul = by_local.next();
      }
      kth_global.push_back(ug);
      kth_local.push_back(ul);
    }
    INFO("draw " << draw);
    const std::vector<double> g0(kth_global.begin(), kth_global.end() - 1),
        g1(kth_global.begin() + 1, kth_global.end());
    const std::vector<double> l0(kth_local.begin(), kth_local.end() - 1), l1(kth_local.begin() + 1, kth_local.end());
    CHECK(std::fabs(correlation(g0, g1)) < 3 / std::sqrt(seeds));
    CHECK(std::fabs(correlation(l0, l1)) < 3 / std::sqrt(seeds));
  }
  // The blocks seed as this reference does (checked exactly above); one sample here ties them again.
  Model m("seeded");
  m.add<blocks::UniformNoise>("noise", {{"globalSeed", 1001}, {"localSeed", 3}});
  const Result r = m.compile().simulate(samples_of(0.01, 1));
  CHECK(per_sample(r, "noise.y", 0.01).at(0) == IntegerXorshift(1001, 3).next());
}

TEST_CASE("Noise holds y_off before startTime and draws from startTime on", "[sensors]") {
  Model m("late");
  m.add<blocks::UniformNoise>("noise", {{"y_off", -5.0}, {"startTime", 0.105}, {"samplePeriod", 0.01}});
  const Result r = m.compile().simulate(test::run_for(0.2, 0.0025));
  const auto y = r["noise.y"];
  long before_wrong = 0, after_wrong = 0, after = 0;
  for (std::size_t k = 0; k < r.size(); ++k) {
    const double t = r.time()[k];
    if (t < 0.105 - 1e-12) before_wrong += y[k] != -5.0;
    if (t > 0.105 + 1e-12) {
      ++after;
      after_wrong += !(y[k] >= 0.0 && y[k] < 1.0);
    }
  }
  CHECK(before_wrong == 0);
  CHECK(after > 30);
  CHECK(after_wrong == 0);
}

TEST_CASE("Sampler holds u at each sample, Quantizer rounds it to a multiple of q", "[sensors]") {
  const double T = 0.02, q = 0.05, f = 1.3;
  Model m("adc");
  auto& sine = m.add<blocks::Sine>("sine", {{"amplitude", 1.0}, {"f", f}, {"phase", 0.3}});
  auto& sampler = m.add<blocks::Sampler>("sampler", {{"samplePeriod", T}});
  auto& quantizer = m.add<blocks::Quantizer>("quantizer", {{"q", q}, {"samplePeriod", T}});
  m.connect(sine.y, sampler.u);
  m.connect(sine.y, quantizer.u);
  Simulator sim = m.compile();
  const int n = 200;
  const Result r = sim.simulate(test::run_for((n - 0.25) * T, T / 8));  // rows at 1/8, 2/8, ... of each period
  const auto held = per_sample(r, "sampler.y", T), y = per_sample(r, "quantizer.y", T);
  REQUIRE(held.size() == n);
  REQUIRE(y.size() == n);
  double worst_hold = 0, worst_multiple = 0, worst_rounding = 0;
  long levels_seen = 0;
  for (int k = 0; k < n; ++k) {
    worst_hold = std::max(worst_hold, std::fabs(held[k] - std::sin(2 * kPi * f * k * T + 0.3)));
    worst_multiple = std::max(worst_multiple, std::fabs(y[k] / q - std::round(y[k] / q)));
    worst_rounding = std::max(worst_rounding, std::fabs(y[k] - held[k]));
    levels_seen += k > 0 && y[k] != y[k - 1];
  }
  CHECK(worst_hold < 1e-12);
  CHECK(worst_multiple < 1e-9);
  CHECK(worst_rounding <= q / 2 * (1 + 1e-12));
  CHECK(levels_seen > n / 2);  // the sine moves by more than q per sample most of the time
  // Between samples the outputs do not move: the rows inside a period (away
  // from its ends, where the event rows are) all show its sample.
  const auto rows = r["quantizer.y"];
  long moved = 0, compared = 0;
  for (std::size_t k = 1; k < r.size(); ++k) {
    auto inside = [&](std::size_t i) {
      const double phase = r.time()[i] / T - std::floor(r.time()[i] / T);
      return phase > 1e-6 && phase < 1 - 1e-6;
    };
    if (!inside(k) || !inside(k - 1) || std::floor(r.time()[k] / T) != std::floor(r.time()[k - 1] / T)) continue;
    ++compared;
    moved += rows[k] != rows[k - 1];
  }
  CHECK(compared > 0);
  CHECK(moved == 0);
}

TEST_CASE("WheelSpeedSensor on a spinning inertia reads the speed to within one count, in whole counts",
          "[sensors][vehicle]") {
  const double w = 50.0, ppr = 100, T = 0.01, count = 2 * kPi / (ppr * T);  // a count is 6.28 rad/s
  Model m("encoder");
  auto& inertia = m.add<rotational::Inertia>("inertia", {{"J", 0.8}});
  auto& sensor = m.add<vehicle::WheelSpeedSensor>("sensor", {{"pulses_per_revolution", ppr}, {"samplePeriod", T}});
  m.connect(inertia.flange_a, sensor.flange);
  m.set_start("inertia.w", w);
  m.set_start("inertia.phi", 0.1);
  Simulator sim = m.compile();
  const int n = 500;
  const Result r = sim.simulate(samples_of(T, n));
  const auto measured = per_sample(r, "sensor.w", T);
  REQUIRE(measured.size() == n);
  CHECK(measured[0] == 0.0);  // one reading: no difference yet
  double worst_error = 0, worst_multiple = 0, sum = 0;
  for (int k = 1; k < n; ++k) {
    worst_error = std::max(worst_error, std::fabs(measured[k] - w));
    worst_multiple = std::max(worst_multiple, std::fabs(measured[k] / count - std::round(measured[k] / count)));
    sum += measured[k];
  }
  INFO("worst error " << worst_error << " rad/s, one count " << count << " rad/s");
  CHECK(worst_error < count);
  CHECK(worst_multiple < 1e-9);
  // The counts telescope: the mean over the run is the angle turned over the time, to one count.
  CHECK(std::fabs(sum / (n - 1) - w) < count / (n - 1) * 1.001);
  // Exactly: counts(k) = floor((0.1 + w·kT)·ppr/2π).
  const auto counts = per_sample(r, "sensor.counts", T);
  long wrong = 0;
  for (int k = 0; k < n; ++k) wrong += std::fabs(counts[k] - std::floor((0.1 + w * k * T) * ppr / (2 * kPi))) > 0.5;
  CHECK(wrong == 0);
  // The sensor takes no torque: the inertia keeps its speed.
  CHECK(r["inertia.w"].back() == Approx(w).epsilon(1e-10));
}

TEST_CASE("Sensor parameters that cannot work are errors naming them", "[sensors][errors]") {
  auto compile_with = [](auto* tag, const ParameterValues& values) {
    Model m("bad");
    m.add<std::remove_pointer_t<decltype(tag)>>("c", values);
    return m.compile();
  };
  CHECK_THROWS_WITH(compile_with((blocks::Quantizer*)nullptr, {{"q", 0.0}}), Catch::Contains("c.q"));
  CHECK_THROWS_WITH(compile_with((blocks::UniformNoise*)nullptr, {{"y_min", 1.0}, {"y_max", 1.0}}),
                    Catch::Contains("y_max must exceed y_min"));
  CHECK_THROWS_WITH(compile_with((blocks::NormalNoise*)nullptr, {{"sigma", -1.0}}), Catch::Contains("c.sigma"));
  CHECK_THROWS_WITH(compile_with((vehicle::WheelSpeedSensor*)nullptr, {{"pulses_per_revolution", 47.5}}),
                    Catch::Contains("pulses_per_revolution must be a whole number"));
}

TEST_CASE("Noise, sampler, quantizer and encoder run bit for bit the same with native code", "[sensors][native]") {
  Model m("sensors");
  auto& inertia = m.add<rotational::Inertia>("inertia", {{"J", 1.0}});
  auto& torque = m.add<rotational::Torque>("torque");
  auto& noise = m.add<blocks::NormalNoise>("noise", {{"sigma", 0.5}, {"samplePeriod", 0.005}});
  auto& encoder = m.add<vehicle::WheelSpeedSensor>("encoder", {{"pulses_per_revolution", 60}});
  auto& quantizer = m.add<blocks::Quantizer>("quantizer", {{"q", 0.25}});
  m.connect(noise.y, torque.tau);
  m.connect(torque.flange, inertia.flange_a);
  m.connect(inertia.flange_b, encoder.flange);
  m.connect(encoder.w, quantizer.u);
  m.set_start("inertia.w", 20.0);
  m.set_start("inertia.phi", 0.0);
  const auto cache = std::filesystem::temp_directory_path() / "acausal-test-sensors";
  std::filesystem::remove_all(cache);
  CompileOptions native_options;
  native_options.native_code = true;
  native_options.native.cache_directory = cache.string();
  Simulator tape = m.compile(), native = m.compile(native_options);
  CHECK(native.report().count("native_code", "compiled") == 1);
  const Result a = tape.simulate(test::run_for(1.0, 0.01)), b = native.simulate(test::run_for(1.0, 0.01));
  REQUIRE(a.size() == b.size());
  CHECK(a.time() == b.time());
  for (const auto& name : a.names()) {
    INFO(name);
    CHECK(a[name] == b[name]);
  }
  std::filesystem::remove_all(cache);
}

}  // namespace test_sensors
