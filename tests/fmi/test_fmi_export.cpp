// The exported FMU as a product: the library car through the checker equals
// the library's own run, the binary stands alone, two instances live side by
// side, and misuse gets fmi2Error with a message instead of a crash.
#include <acausal/harness/rigs.hpp>

#include <cmath>
#include <cstdio>
#include <memory>
#include <sstream>

#include "tests/fmi/fmi_support.hpp"
#include "tests/fmi/reference_models.hpp"

namespace test_fmi_export {

using namespace acausal;
using test::co_simulate;
using test::column;

namespace {

Simulator launch_car() {
  Model m("launch_and_brake");
  auto& car = m.add<vehicle::RearDriveCar>("car");
  harness::drive_launch(m, car, 1.0, 12.0);
  return m.compile();
}

std::string command_output(const std::string& command) {
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  REQUIRE(pipe);
  std::string out;
  char buffer[4096];
  while (std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe.get())) out.append(buffer, n);
  return out;
}

std::vector<std::string> logged;

void collect(fmi2ComponentEnvironment, fmi2String, fmi2Status, fmi2String, fmi2String message, ...) {
  logged.emplace_back(message);
}

}  // namespace

TEST_CASE("The exported launch car, run by the checker, equals the library's own run within 1e-6", "[fmi]") {
  const Simulator sim = launch_car();
  const double step = 0.01, stop = 18.0;
  const test::TemporaryFmu file(sim, "launch_car", {.stop_time = stop, .tolerance = 1e-6, .step_size = step});
  const fmi::check::Fmu fmu(file.path());
  const std::vector<std::string> names = {"car.body.v", "car.body.s", "car.engine.w", "car.wheel_rl.kappa"};
  const auto run = co_simulate(fmu, stop, step, names, 1e-6);
  // The library's own run with the same communication points: a session advanced step by step.
  const auto difference = test::difference_from_library(sim, {}, run);
  INFO("largest difference " << difference.relative << " (" << difference.where << ")");
  CHECK(difference.relative <= 1e-6);
  CHECK(column(run, "car.body.v").back() < 0.05);  // it launched and stopped again
}

TEST_CASE("Two instances of one FMU run side by side in one process, each as a single instance does", "[fmi]") {
  const test::TemporaryFmu file(test::VanDerPol().compile(), "two_instances", {.stop_time = 10.0});
  const fmi::check::Fmu fmu(file.path());
  fmi::check::RunOptions options;
  options.stop_time = 10.0;
  options.step_size = 0.05;
  const auto single = fmu.run_co_simulation(options);
  REQUIRE(single.completed);
  const auto both = fmu.run_two_instances(options, single);
  for (const auto& f : both.findings) FAIL_CHECK(f.rule << ": " << f.message);
  CHECK(both.passed);
}

TEST_CASE("The FMU's binary needs nothing but the C library and names no path of this machine", "[fmi]") {
  const std::string runtime = fmu_runtime_library();
  // Undefined dynamic symbols: each must come from glibc (libc, libm, libdl), versioned GLIBC_*.
  std::istringstream undefined(command_output("nm -D --undefined-only '" + runtime + "'"));
  std::string line;
  int symbols = 0;
  while (std::getline(undefined, line)) {
    if (line.find(" w ") != std::string::npos) continue;  // weak: optional, resolved to null when absent
    ++symbols;
    INFO(line);
    CHECK(line.find("@GLIBC_") != std::string::npos);
  }
  CHECK(symbols > 0);
  std::istringstream needed(command_output("objdump -p '" + runtime + "' | grep NEEDED"));
  while (std::getline(needed, line)) {
    INFO(line);
    CHECK((line.find("libc.so") != std::string::npos || line.find("libm.so") != std::string::npos ||
           line.find("libdl.so") != std::string::npos || line.find("ld-linux") != std::string::npos));
  }
  // Only the fmi2 functions are exported.
  std::istringstream defined(command_output("nm -D --defined-only '" + runtime + "'"));
  int exported = 0;
  while (std::getline(defined, line)) {
    INFO(line);
    CHECK(line.find(" fmi2") != std::string::npos);
    ++exported;
  }
  CHECK(exported == 44);
  CHECK(command_output("strings '" + runtime + "' | grep -c '" + std::string(ACAUSAL_TEST_BUILD_DIR) + "' || true") ==
        "0\n");
}

TEST_CASE("Misuse of an FMU instance is fmi2Error with a message naming the call, never a crash", "[fmi][errors]") {
  const test::TemporaryFmu file(test::Feedthrough().compile(), "misuse", {.stop_time = 1.0});
  fmi::check::UnpackedFmu fmu(file.path());
  REQUIRE(fmu.load_findings().empty());
  fmi2CallbackFunctions callbacks{collect, nullptr, nullptr, nullptr, nullptr};
  const test::Fmi2Functions fmi2(fmu);
  const std::string guid = fmu.description().guid, resources = fmu.resource_uri();
  auto last_message = [] { return logged.empty() ? std::string() : logged.back(); };

  logged.clear();
  CHECK(fmi2.instantiate("x", fmi2CoSimulation, "{wrong}", resources.c_str(), &callbacks, fmi2False, fmi2False) == nullptr);
  CHECK_THAT(last_message(), Catch::Contains("GUID"));
  CHECK(fmi2.instantiate("x", static_cast<fmi2Type>(7), guid.c_str(), resources.c_str(), &callbacks, fmi2False,
                         fmi2False) == nullptr);
  CHECK_THAT(last_message(), Catch::Contains("fmuType 7"));
  CHECK(fmi2.instantiate("x", fmi2CoSimulation, guid.c_str(), "file:///nowhere", &callbacks, fmi2False, fmi2False) ==
        nullptr);
  CHECK_THAT(last_message(), Catch::Contains("nowhere"));

  fmi2Component c = fmi2.instantiate("x", fmi2CoSimulation, guid.c_str(), resources.c_str(), &callbacks, fmi2False, fmi2False);
  REQUIRE(c);
  CHECK(fmi2.do_step(c, 0.0, 0.1, fmi2True) == fmi2Error);  // before initialization
  CHECK_THAT(last_message(), Catch::Contains("fmi2DoStep"));
  REQUIRE(fmi2.enter(c) == fmi2OK);
  REQUIRE(fmi2.exit(c) == fmi2OK);
  const fmi2ValueReference u = test::value_reference(fmu, "u");
  const fmi2ValueReference unknown = 100000;
  const double nan = std::nan(""), one = 1.0;
  CHECK(fmi2.set_real(c, &unknown, 1, &one) == fmi2Error);
  CHECK_THAT(last_message(), Catch::Contains("100000"));
  CHECK(fmi2.set_real(c, &u, 1, &nan) == fmi2Error);
  CHECK_THAT(last_message(), Catch::Contains("NaN"));
  CHECK(fmi2.do_step(c, 0.5, 0.1, fmi2True) == fmi2Error);  // not the current time
  CHECK_THAT(last_message(), Catch::Contains("fmi2DoStep"));
  CHECK(fmi2.do_step(c, 0.0, 0.1, fmi2True) == fmi2OK);
  double seed = 1, sensitivity = 0;
  CHECK(fmi2.directional(c, &u, 1, &u, 1, &seed, &sensitivity) == fmi2Error);
  CHECK_THAT(last_message(), Catch::Contains("fmi2GetDirectionalDerivative"));
  CHECK(fmi2.do_step(nullptr, 0.1, 0.1, fmi2True) == fmi2Error);
  fmi2.free_instance(c);
}

TEST_CASE("An FMU state taken and given back replays the steps after it bit for bit, fmi2Reset starts over",
          "[fmi]") {
  const test::TemporaryFmu file(test::BouncingBallFmu().compile(), "fmu_state", {.stop_time = 3.0});
  fmi::check::UnpackedFmu fmu(file.path());
  REQUIRE(fmu.load_findings().empty());
  const test::Fmi2Functions fmi2(fmu);
  fmi2CallbackFunctions callbacks{collect, nullptr, nullptr, nullptr, nullptr};
  fmi2Component c = fmi2.instantiate("ball", fmi2CoSimulation, fmu.description().guid.c_str(),
                                     fmu.resource_uri().c_str(), &callbacks, fmi2False, fmi2False);
  REQUIRE(c);
  const fmi2ValueReference h = test::value_reference(fmu, "height");
  auto start = [&] {
    REQUIRE(fmi2.setup(c, fmi2False, 0.0, 0.0, fmi2True, 3.0) == fmi2OK);
    REQUIRE(fmi2.enter(c) == fmi2OK);
    REQUIRE(fmi2.exit(c) == fmi2OK);
  };
  // Heights at t0 + 0.05 k, k = 1 .. n, stepping from t0.
  auto heights = [&](double t0, int n) {
    std::vector<double> out;
    for (int k = 0; k < n; ++k) {
      REQUIRE(fmi2.do_step(c, t0 + 0.05 * k, 0.05, fmi2True) == fmi2OK);
      double value = 0;
      REQUIRE(fmi2.get_real(c, &h, 1, &value) == fmi2OK);
      out.push_back(value);
    }
    return out;
  };
  start();
  const std::vector<double> first_second = heights(0.0, 20);
  fmi2FMUstate saved = nullptr;
  REQUIRE(fmi2.get_state(c, &saved) == fmi2OK);
  const std::vector<double> after = heights(1.0, 30);  // two bounces on the way
  REQUIRE(fmi2.set_state(c, saved) == fmi2OK);
  CHECK(heights(1.0, 30) == after);
  REQUIRE(fmi2.free_state(c, &saved) == fmi2OK);
  CHECK(saved == nullptr);

  REQUIRE(fmi2.reset(c) == fmi2OK);
  start();
  CHECK(heights(0.0, 20) == first_second);
  fmi2.free_instance(c);
}

}  // namespace test_fmi_export
