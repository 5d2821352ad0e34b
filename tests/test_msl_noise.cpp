// MSL v4.0.0 Blocks.Examples.Noise against the MAP-LIB reference results
// (tests/data/msl/README.md): the noise blocks draw MSL's Xorshift128plus
// stream, seeded as MSL seeds it, so the samples equal MSL's to rounding.
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "msl_random_reference.hpp"
#include "msl_reference.hpp"
#include "support.hpp"

namespace test_msl_noise {

using namespace acausal;

namespace {

// The k-th sample (k = 0, 1, ...) of a signal sampled every `period` from 0:
// its value in the middle of the k-th period, of a run or of the reference.
double sample_k(const std::vector<double>& t, const std::vector<double>& y, double period, int k) {
  return test::at(t, y, (k + 0.5) * period);
}

}  // namespace

TEST_CASE("MSL hashString (automaticLocalSeed) gives the values of MSL's documentation", "[msl][noise]") {
  CHECK(blocks::msl_random::hash_string("this is a test") == 1827717433);
  CHECK(blocks::msl_random::hash_string("Controller.noise1") == -1025762750);
  // A block's default localSeed is the hash of its name.
  Model m("named");
  m.add<blocks::UniformNoise>("uniformNoise1");
  Simulator sim = m.compile();
  CHECK(sim.parameter("uniformNoise1.localSeed") == blocks::msl_random::hash_string("uniformNoise1"));
}

TEST_CASE("MSL Blocks.Examples.Noise.UniformNoise: MSL's stream for fixedLocalSeed = 10, and the reference",
          "[msl][noise]") {
  const double T = 0.02;
  Model m("UniformNoise");
  // GlobalSeed with its defaults: fixedSeed = 67867967, the blocks' globalSeed default.
  m.add<blocks::UniformNoise>("uniformNoise1", {{"samplePeriod", T}, {"y_min", -1.0}, {"y_max", 3.0}});
  m.add<blocks::UniformNoise>("uniformNoise2",
                              {{"samplePeriod", T}, {"y_min", -1.0}, {"y_max", 3.0}, {"localSeed", 10}});
  const Result r = m.compile().simulate(test::run_for(2.0, T / 2));
  const test::Table ref = test::read_csv(test::data_dir() / "msl" / "Blocks_Noise_UniformNoise.csv");
  const auto& t_ref = ref.column("time");
  const auto& y_ref = ref.column("uniformNoise2.y");
  const auto y = r["uniformNoise2.y"];
  test::MslXorshift128plus stream(67867967, 10);
  for (int k = 0; k < 10; ++k) {
    INFO("sample " << k);
    const double msl = sample_k(t_ref, y_ref, T, k);
    CHECK(std::fabs(sample_k(r.time(), y, T, k) - msl) <= 1e-12);
    CHECK(std::fabs(stream.next() * 4.0 - 1.0 - msl) <= 1e-12);  // the reference is MSL's stream
  }
  // The whole signal (held values between the sample instants).
  CHECK(test::compare_with_reference(r, "Blocks_Noise_UniformNoise.csv", {"uniformNoise2.y"}) <= 1e-3);
  // uniformNoise1 (automatic local seed) draws another stream in the same band.
  const auto y1 = r["uniformNoise1.y"];
  long outside = 0, equal = 0;
  for (std::size_t k = 0; k < r.size(); ++k) {
    outside += !(y1[k] > -1.0 && y1[k] <= 3.0);
    equal += y1[k] == y[k];
  }
  CHECK(outside == 0);
  CHECK(equal < 5);
}

TEST_CASE("MSL Blocks.Examples.Noise.Distributions: UniformNoise with fixedLocalSeed = 1 against the reference",
          "[msl][noise]") {
  const double T = 0.02;
  Model m("Distributions");
  m.add<blocks::UniformNoise>("uniformNoise", {{"samplePeriod", T}, {"y_min", -1.0}, {"y_max", 3.0}, {"localSeed", 1}});
  const Result r = m.compile().simulate(test::run_for(2.0, T / 2));
  const test::Table ref = test::read_csv(test::data_dir() / "msl" / "Blocks_Noise_Distributions.csv");
  const auto y = r["uniformNoise.y"];
  for (int k = 0; k < 10; ++k) {
    INFO("sample " << k);
    CHECK(std::fabs(sample_k(r.time(), y, T, k) - sample_k(ref.column("time"), ref.column("uniformNoise.y"), T, k)) <=
          1e-12);
  }
  CHECK(test::compare_with_reference(r, "Blocks_Noise_Distributions.csv", {"uniformNoise.y"}) <= 1e-3);
}

TEST_CASE("MSL NormalNoise: Normal.quantile (MSL's erfInv) of MSL's stream, one number per sample", "[msl][noise]") {
  const double T = 0.01, mu = 0.5, sigma = 2.0;
  Model m("NormalNoise");
  m.add<blocks::NormalNoise>("normalNoise", {{"samplePeriod", T}, {"mu", mu}, {"sigma", sigma}, {"localSeed", 10}});
  m.add<blocks::NormalNoise>("noGlobal", {{"samplePeriod", T}, {"localSeed", 0}, {"useGlobalSeed", 0}});
  const Result r = m.compile().simulate(test::run_for(1.0, T / 2));
  test::MslXorshift128plus stream(67867967, 10), zero_seeds(0, 0);
  const auto y = r["normalNoise.y"], y0 = r["noGlobal.y"], raw = r["normalNoise.r_raw"];
  for (int k = 0; k < 100; ++k) {
    INFO("sample " << k);
    const double u = stream.next();
    CHECK(sample_k(r.time(), raw, T, k) == u);
    CHECK(std::fabs(test::normal_cdf(sample_k(r.time(), y, T, k), mu, sigma) - u) <= 1e-13);
    // Both seeds 0: MSL's fallback local seed 126247697.
    CHECK(std::fabs(test::normal_cdf(sample_k(r.time(), y0, T, k), 0.0, 1.0) - zero_seeds.next()) <= 1e-13);
  }
}

TEST_CASE("Noise: y_off before startTime, MSL's first number at startTime", "[msl][noise]") {
  Model m("late");
  m.add<blocks::UniformNoise>("noise", {{"y_off", -5.0}, {"startTime", 0.105}, {"samplePeriod", 0.01}, {"localSeed", 3}});
  const Result r = m.compile().simulate(test::run_for(0.2, 0.0025));
  test::MslXorshift128plus stream(67867967, 3);
  CHECK(test::at(r.time(), r["noise.y"], 0.1) == -5.0);
  CHECK(test::at(r.time(), r["noise.y"], 0.11) == stream.next());
  CHECK(test::at(r.time(), r["noise.y"], 0.12) == stream.next());
}

}  // namespace test_msl_noise
