// Native code: the compiled model's tapes built by the system's C compiler and
// loaded; a simulation must not change by a single bit.
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>

#include <filesystem>
#include <string>

#include "tests/flat_car.hpp"
#include "tests/support.hpp"

using namespace acausal;

namespace {

// Every operator the tape knows, in a state equation and in observed outputs,
// with events from abs, sign, min, max and a comparison.
struct EveryOperator : Component {
  Variable x = variable("x", {.start = 0.5, .fixed = true});
  Variable smooth = variable("smooth");
  Variable hybrid = variable("hybrid");
  Variable logic = variable("logic");
  Parameter k = parameter("k", 2.0);

  explicit EveryOperator(std::string name) : Component(std::move(name)) {
    Expr t = time_symbol();
    Expr u = 0.4 * sin(3 * t);  // stays inside asin's and acos's domain
    equation(smooth == sqrt(1 + x * x) + exp(-x) + log(2 + cos(t)) + tan(0.3 * u) + asin(u) + acos(u) + atan(x) +
                           sinh(u) + cosh(u) + tanh(k * x) + pow(x, 2) + pow(1 + x * x, 0.5) + atan2(u, 1 + x));
    equation(hybrid == abs(u) + sign(u) + min(x, u) + max(x, u) + ifelse(u > 0.1, x / k, -x) + no_event(abs(x - u)));
    equation(logic == ifelse((u < 0.2 && x >= 0) || !(u <= -0.3), 1.0, 2.0));
    equation(der(x) == -x + 0.1 * smooth - 0.2 * hybrid + 0.05 * logic);
  }
};

std::filesystem::path fresh_cache(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / ("acausal-test-" + name);
  std::filesystem::remove_all(dir);
  return dir;
}

CompileOptions native_in(const std::filesystem::path& cache) {
  CompileOptions o;
  o.native_code = true;
  o.native.cache_directory = cache.string();
  return o;
}

void require_identical(const Result& a, const Result& b) {
  REQUIRE(a.size() == b.size());
  CHECK(a.time() == b.time());
  for (const auto& name : a.names()) {
    INFO(name);
    CHECK(a[name] == b[name]);
  }
}

}  // namespace

TEST_CASE("Native code computes every operator exactly as the tape does", "[native]") {
  Model m("ops");
  m.add<EveryOperator>("ops");
  const auto cache = fresh_cache("ops");
  Simulator tape = m.compile(), native = m.compile(native_in(cache));
  INFO(native.report().str());
  CHECK(native.report().count("native_code", "compiled") == 1);
  CHECK(native.report().count("native_code", "instructions") > 50);
  const Result a = tape.simulate(test::run_for(3.0, 0.01)), b = native.simulate(test::run_for(3.0, 0.01));
  CHECK(a.statistics().steps == b.statistics().steps);
  require_identical(a, b);
  // A parameter change reaches the native code through the same registers.
  tape.set_parameter("ops.k", 3.0);
  native.set_parameter("ops.k", 3.0);
  require_identical(tape.simulate(test::run_for(1.0, 0.01)), native.simulate(test::run_for(1.0, 0.01)));
  std::filesystem::remove_all(cache);
}

TEST_CASE("The flagship car runs the same with native code, and a second compile loads it from the cache",
          "[native]") {
  Model m("launch");
  test::build_rear_drive_car(m);
  const auto cache = fresh_cache("car");
  Simulator tape = m.compile(), native = m.compile(native_in(cache));
  CHECK(native.report().count("native_code", "compiled") == 1);
  const SimulationOptions opt = test::run_for(6.0, 0.05, 1e-6);
  require_identical(tape.simulate(opt), native.simulate(opt));
  Simulator again = m.compile(native_in(cache));
  CHECK(again.report().count("native_code", "compiled") == 0);
  require_identical(tape.simulate(opt), again.simulate(opt));
  std::filesystem::remove_all(cache);
}

TEST_CASE("A C compiler that fails is a ModelError that names it and keeps the source", "[native][errors]") {
  Model m("ops");
  m.add<EveryOperator>("ops");
  const auto cache = fresh_cache("broken");
  CompileOptions o = native_in(cache);
  o.native.compiler = "/nonexistent/cc";
  CHECK_THROWS_AS(m.compile(o), ModelError);
  CHECK_THROWS_WITH(m.compile(o), Catch::Contains("the C compiler failed") && Catch::Contains("/nonexistent/cc") &&
                                      Catch::Contains(".c'"));
  std::filesystem::remove_all(cache);
}
