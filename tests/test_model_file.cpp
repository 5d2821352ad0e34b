// A compiled model written to a file and read back (what an exported FMU
// carries): it must run exactly as the model it was written from.
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>
#include <acausal/solver/runtime/model_file.hpp>

#include <sstream>
#include <string>

#include "tests/flat_car.hpp"
#include "tests/support.hpp"

namespace test_model_file {

using namespace acausal;

namespace {

Simulator round_trip(const Simulator& original) {
  std::stringstream file;
  write_compiled_model(original, file);
  return read_compiled_model(file);
}


// A sampled hold, a delay, a table read on its segments and a relation: the
// hybrid parts a file must carry besides plain equations.
Simulator hybrid_model() {
  Model m("hybrid");
  auto& sine = m.add<blocks::Sine>("sine", {{"amplitude", 2.0}, {"f", 1.5}});
  auto& hold = m.add<blocks::Sampler>("hold", {{"samplePeriod", 0.05}});
  auto& delayed = m.add<blocks::FixedDelay>("delayed", {{"delayTime", 0.3}});
  auto& lag = m.add<blocks::FirstOrder>("lag", {{"k", 1.0}, {"T", 0.2}});
  auto& profile = m.add<blocks::CombiTimeTable>("profile");
  profile.set_table({{0.0, 0.0}, {0.5, 1.0}, {0.5, -1.0}, {1.5, 2.0}});
  m.connect(sine.y, hold.u);
  m.connect(hold.y, delayed.u);
  m.connect(delayed.y, lag.u);
  return m.compile();
}

}  // namespace

TEST_CASE("A compiled model read back from its file runs bit for bit as the original", "[model_file]") {
  SECTION("the flagship car: tables, modes, a shift schedule, locking friction") {
    Model m("launch");
    test::build_rear_drive_car(m);
    const Simulator original = m.compile();
    const SimulationOptions opt = test::run_for(6.0, 0.05, 1e-6);
    test::require_identical(original.simulate(opt), round_trip(original).simulate(opt));
  }
  SECTION("samples, delays, a table on its segments") {
    const Simulator original = hybrid_model();
    const SimulationOptions opt = test::run_for(2.0, 0.01, 1e-8);
    const Result r = original.simulate(opt);
    CHECK(r.event_times().size() > 30);
    test::require_identical(r, round_trip(original).simulate(opt));
  }
}

TEST_CASE("A model file keeps the parameter values set before it was written, and their declarations",
          "[model_file]") {
  Model m("launch");
  test::build_rear_drive_car(m);
  Simulator original = m.compile();
  original.set_parameter("body.m", 1700.0);
  const Simulator copy = round_trip(original);
  CHECK(copy.parameter("body.m") == 1700.0);
  const auto a = original.parameters(), b = copy.parameters();
  REQUIRE(a.size() == b.size());
  for (std::size_t k = 0; k < a.size(); ++k) {
    INFO(a[k].name);
    CHECK(b[k].name == a[k].name);
    CHECK(b[k].value == a[k].value);
    CHECK(b[k].unit == a[k].unit);
    CHECK(b[k].min == a[k].min);
    CHECK(b[k].max == a[k].max);
    CHECK(b[k].description == a[k].description);
    CHECK(b[k].structural == a[k].structural);
    CHECK(b[k].input == a[k].input);
  }
  CHECK(copy.inputs() == original.inputs());
  CHECK(copy.outputs() == original.outputs());
  CHECK(copy.report().states == original.report().states);
  const SimulationOptions opt = test::run_for(3.0, 0.05, 1e-6);
  test::require_identical(original.simulate(opt), copy.simulate(opt));
}

TEST_CASE("A file that is not a compiled model is a ModelError naming the line", "[model_file][errors]") {
  const Simulator original = hybrid_model();
  std::stringstream file;
  write_compiled_model(original, file);
  const std::string text = file.str();
  auto read = [](const std::string& s) {
    std::stringstream in(s);
    return read_compiled_model(in);
  };
  CHECK_THROWS_WITH(read("not a model"), Catch::Contains("line 1") && Catch::Contains("acausal-compiled-model"));
  CHECK_THROWS_WITH(read("acausal-compiled-model 99\n"), Catch::Contains("version 99"));
  CHECK_THROWS_AS(read(text.substr(0, text.size() / 2)), ModelError);
  std::string wrong_node = text;
  const std::size_t nodes = wrong_node.find("\nnodes ");
  REQUIRE(nodes != std::string::npos);
  const std::size_t first = wrong_node.find('\n', nodes + 1) + 1;
  wrong_node.replace(first, 1, "x");
  CHECK_THROWS_WITH(read(wrong_node), Catch::Contains("expected a node"));
}

}  // namespace test_model_file
