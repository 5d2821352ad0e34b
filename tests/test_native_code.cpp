// Native code: the compiled model's tapes built by the system's C compiler and
// loaded; a simulation must not change by a single bit.
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "tests/flat_car.hpp"
#include "tests/support.hpp"

namespace test_native_code {

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

// The one library in a cache directory.
std::filesystem::path cached_library(const std::filesystem::path& cache) {
  std::optional<std::filesystem::path> found;
  for (const auto& entry : std::filesystem::directory_iterator(cache))
    if (entry.path().extension() == ".so") {
      REQUIRE_FALSE(found);
      found = entry.path();
    }
  REQUIRE(found);
  return *found;
}

// The library compile() reports it built or loaded.
std::filesystem::path reported_library(const Simulator& s) {
  const PassReport* pass = s.report().find("native_code");
  REQUIRE(pass);
  REQUIRE(pass->notes.size() == 1);
  const std::string& note = pass->notes[0];
  return note.substr(note.find('/'));
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
  test::require_identical(a, b);
  // A parameter change reaches the native code through the same registers.
  tape.set_parameter("ops.k", 3.0);
  native.set_parameter("ops.k", 3.0);
  test::require_identical(tape.simulate(test::run_for(1.0, 0.01)), native.simulate(test::run_for(1.0, 0.01)));
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
  test::require_identical(tape.simulate(opt), native.simulate(opt));
  Simulator again = m.compile(native_in(cache));
  CHECK(again.report().count("native_code", "compiled") == 0);
  test::require_identical(tape.simulate(opt), again.simulate(opt));
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

TEST_CASE("The compiler setting is a program and its arguments, never a shell command", "[native][errors][security]") {
  Model m("ops");
  m.add<EveryOperator>("ops");
  const auto cache = fresh_cache("shell");
  const auto marker = std::filesystem::temp_directory_path() / "acausal-test-shell-marker";
  std::filesystem::remove(marker);
  CompileOptions o = native_in(cache);
  o.native.compiler = "cc; touch " + marker.string() + "; cc";
  // Through a shell this ran three commands: the last one built the library and touch made the marker.
  CHECK_THROWS_WITH(m.compile(o), Catch::Contains("the C compiler failed") && Catch::Contains("cannot run 'cc;'") &&
                                      Catch::Contains(o.native.compiler));
  CHECK_FALSE(std::filesystem::exists(marker));
  // Arguments after the program name are passed as they are.
  o.native.compiler = "cc -w";
  CHECK(m.compile(o).report().count("native_code", "compiled") == 1);
  std::filesystem::remove(marker);
  std::filesystem::remove_all(cache);
}

TEST_CASE("A cached library whose bytes changed is rebuilt, never loaded", "[native][security]") {
  Model m("ops");
  m.add<EveryOperator>("ops");
  const auto cache = fresh_cache("tampered");
  const auto marker = std::filesystem::temp_directory_path() / "acausal-test-tampered-marker";
  std::filesystem::remove(marker);
  // The first compile fills the cache; its library is unloaded with the Simulator, so a later dlopen of the
  // same name maps the file anew.
  CHECK(m.compile(native_in(cache)).report().count("native_code", "compiled") == 1);
  const auto library = cached_library(cache);

  // A library whose constructor leaves the marker, put where the cached one was (its record kept).
  const auto planted_source = cache.parent_path() / "acausal-test-planted.c";
  std::ofstream(planted_source) << "#include <stdio.h>\n__attribute__((constructor)) static void plant(void) {\n"
                                   "  FILE* f = fopen(\"" + marker.string() + "\", \"w\");\n  if (f) fclose(f);\n}\n";
  const std::string build = "cc -shared -fPIC -o '" + library.string() + "' '" + planted_source.string() + "'";
  REQUIRE(std::system(build.c_str()) == 0);

  std::optional<Simulator> again;
  CHECK_NOTHROW(again.emplace(m.compile(native_in(cache))));
  CHECK_FALSE(std::filesystem::exists(marker));
  REQUIRE(again);
  CHECK(again->report().count("native_code", "compiled") == 1);
  Simulator tape = m.compile();
  test::require_identical(tape.simulate(test::run_for(1.0, 0.01)), again->simulate(test::run_for(1.0, 0.01)));
  std::filesystem::remove(marker);
  std::filesystem::remove(planted_source);
  std::filesystem::remove_all(cache);
}

TEST_CASE("A truncated or unrecorded cached library is rebuilt and runs as the interpreter does",
          "[native][security]") {
  Model m("ops");
  m.add<EveryOperator>("ops");
  const auto cache = fresh_cache("truncated");
  CHECK(m.compile(native_in(cache)).report().count("native_code", "compiled") == 1);
  const auto library = cached_library(cache);
  // Loading this killed the process with SIGBUS.
  std::filesystem::resize_file(library, std::filesystem::file_size(library) / 2);

  Simulator tape = m.compile();
  const SimulationOptions opt = test::run_for(3.0, 0.01);
  {
    Simulator native = m.compile(native_in(cache));
    CHECK(native.report().count("native_code", "compiled") == 1);
    test::require_identical(tape.simulate(opt), native.simulate(opt));
  }
  CHECK(m.compile(native_in(cache)).report().count("native_code", "compiled") == 0);

  // A library without its record (written by an older version, or a crash between the two renames).
  std::filesystem::remove(library.string() + ".sha256");
  Simulator native = m.compile(native_in(cache));
  CHECK(native.report().count("native_code", "compiled") == 1);
  test::require_identical(tape.simulate(opt), native.simulate(opt));
  std::filesystem::remove_all(cache);
}

TEST_CASE("The cache directory is owner-only, and one that others may write to is refused", "[native][security]") {
  namespace fs = std::filesystem;
  Model m("ops");
  m.add<EveryOperator>("ops");
  const auto cache = fresh_cache("permissions") / "nested";
  CHECK(m.compile(native_in(cache)).report().count("native_code", "compiled") == 1);
  for (const auto& dir : {cache, cache.parent_path()}) {
    INFO(dir.string());
    CHECK((fs::status(dir).permissions() & (fs::perms::group_all | fs::perms::others_all)) == fs::perms::none);
  }

  fs::permissions(cache, fs::perms::all);
  CHECK_THROWS_WITH(m.compile(native_in(cache)),
                    Catch::Contains("'" + cache.string() + "'") && Catch::Contains("writable by everyone") &&
                        Catch::Contains("chmod 700"));
  fs::permissions(cache, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_write);
  CHECK_THROWS_WITH(m.compile(native_in(cache)), Catch::Contains("writable by its group"));
  fs::permissions(cache, fs::perms::owner_all);
  CHECK(m.compile(native_in(cache)).report().count("native_code", "compiled") == 0);
  fs::remove_all(cache.parent_path());
}

TEST_CASE("Without HOME or a cache setting the cache is a private directory, never a shared one in /tmp",
          "[native][security]") {
  namespace fs = std::filesystem;
  // Unset for this test only; restored however it ends.
  struct UnsetVariables {
    std::vector<std::pair<std::string, std::optional<std::string>>> saved;
    explicit UnsetVariables(std::initializer_list<const char*> names) {
      for (const char* name : names) {
        const char* value = std::getenv(name);
        saved.emplace_back(name, value ? std::optional<std::string>(value) : std::nullopt);
        unsetenv(name);
      }
    }
    ~UnsetVariables() {
      for (const auto& [name, value] : saved)
        if (value) setenv(name.c_str(), value->c_str(), 1);
    }
  } unset{"HOME", "XDG_CACHE_HOME", "ACAUSAL_CACHE_DIR"};

  Model m("ops");
  m.add<EveryOperator>("ops");
  CompileOptions o;
  o.native_code = true;
  const Simulator native = m.compile(o);
  const fs::path dir = reported_library(native).parent_path();
  INFO(dir.string());
  CHECK(dir != fs::temp_directory_path() / "acausal");
  struct stat info {};
  REQUIRE(::stat(dir.c_str(), &info) == 0);
  CHECK(info.st_uid == ::geteuid());
  CHECK((info.st_mode & 077) == 0);
}

}  // namespace test_native_code
