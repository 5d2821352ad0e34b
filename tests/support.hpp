// Helpers shared by the C++ tests.
#pragma once

#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>
#include <acausal/harness/energy.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <functional>
#include <string>

namespace acausal::test {

constexpr double gravity = 9.81;

// h'' = -g; at impact the speed reverses and loses a factor e.
struct BouncingBall : Component {
  Parameter e = parameter("e", 0.8, {.min = 0, .max = 1});
  Variable h = variable("h", {.unit = "m", .start = 1.0, .fixed = true});
  Variable v = variable("v", {.unit = "m/s", .start = 0.0, .fixed = true});
  Discrete bounces = discrete("bounces", {.kind = DiscreteKind::integer});
  explicit BouncingBall(std::string name) : Component(std::move(name)) {
    equation(der(h) == v);
    equation(der(v) == -gravity);
    when(h < 0.0, {reinit(v, -e * pre(v)), bounces == pre(bounces) + 1});
  }
};

/// The message of the ModelError `action` throws, or "<no ModelError>".
inline std::string model_error_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const ModelError& e) {
    return e.what();
  }
  return "<no ModelError>";
}

/// Options for a test run: outputs every dt, atol a hundredth of rtol.
inline SimulationOptions run_for(double t_end, double dt, double rtol = 1e-8) {
  SimulationOptions opt;
  opt.t_end = t_end;
  opt.output_interval = dt;
  opt.rtol = rtol;
  opt.atol = rtol * 1e-2;
  return opt;
}

/// Compiles `m`, checking that every equation is dimensionally consistent.
inline Simulator compile_checked(Model& m) {
  Simulator sim = m.compile();
  std::string errors;
  for (const auto& e : sim.report().unit_errors) errors += e + "\n";
  INFO(sim.report().str() << errors);
  CHECK(sim.report().unit_errors.empty());
  return sim;
}

/// Level 3 energy checks of a run: every component's books and the whole
/// model's close within `tolerance` (harness::EnergyBooks, made before compiling).
inline void books_close(const harness::EnergyBooks& books, const Result& r, double tolerance) {
  const auto closes = books.components_close(tolerance).evaluate(r);
  const auto whole = books.model_closes(tolerance).evaluate(r);
  INFO(closes.message << "\n" << whole.message);
  CHECK(closes.passed);
  CHECK(whole.passed);
}

/// max over the output rows of |r[name] - expected(t, row)|.
inline double worst(const Result& r, const std::string& name,
                    const std::function<double(double, std::size_t)>& expected) {
  auto v = r[name];
  double w = 0;
  for (std::size_t k = 0; k < r.size(); ++k) w = std::max(w, std::fabs(v[k] - expected(r.time()[k], k)));
  return w;
}

/// max over the output rows of |r[name] - expected(t)|.
inline double worst(const Result& r, const std::string& name, const std::function<double(double)>& expected) {
  return worst(r, name, [&](double t, std::size_t) { return expected(t); });
}

/// Two runs that must be the same bit for bit: every column, the time grid and the events.
inline void require_identical(const Result& a, const Result& b) {
  REQUIRE(a.size() == b.size());
  CHECK(a.time() == b.time());
  CHECK(a.event_times() == b.event_times());
  for (const auto& name : a.names()) {
    INFO(name);
    CHECK(a[name] == b[name]);
  }
}

}  // namespace acausal::test
