// Physics checks: a statement about a simulation result with its tolerance,
// evaluated into a pass/fail mark, the measured error and the worst point.
//
// Checks are written in the model's own symbols (any Expr of variables,
// parameters and time), so a check reads like the law it verifies:
//
//   relation(wheel.v, wheel.omega * wheel.radius, 1e-3).when(abs(wheel.v) > 1.0)
//   bound(abs(wheel.F_traction), wheel.F_max, 1e-9)
#pragma once

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "solver/symbolic/expr.hpp"
#include "solver/runtime/result.hpp"

namespace acausal::harness {

/// Seed 001's validation levels.
enum class Level { builds = 1, runs = 2, physics = 3 };

/// A trajectory drawn in the check's plot.
struct Series {
  std::string label;
  std::vector<double> values;
  std::string unit = "";  // declared unit, "" when unknown (the plots label their axes with it)
};

/// The evaluated check: what it states, whether it holds, by how much.
struct CheckResult {
  std::string id;        // unique within a checklist ("rolling_3"): file names of its plot and data
  std::string rig;
  Level level = Level::physics;
  std::string title;     // the statement in words, as the specification writes it
  std::string detail;    // the statement in the model's names, with its tolerance
  bool passed = false;
  double tolerance = 0.0;
  double error = 0.0;    // in the check's measure (relative unless the detail says otherwise)
  double worst_time = std::numeric_limits<double>::quiet_NaN();
  std::vector<std::pair<std::string, double>> worst_values;  // the variables at the worst point
  std::string message;   // the outcome in one sentence; for a failure, what went wrong where
  std::vector<double> time;
  std::vector<Series> plot;
  /// How the series are drawn: "time" (each against time), "scatter" (the
  /// second against the first, coloured by the third if any: operating points
  /// on a map), "bars" (each series' last value, one bar per series).
  std::string plot_kind = "time";
  /// What the check compares, so the plot can draw it: "relation" (two sides
  /// that must agree: drawn as their error), "bound" (a quantity and its
  /// limits), "value", "sign", "monotonic", "balance", "energy", "" otherwise.
  std::string kind = "";
};

/// A check waiting for a result.
class Check {
 public:
  /// Fills the verdict; `rows` are the output rows where the check's condition holds.
  using Evaluate = std::function<void(const Result&, const std::vector<std::size_t>& rows, CheckResult&)>;
  Check(std::string title, double tolerance, Evaluate evaluate)
      : title_(std::move(title)), tolerance_(tolerance), evaluate_(std::move(evaluate)) {}

  /// Restricts the check to the output rows where `condition` holds
  /// (e.g. abs(wheel.v) > 1: a relative error means little near zero).
  Check& when(const Expr& condition) {
    condition_ = condition;
    return *this;
  }
  /// The statement as the specification words it ("v = ω·r within 0.1 %").
  Check& titled(std::string title) {
    title_ = std::move(title);
    return *this;
  }
  /// More variables to draw in the check's plot (context: the loads beside a load-transfer check).
  Check& plotting(std::vector<Expr> more) {
    plotted_.insert(plotted_.end(), more.begin(), more.end());
    return *this;
  }
  const std::string& title() const { return title_; }

  CheckResult evaluate(const Result& r) const;

 private:
  std::string title_;
  double tolerance_;
  Evaluate evaluate_;
  Expr condition_{1.0};
  std::vector<Expr> plotted_;
};

/// The value of e at time t equals `expected` within a relative tolerance.
Check value_at(const Expr& e, double t, double expected, double tolerance);
/// e equals `expected` (an expression, evaluated row by row) at every output
/// time in [t0, t1], within a relative tolerance; `floor` is the smallest
/// magnitude the error is taken relative to.
Check over_interval(const Expr& e, double t0, double t1, const Expr& expected, double tolerance,
                    double floor = 1e-9);
/// Over the last `window` seconds of the run e stays within a relative
/// tolerance of `expected` (the steady state of a hand calculation).
Check steady_state(const Expr& e, const Expr& expected, double tolerance, double window);
/// lhs = rhs at every output time (where the check's condition holds),
/// relative to |rhs| (or `floor` when larger).
Check relation(const Expr& lhs, const Expr& rhs, double tolerance, double floor = 1e-9);
/// lower <= e <= upper at every output time, with a tolerance relative to the bound's magnitude.
Check bound(const Expr& e, const Expr& lower, const Expr& upper, double tolerance);
/// e >= 0 (direction +1) or e <= 0 (direction -1) at every output time, within an absolute tolerance.
Check sign(const Expr& e, int direction, double tolerance);
/// e never decreases (direction +1) or never increases (-1) in [t0, t1], by more than an absolute tolerance.
Check monotonic(const Expr& e, int direction, double t0, double t1, double tolerance);
/// The powers (positive into the element) sum to zero at every output time,
/// relative to the largest of them.
Check power_balance(const std::vector<Expr>& powers, double tolerance, double floor = 1e-9);

/// Formats a relative quantity for sentences: 0.001 -> "0.1 %".
std::string percent(double relative);

}  // namespace acausal::harness
