// Issue 38: a soft-soil wheel on ground whose soil changes along the travel
// (SoilPatchWheel), the soil wheel's checklist against a wrong wheel, and the
// tractor's sensors (seed 003) against their noise and resolution.
#include <catch2/catch.hpp>

#include <cmath>
#include <numeric>

#include <acausal/acausal.hpp>
#include <acausal/harness/rigs.hpp>
#include <acausal/harness/soil_checklist.hpp>

#include "support.hpp"

namespace test_soil_patches {

using namespace acausal;
using namespace acausal::vehicle;
using Catch::Contains;
using test::run_for;

namespace {

constexpr double radius = 0.5, width = 0.3, load_W = 3000.0, hull_v = 1.0, slip = 0.2;

/// The wheel at a constant slip under load_W, the hull at hull_v from s = 0.
Result run_at_slip(Model& m, SoftSoilWheel& wheel, double t_end) {
  wheel.guess_sinkage(load_W);
  const double w = hull_v / (radius * (1 - slip));
  harness::soil_contact_bench(m, wheel.flange_rot, wheel.contact, load_W, hull_v, w, w, 1.0);
  m.set_start("hull.s", 0.0);
  return test::compile_checked(m).simulate(run_for(t_end, 0.05));
}

ParameterValues wheel_values(const Soil& s) { return with_soil(s, {{"radius", radius}, {"b", width}, {"J", 2.0}}, true); }

std::size_t row_at(const Result& r, double t) {
  const auto& time = r.time();
  std::size_t best = 0;
  for (std::size_t k = 0; k < time.size(); ++k)
    if (std::fabs(time[k] - t) < std::fabs(time[best] - t)) best = k;
  return best;
}

}  // namespace

TEST_CASE("Soil by patch: a wheel crossing sandy loam, dry sand and clayey soil reaches each soil's own pull and "
          "sinkage", "[vehicle][terramechanics][patch]") {
  const std::vector<std::string> names = {"sandy_loam", "dry_sand", "clayey_soil"};
  const double blend = 0.5;
  // Single-soil runs: the steady pull and sinkage of each soil at 20 % slip.
  std::vector<double> DP_alone, z_alone;
  for (const auto& name : names) {
    Model m("alone");
    auto& wheel = m.add<SoftSoilWheel>("wheel", wheel_values(soil(name)));
    const Result r = run_at_slip(m, wheel, 1.0);
    DP_alone.push_back(r["wheel.DP"].back());
    z_alone.push_back(r["wheel.z"].back());
  }
  // The pulls differ by far more than the tolerance: the test can tell the soils apart.
  CHECK(std::fabs(DP_alone[0] - DP_alone[1]) > 0.05 * load_W);
  CHECK(std::fabs(z_alone[1] - z_alone[2]) > 0.1 * z_alone[1]);

  Model m("patches");
  auto& wheel = m.add<SoilPatchWheel>(
      "wheel", wheel_values(soil(names[0])),
      std::vector<SoilPatch>{{3.0, soil(names[1])}, {6.0, soil(names[2])}}, blend);
  const Result r = run_at_slip(m, wheel, 9.0);
  const auto DP = r["wheel.DP"], z = r["wheel.z"], s = r["hull.s"];
  // Outside the blends (0.25 m either side of 3 and 6 m) each soil's own
  // values, to the integrator's tolerance (rtol 1e-8): within 1e-6.
  for (std::size_t k = 0; k < r.size(); ++k) {
    const int patch = s[k] < 3.0 - blend / 2 ? 0 : s[k] > 3.0 + blend / 2 && s[k] < 6.0 - blend / 2 ? 1
                      : s[k] > 6.0 + blend / 2                                            ? 2
                                                                                          : -1;
    if (patch < 0) continue;
    INFO("s = " << s[k] << " m on " << names[patch]);
    CHECK(DP[k] == Approx(DP_alone[patch]).epsilon(1e-6));
    CHECK(z[k] == Approx(z_alone[patch]).epsilon(1e-6));
  }
  // The crossings are smooth: the sinkage never jumps between output rows (0.05 m apart).
  double largest_step = 0;
  for (std::size_t k = 1; k < r.size(); ++k) largest_step = std::max(largest_step, std::fabs(z[k] - z[k - 1]));
  CHECK(largest_step < 0.25 * std::fabs(z_alone[1] - z_alone[2]));
  CHECK(DP[row_at(r, 4.5)] == Approx(DP_alone[1]).epsilon(1e-6));
}

TEST_CASE("Soil by patch: patches out of order or closer than the blend are refused, naming the wheel",
          "[vehicle][terramechanics][patch]") {
  Model m("bad");
  CHECK_THROWS_WITH(m.add<SoilPatchWheel>("wheel", ParameterValues{},
                                          std::vector<SoilPatch>{{3.0, soil("dry_sand")}, {3.2, soil("sandy_loam")}},
                                          0.5),
                    Contains("wheel") && Contains("soil patch 2 ('sandy_loam')") && Contains("blend_length"));
  CHECK_THROWS_WITH(
      m.add<SoilPatchWheel>("wheel2", ParameterValues{}, std::vector<SoilPatch>{{3.0, soil("dry_sand")}}, 0.0),
      Contains("wheel2") && Contains("blend_length must be positive"));
}

namespace {

/// A soil wheel computing with a sinkage exponent 10 % above the soil it is given.
SoftSoilWheel& wrong_exponent_wheel(Model& m, const std::string& name, const ParameterValues& values) {
  auto& wheel = m.add<SoftSoilWheel>(name, values);
  for (const auto& [key, value] : values)
    if (key == "n") wheel.set_parameter("n", 1.1 * value);
  return wheel;
}

const harness::CheckResult& find(const harness::ChecklistReport& r, const std::string& rig, const std::string& title) {
  for (const auto& c : r.checks)
    if (c.rig == rig && c.title == title) return c;
  FAIL("no check '" << title << "' on rig " << rig);
  throw;
}

}  // namespace

TEST_CASE("The soil wheel checklist passes the library wheel and fails a wheel with a wrong sinkage exponent",
          "[harness][vehicle][terramechanics]") {
  const harness::ChecklistReport good = harness::soil_wheel_checklist().run();
  for (const auto& c : good.checks) {
    INFO(c.rig << ": " << c.title << ": " << c.message);
    CHECK(c.passed);
  }
  const harness::ChecklistReport bad = harness::soil_wheel_checklist(wrong_exponent_wheel).run();
  CHECK_FALSE(bad.passed());
  for (const char* rig : {"bekker", "slip_sweep", "pulling"}) {
    const auto& vertical =
        find(bad, rig, "vertical equilibrium: the soil's stresses carry W within 0.1 % at every row");
    INFO(rig << ": " << vertical.message);
    CHECK_FALSE(vertical.passed);
  }
  const auto& sinkage = find(bad, "bekker", "sinkage = Bekker's z0 within 1 %");
  INFO(sinkage.message);
  CHECK_FALSE(sinkage.passed);
  CHECK_THAT(sinkage.message, Contains("wheel.z"));
}

TEST_CASE("Sensors: the error of a noisy, quantized reading has the stated mean and spread, readings are multiples of "
          "the resolution", "[vehicle][sensors]") {
  // A sensor on a slow sine, sampled 20000 times: the error measured - u_sampled
  // is noise (σ) plus rounding (uniform over ±q/2, variance q²/12). Its mean
  // lies within 4 standard errors of 0 and its standard deviation within 3 %
  // of √(σ² + q²/12) (the standard error of a standard deviation over 20000
  // samples is 0.5 %); every reading is a multiple of q to 1e-12.
  struct Case {
    double sigma, q;
  };
  for (const Case c : {Case{0.05, 0.01}, Case{0.0, 0.02}, Case{0.02, -1.0}}) {
    INFO("sigma " << c.sigma << ", resolution " << c.q);
    Model m("sensor");
    auto& sensor = m.add<NoisySensor>("sensor", {{"sigma", c.sigma}, {"resolution", c.q}, {"samplePeriod", 0.01}});
    auto& sine = m.add<blocks::Sine>("sine", {{"amplitude", 2.0}, {"f", 0.05}, {"offset", 1.0}});
    m.connect(sine.y, sensor.u);
    // A continuous state for the integrator to step (a model of samples alone has none).
    auto& integral = m.add<blocks::Integrator>("integral");
    m.connect(sine.y, integral.u);
    const Result r = m.compile().simulate(run_for(200.0, 0.005));
    const auto measured = r["sensor.measured"], truth = r["sensor.u_sampled"], time = r.time();
    std::vector<double> errors;
    double worst_rounding = 0;
    for (std::size_t k = 0; k < r.size(); ++k) {
      // Rows between samples (0.005 s after one): one reading each.
      if (std::fabs(std::fmod(time[k], 0.01) - 0.005) > 1e-6) continue;
      errors.push_back(measured[k] - truth[k]);
      if (c.q > 0) worst_rounding = std::max(worst_rounding, std::fabs(measured[k] - c.q * std::round(measured[k] / c.q)));
    }
    REQUIRE(errors.size() > 19000);
    const double count = static_cast<double>(errors.size());
    const double mean = std::accumulate(errors.begin(), errors.end(), 0.0) / count;
    double variance = 0;
    for (double e : errors) variance += (e - mean) * (e - mean);
    const double spread = std::sqrt(variance / (count - 1));
    const double expected = std::sqrt(c.sigma * c.sigma + (c.q > 0 ? c.q * c.q / 12 : 0.0));
    CHECK(std::fabs(mean) < 4 * expected / std::sqrt(count));
    CHECK(spread == Approx(expected).epsilon(0.03));
    CHECK(worst_rounding < 1e-12);
  }
}

TEST_CASE("Tractor sensors: on a 5 % grade at rest the accelerometer reads g·sin(θ) and the inertial unit θ, within "
          "their noise", "[vehicle][tractor][sensors]") {
  Model m("tractor_sensors");
  auto& tractor = m.add<Tractor>("tractor", {}, TractorOptions{.sensors = true});
  const double theta = std::atan(0.05);
  tractor.set_parameter("body.grade", theta);
  auto& zero = m.add<blocks::Constant>("zero", {{"k", 0.0}});
  auto& full = m.add<blocks::Constant>("full", {{"k", 1.0}});
  m.connect(zero.y, tractor.throttle);
  m.connect(full.y, tractor.brake_pedal);
  m.connect(zero.y, tractor.clutch_pedal);
  m.connect(zero.y, tractor.gear);
  const Result r = test::compile_checked(m).simulate(run_for(2.0, 0.005));
  const auto acceleration = r["tractor.acceleration"], pitch = r["tractor.pitch"], rate = r["tractor.pitch_rate"];
  const auto truth_a = r["tractor.accelerometer.u_sampled"];
  std::vector<double> error_a, error_pitch, error_rate;
  for (std::size_t k = 0; k < r.size(); ++k) {
    if (r.time()[k] < 0.5) continue;
    error_a.push_back(acceleration[k] - truth_a[k]);
    error_pitch.push_back(pitch[k] - theta);
    error_rate.push_back(rate[k]);
  }
  const auto rms = [](const std::vector<double>& e) {
    double sum = 0;
    for (double x : e) sum += x * x;
    return std::sqrt(sum / static_cast<double>(e.size()));
  };
  // Rows every 5 ms, samples every 10 ms: each reading counted about twice;
  // 150 readings give the spread within about 20 %.
  CHECK(rms(error_a) == Approx(std::sqrt(0.05 * 0.05 + 0.01 * 0.01 / 12)).epsilon(0.25));
  CHECK(rms(error_pitch) == Approx(std::sqrt(0.005 * 0.005 + 0.001 * 0.001 / 12)).epsilon(0.25));
  CHECK(rms(error_rate) == Approx(std::sqrt(0.002 * 0.002 + 0.001 * 0.001 / 12)).epsilon(0.25));
  // The accelerometer's true input is the body's specific force a_x + g·sin θ
  // (sampled every 10 ms, so compared as means over the last half second).
  const auto a_x = r["tractor.body.a_x"];
  double sampled = 0, specific = 0, count = 0;
  for (std::size_t k = 0; k < r.size(); ++k)
    if (r.time()[k] > 1.5) sampled += truth_a[k], specific += a_x[k] + 9.81 * std::sin(theta), count += 1;
  CHECK(sampled / count == Approx(specific / count).epsilon(1e-2));
}

}  // namespace test_soil_patches
