// Models specialized at compile time: structural choices folded, one root
// function per distinct relation, fast and exact CSV output, tight tolerances.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <acausal/acausal.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "bench/car_model.hpp"
#include "tests/flat_car.hpp"
#include "examples/rolling_wheel_model.hpp"
#include "tests/support.hpp"

namespace test_specialization {

using namespace acausal;

namespace {

const PassReport& events_of(const Simulator& sim) { return *sim.report().find("events"); }

long root_function_notes(const Simulator& sim) {
  long n = 0;
  for (const auto& note : events_of(sim).notes) n += note.rfind("root function: ", 0) == 0;
  return n;
}

}  // namespace

TEST_CASE("A structural tire law compiles only the chosen law, its events and its parameters", "[specialization]") {
  struct Expected {
    int law;
    long state_events;
  };
  // The saturated-linear law clamps with min and max: two root functions per wheel.
  for (auto [law, state_events] : {Expected{vehicle::TireLaw::tanh, 0}, Expected{vehicle::TireLaw::linear, 8},
                                   Expected{vehicle::TireLaw::pacejka, 0}}) {
    INFO("tire_law " << vehicle::TireLaw::names[law]);
    Model m("car");
    bench::build_launch_car(m, law);
    Simulator sim = m.compile();
    INFO(sim.report().str());
    CHECK(sim.report().count("events", "state_events") == state_events);
    CHECK(root_function_notes(sim) == state_events);
    // The root functions are the linear law's clamps, read from each wheel.
    for (const auto& note : events_of(sim).notes) {
      CHECK(note.find("slip_compliance") != std::string::npos);
      CHECK(note.find("(vehicle::Wheel)]") != std::string::npos);
    }
    Result r = sim.simulate(test::run_for(2.0, 0.01, 1e-6));
    CHECK(r["body.v"].back() > 0.5);
    CHECK_THROWS_WITH(sim.set_parameter("wheel_rl.tire_law", 1.0),
                      Catch::Contains("wheel_rl.tire_law") && Catch::Contains("before compile()"));
  }
  // Each law's own physics stays as it was: the tanh law's residual is the
  // smallest, and choosing another law changes the force, not the structure.
  Model tanh_car("car"), pacejka_car("car");
  bench::build_launch_car(tanh_car, vehicle::TireLaw::tanh);
  bench::build_launch_car(pacejka_car, vehicle::TireLaw::pacejka);
  CHECK(tanh_car.compile().report().count("evaluation", "residual_instructions") <
        pacejka_car.compile().report().count("evaluation", "residual_instructions"));
}

TEST_CASE("A choice parameter is set by name and refuses values that are no choice", "[specialization]") {
  Model m("car");
  auto& wheel = m.add<vehicle::Wheel>("wheel", {{"tire_law", vehicle::TireLaw::pacejka}});
  for (const auto& p : wheel.parameters())
    if (p.name == "tire_law") CHECK(p.value == 2.0);
  CHECK_THROWS_WITH(m.add<vehicle::Wheel>("other", {{"tire_law", 4.0}}),
                    Catch::Contains("tire_law") && Catch::Contains("pacejka"));
}

namespace {

// Three relations that are one after derivative-alias substitution and
// orientation: der(x) > 1, v > 1 and 1 < v, with v = der(x) = t.
struct Probe : Component {
  Variable x = variable("x", {.state = StateSelect::prefer});
  Variable v = variable("v", {.state = StateSelect::prefer});
  Variable y1 = variable("y1"), y2 = variable("y2"), y3 = variable("y3");
  explicit Probe(std::string name) : Component(std::move(name)) {
    equation(v == der(x));
    equation(der(v) == 1.0);
    equation(y1 == ifelse(der(x) > 1.0, 1.0, 0.0));
    equation(y2 == ifelse(v > 1.0, 2.0, 0.0));
    equation(y3 == ifelse(Expr(1.0) < v, 3.0, 0.0));
  }
};

}  // namespace

TEST_CASE("Relations that differ only by a derivative alias or their orientation share one root function",
          "[specialization][events]") {
  Model m("probe");
  m.add<Probe>("p");
  m.set_start("p.x", 0.0);
  m.set_start("p.v", 0.0);
  Simulator sim = m.compile();
  INFO(sim.report().str());
  CHECK(sim.report().count("events", "state_events") == 1);
  REQUIRE(root_function_notes(sim) == 1);
  CHECK(events_of(sim).notes[0].find("[p (") != std::string::npos);  // where it comes from
  Result r = sim.simulate(test::run_for(2.0, 0.1));
  REQUIRE(r.event_times().size() == 1);
  CHECK(r.event_times()[0] == Approx(1.0).margin(1e-9));
  CHECK(r.statistics().root_functions == 1);
  // All three switch together, at the event.
  auto y1 = r["p.y1"], y2 = r["p.y2"], y3 = r["p.y3"];
  for (std::size_t k = 0; k < r.size(); ++k) {
    CHECK(y2[k] == 2.0 * y1[k]);
    CHECK(y3[k] == 3.0 * y1[k]);
  }
  CHECK(y1.back() == 1.0);
}

TEST_CASE("write_csv writes the shortest text that reads back to the same doubles, atomically", "[specialization]") {
  Model m("rolling_wheel");
  examples::build_rolling_wheel(m);
  Result r = m.compile().simulate(test::run_for(1.0, 0.01));
  const auto dir = std::filesystem::temp_directory_path() / "acausal_csv_round_trip";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "out.csv").string();
  r.write_csv(path);
  CHECK_FALSE(std::filesystem::exists(path + ".tmp"));
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  std::vector<std::string> names;
  std::stringstream header(line);
  for (std::string name; std::getline(header, name, ',');) names.push_back(name);
  REQUIRE(names.front() == "time");
  REQUIRE(names.size() == r.names().size() + 1);
  std::vector<std::vector<double>> columns;
  for (std::size_t c = 1; c < names.size(); ++c) columns.push_back(r[names[c]]);
  std::size_t row = 0, mismatches = 0;
  while (std::getline(in, line)) {
    REQUIRE(row < r.size());
    const char* p = line.c_str();
    char* end = nullptr;
    mismatches += std::strtod(p, &end) != r.time()[row];
    for (const auto& column : columns) {
      REQUIRE(*end == ',');
      mismatches += std::strtod(end + 1, &end) != column[row];
    }
    CHECK(*end == '\0');
    ++row;
  }
  CHECK(row == r.size());
  CHECK(mismatches == 0);
  // Shortest form: 0.01 is written as "0.01", not 17 digits.
  std::ifstream again(path);
  std::getline(again, line);
  std::getline(again, line);
  std::getline(again, line);
  CHECK(line.rfind("0.01,", 0) == 0);
  // A file that cannot be written leaves nothing behind.
  CHECK_THROWS(r.write_csv((dir / "missing" / "out.csv").string()));
  CHECK_FALSE(std::filesystem::exists(dir / "missing"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("write_csv replaces only a regular file: a FIFO, a symbolic link or a directory is refused",
          "[specialization]") {
  Model m("rolling_wheel");
  examples::build_rolling_wheel(m);
  const Result r = m.compile().simulate(test::run_for(0.1, 0.01));
  const auto dir = std::filesystem::temp_directory_path() / ("acausal_csv_not_regular_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  // A FIFO was renamed over (the reader waiting on it never got the data).
  const auto fifo = dir / "fifo.csv";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK_THROWS_WITH(r.write_csv(fifo.string()), Catch::Contains(fifo.string()) && Catch::Contains("is a FIFO") &&
                                                    Catch::Contains("not a regular file"));
  CHECK(std::filesystem::is_fifo(fifo));
  // A symbolic link was replaced by the file; its target was never written.
  const auto target = dir / "target.csv", link = dir / "link.csv";
  std::ofstream(target) << "kept\n";
  std::filesystem::create_symlink(target, link);
  CHECK_THROWS_WITH(r.write_csv(link.string()),
                    Catch::Contains(link.string()) && Catch::Contains("is a symbolic link"));
  CHECK(std::filesystem::is_symlink(link));
  std::ifstream kept(target);
  std::string line;
  std::getline(kept, line);
  CHECK(line == "kept");
  const auto folder = dir / "folder.csv";
  std::filesystem::create_directory(folder);
  CHECK_THROWS_WITH(r.write_csv(folder.string()), Catch::Contains(folder.string()) && Catch::Contains("is a directory"));
  // A regular file is still replaced, and no temporary file is left anywhere.
  r.write_csv(target.string());
  std::ifstream replaced(target);
  std::getline(replaced, line);
  CHECK(line.rfind("time,", 0) == 0);
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir)) ++entries;
  CHECK(entries == 4);  // fifo, target, link, folder
  std::filesystem::remove_all(dir);
}

TEST_CASE("write_csv of one path from several processes at once: every write succeeds, the file is whole",
          "[specialization]") {
  // Every writer used the same temporary name, path + ".tmp": one renamed
  // another's half-written file, or found its own gone (36 of 90 failed).
  Model m("rolling_wheel");
  examples::build_rolling_wheel(m);
  const Result r = m.compile().simulate(test::run_for(1.0, 0.001));
  const auto dir = std::filesystem::temp_directory_path() / ("acausal_csv_concurrent_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "out.csv").string();
  constexpr int processes = 6, writes = 15;
  std::vector<pid_t> children;
  for (int p = 0; p < processes; ++p) {
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
      int failures = 0;
      for (int k = 0; k < writes; ++k) {
        try {
          r.write_csv(path);
        } catch (...) {
          ++failures;
        }
      }
      ::_exit(failures);
    }
    children.push_back(child);
  }
  int failures = 0;
  for (const pid_t child : children) {
    int status = 0;
    REQUIRE(::waitpid(child, &status, 0) == child);
    REQUIRE(WIFEXITED(status));
    failures += WEXITSTATUS(status);
  }
  CHECK(failures == 0);
  std::ifstream in(path);
  std::size_t lines = 0;
  for (std::string line; std::getline(in, line);) ++lines;
  CHECK(lines == r.size() + 1);
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir)) ++entries;
  CHECK(entries == 1);  // no temporary file left behind
  std::filesystem::remove_all(dir);
}

TEST_CASE("Result::point refuses a time that is not finite", "[specialization]") {
  Model m("rolling_wheel");
  examples::build_rolling_wheel(m);
  const Result r = m.compile().simulate(test::run_for(0.1, 0.01));
  // NaN (and infinity, whose tolerance is infinite too) returned the last row.
  for (const double t : {std::nan(""), HUGE_VAL, -HUGE_VAL})
    CHECK_THROWS_WITH(r.point(t), Catch::Contains("point(t = ") && Catch::Contains("rolling_wheel") &&
                                      Catch::Contains("only at finite times"));
  CHECK(r.point(0.1).time == Approx(0.1));
}

TEST_CASE("A car runs with atol = 1e-12 and agrees with the default tolerances", "[specialization][vehicle]") {
  Model m("car");
  bench::build_launch_car(m);
  Simulator sim = m.compile();
  SimulationOptions loose, tight;
  loose.t_end = tight.t_end = 10.0;
  loose.output_interval = tight.output_interval = 0.1;
  tight.atol = 1e-12;
  Result a = sim.simulate(loose);
  Result b = sim.simulate(tight);  // IDACalcIC failed at t = 0 (IDA_LINESEARCH_FAIL) before
  REQUIRE(a.size() == b.size());
  for (const char* name : {"body.v", "wheel_rl.omega", "wheel_fl.omega"}) {
    INFO(name);
    auto x = a[name], y = b[name];
    double scale = 0, worst = 0;
    for (std::size_t k = 0; k < x.size(); ++k) {
      scale = std::max(scale, std::fabs(x[k]));
      worst = std::max(worst, std::fabs(x[k] - y[k]));
    }
    CHECK(worst / scale < 1e-5);
  }
}

TEST_CASE("Relations that read only other modes follow them at events and need no root function",
          "[specialization][events]") {
  // The gearbox compares the gear the shift schedule selects: those relations
  // change only when a shift threshold fires. Smooth friction: the car's own
  // relations only.
  Model m("launch");
  test::build_rear_drive_car(m, {.friction = vehicle::FrictionLaw::smooth});
  Simulator sim = m.compile();
  INFO(sim.report().str());
  CHECK(sim.report().count("events", "following_modes") == 8);
  // Four shift speeds, the engine's min-rpm clamp, its stall and its firing speed.
  CHECK(sim.report().count("events", "state_events") == 7);
  SimulationOptions opt = test::run_for(11.0, 0.01, 1e-6);
  Result r = sim.simulate(opt);
  CHECK(r.statistics().root_functions == 7);
  // Locking friction adds, per element, the stuck/slide thresholds and the
  // direction of slip (clutch: also its release), nothing else.
  Model locking("launch");
  test::build_rear_drive_car(locking);
  CHECK(locking.compile().report().count("events", "state_events") == 7 + 7 + 4 * 6);
  auto gear = r["selector.gear"], ratio = r["gearbox.ratio"];
  CHECK(gear.back() >= 3.0);
  // The ratio switches with the gear, at event instants only (two rows at one time).
  int shifts = 0;
  for (std::size_t k = 1; k < r.size(); ++k)
    if (ratio[k] != ratio[k - 1]) {
      ++shifts;
      CHECK(r.time()[k] == r.time()[k - 1]);
      CHECK(gear[k] != gear[k - 1]);
    }
  CHECK(shifts == static_cast<int>(gear.back()) - 1);
}

}  // namespace test_specialization
