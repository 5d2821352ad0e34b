// Expression nodes and tables are freed once nothing holds them: a process that
// builds and compiles models in a loop (a structural sweep, a notebook) stays
// the same size, and what a compiled model or the user still holds keeps working.
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>

#include <cmath>
#include <memory>
#include <string>

#include "tests/flat_car.hpp"
#include "tests/support.hpp"

namespace test_memory {

using namespace acausal;

namespace {

// A sampled hold, a delay, a table read on its segments, a relation and a
// 2000-point table whose values depend on `variant` (a distinct table each time).
std::unique_ptr<Model> hybrid_model(int variant) {
  auto m = std::make_unique<Model>("hybrid");
  auto& sine = m->add<blocks::Sine>("sine", {{"amplitude", 2.0}, {"f", 1.5}});
  auto& hold = m->add<blocks::Sampler>("hold", {{"samplePeriod", 0.05}});
  auto& delayed = m->add<blocks::FixedDelay>("delayed", {{"delayTime", 0.3}});
  auto& lag = m->add<blocks::FirstOrder>("lag", {{"k", 1.0}, {"T", 0.2}});
  auto& profile = m->add<blocks::CombiTimeTable>("profile");
  std::vector<std::vector<double>> rows;
  for (int i = 0; i < 2000; ++i) rows.push_back({i * 1e-3, std::sin(i * 1e-2 + variant)});
  profile.set_table(rows);
  auto& limit = m->add<blocks::Limiter>("limit", {{"uMax", 0.5}});
  auto& sum = m->add<blocks::Add>("sum");
  m->connect(sine.y, hold.u);
  m->connect(hold.y, delayed.u);
  m->connect(delayed.y, sum.u1);
  m->connect(*profile.y.at(0), sum.u2);
  m->connect(sum.y, limit.u);
  m->connect(limit.y, lag.u);
  return m;
}

std::unique_ptr<Model> car_model() {
  auto m = std::make_unique<Model>("car");
  test::build_rear_drive_car(*m);
  return m;
}


}  // namespace

TEST_CASE("Models built, compiled and dropped leave no expression nodes and no tables behind", "[memory]") {
  // Warm up: what the process makes once (the compiler's own symbols) is made here.
  for (int k = 0; k < 2; ++k) {
    car_model()->compile().simulate({.t_end = 0.2});
    hybrid_model(k)->compile().simulate({.t_end = 0.2});
  }
  collect_expressions();
  const std::size_t nodes = interned_node_count(), tables = interned_table_count();
  for (int k = 2; k < 6; ++k) {
    car_model()->compile().simulate({.t_end = 0.2});
    hybrid_model(k)->compile().simulate({.t_end = 0.2});
    CHECK(interned_table_count() > tables);  // the new model's 2000-point table is registered until collected
  }
  CHECK(collect_expressions() > 0);  // the last models' nodes (all rounds' with ACAUSAL_COLLECT unset)
  CHECK(interned_node_count() == nodes);
  CHECK(interned_table_count() == tables);
}

TEST_CASE("A compiled model runs the same after its model and every temporary of compiling are freed", "[memory]") {
  for (auto build : {&car_model, +[] { return hybrid_model(0); }}) {
    std::unique_ptr<Model> model = build();
    Simulator sim = model->compile();
    const Result before = sim.simulate({.t_end = 1.0});
    model.reset();
    CHECK(collect_expressions() > 0);
    test::require_identical(sim.simulate({.t_end = 1.0}), before);
    // A fresh session, and a compiled model written out after the collection.
    Session session = sim.start({.t_end = 1.0});
    session.advance(0.5);
    CHECK(session.time() == 0.5);
  }
}

TEST_CASE("An expression the user holds survives its model and the collection", "[memory]") {
  Expr held, rate;
  std::string printed;
  {
    Model m("spinning");
    auto& inertia = m.add<rotational::Inertia>("inertia", {{"J", 2.0}});
    rate = der(inertia.w);
    held = sin(inertia.w) * 2.0 + rate;
    printed = held.str();
    m.compile();
  }
  CHECK(collect_expressions() > 0);
  CHECK(collect_expressions() == 0);  // one collection frees all there is to free
  CHECK(held.str() == printed);
  CHECK(diff(held, rate).is_const(1.0));
}

}  // namespace test_memory
