#include "harness/check.hpp"

#include <algorithm>
#include <cstdio>

#include "solver/symbolic/errors.hpp"

namespace acausal::harness {

std::string percent(double relative) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g %%", 100.0 * relative);
  return text;
}

namespace {

std::vector<std::size_t> between(const CheckResult& c, const std::vector<std::size_t>& rows, double t0, double t1) {
  std::vector<std::size_t> out;
  for (std::size_t k : rows)
    if (c.time[k] >= t0 - 1e-12 && c.time[k] <= t1 + 1e-12) out.push_back(k);
  return out;
}

using Shown = std::vector<std::pair<Expr, std::vector<double>>>;

// The declared unit of a plain variable or parameter; "" for an expression or a number.
std::string unit_of(const Result& r, const Expr& e) {
  const std::string name = r.describe(e);
  try {
    return r.has(name) ? r.unit(name) : "";
  } catch (const std::exception&) {
    return "";
  }
}

// The worst row of a row-wise error, and the sentence: shared by every check.
void judge(const Result& r, CheckResult& c, const std::vector<std::size_t>& rows,
           const std::function<double(std::size_t)>& error, const Shown& shown, const std::string& measure) {
  for (const auto& [expr, values] : shown) c.plot.push_back({r.describe(expr), values, unit_of(r, expr)});
  // The series a check shows are compared with each other, so they share one
  // unit: an expression (ω·r) takes the unit of the variable it is held against (v).
  std::string shared;
  for (const auto& s : c.plot)
    if (shared.empty()) shared = s.unit;
  for (auto& s : c.plot)
    if (s.unit.empty()) s.unit = shared;
  if (rows.empty()) {
    c.passed = false;
    c.message = "FAILS: no output rows to check (the condition never holds or the interval is outside the run)";
    return;
  }
  std::size_t worst = rows.front();
  c.error = -1.0;
  for (std::size_t k : rows) {
    const double e = error(k);
    if (std::isnan(e)) {
      c.error = e;
      worst = k;
      break;
    }
    if (e > c.error) {
      c.error = e;
      worst = k;
    }
  }
  c.worst_time = c.time[worst];
  for (const auto& [expr, values] : shown) c.worst_values.push_back({r.describe(expr), values[worst]});
  c.passed = c.error <= c.tolerance;
  std::string values;
  for (const auto& [name, value] : c.worst_values)
    values += (values.empty() ? "" : ", ") + name + " = " + format_number(value);
  c.message = std::string(c.passed ? "holds" : "FAILS") + ": worst " + measure + " " + format_number(c.error) +
              " (tolerance " + format_number(c.tolerance) + ") at t = " + format_number(c.worst_time) + " s, where " +
              values;
}

// The error is relative to |reference|, or to the floor where that is larger: say so when it matters.
std::string of_floor(double floor) {
  return floor > 1e-9 ? " of max(|expected|, " + format_number(floor) + ")" : "";
}

double relative(double value, double reference, double floor) {
  return std::fabs(value - reference) / std::max(std::fabs(reference), floor);
}

}  // namespace

CheckResult Check::evaluate(const Result& r) const {
  CheckResult c;
  c.title = title_;
  c.tolerance = tolerance_;
  c.time = r.time();
  try {
    std::vector<std::size_t> rows;
    const auto condition = r.evaluate(condition_);
    for (std::size_t k = 0; k < condition.size(); ++k)
      if (condition[k] != 0.0) rows.push_back(k);
    evaluate_(r, rows, c);
    const auto more = r.evaluate(plotted_);
    for (std::size_t i = 0; i < more.size(); ++i)
      c.plot.push_back({r.describe(plotted_[i]), more[i], unit_of(r, plotted_[i])});
    if (!condition_.is_const(1.0)) c.detail += ", where " + r.describe(condition_);
  } catch (const std::exception& e) {
    c.passed = false;
    c.message = std::string("FAILS: could not be evaluated: ") + e.what();
  }
  return c;
}

Check value_at(const Expr& e, double t, double expected, double tolerance) {
  return Check("value at t = " + format_number(t) + " s", tolerance,
               [=](const Result& r, const std::vector<std::size_t>& rows, CheckResult& c) {
    c.kind = "value";
                 c.detail = r.describe(e) + " = " + format_number(expected) + " at t = " + format_number(t) +
                            " s within " + percent(tolerance);
                 const auto values = r.evaluate(e);
                 // The output row nearest to t.
                 std::vector<std::size_t> nearest;
                 for (std::size_t k : rows)
                   if (nearest.empty() || std::fabs(c.time[k] - t) < std::fabs(c.time[nearest[0]] - t)) nearest = {k};
                 if (!nearest.empty() && std::fabs(c.time[nearest[0]] - t) > 1e-9 * std::max(1.0, std::fabs(t)))
                   c.detail += " (nearest output at t = " + format_number(c.time[nearest[0]]) + " s)";
                 std::vector<double> reference(values.size(), expected);
                 judge(r, c, nearest, [&](std::size_t k) { return relative(values[k], expected, 1e-300); },
                       {{e, values}, {Expr(expected), reference}}, "relative error");
               });
}

Check over_interval(const Expr& e, double t0, double t1, const Expr& expected, double tolerance, double floor) {
  return Check("value over an interval", tolerance,
               [=](const Result& r, const std::vector<std::size_t>& rows, CheckResult& c) {
    c.kind = "value";
                 c.detail = r.describe(e) + " = " + r.describe(expected) + " for " + format_number(t0) +
                            " s <= t <= " + format_number(t1) + " s within " + percent(tolerance) + of_floor(floor);
                 const auto values = r.evaluate(std::vector<Expr>{e, expected});
                 judge(r, c, between(c, rows, t0, t1),
                       [&](std::size_t k) { return relative(values[0][k], values[1][k], floor); },
                       {{e, values[0]}, {expected, values[1]}}, "relative error");
               });
}

Check steady_state(const Expr& e, const Expr& expected, double tolerance, double window) {
  return Check("steady state", tolerance,
               [=](const Result& r, const std::vector<std::size_t>& rows, CheckResult& c) {
    c.kind = "value";
                 c.detail = r.describe(e) + " settles at " + r.describe(expected) + " (last " + format_number(window) +
                            " s of the run) within " + percent(tolerance);
                 const auto values = r.evaluate(std::vector<Expr>{e, expected});
                 const double t_end = c.time.empty() ? 0.0 : c.time.back();
                 judge(r, c, between(c, rows, t_end - window, t_end),
                       [&](std::size_t k) { return relative(values[0][k], values[1][k], 1e-300); },
                       {{e, values[0]}, {expected, values[1]}}, "relative error");
               });
}

Check relation(const Expr& lhs, const Expr& rhs, double tolerance, double floor) {
  return Check("relation", tolerance, [=](const Result& r, const std::vector<std::size_t>& rows, CheckResult& c) {
    c.kind = "relation";
    c.detail = r.describe(lhs) + " = " + r.describe(rhs) + " at every output time within " + percent(tolerance) +
               of_floor(floor);
    const auto values = r.evaluate(std::vector<Expr>{lhs, rhs});
    judge(r, c, rows, [&](std::size_t k) { return relative(values[0][k], values[1][k], floor); },
          {{lhs, values[0]}, {rhs, values[1]}}, "relative error");
  });
}

Check bound(const Expr& e, const Expr& lower, const Expr& upper, double tolerance) {
  return Check("bounds", tolerance, [=](const Result& r, const std::vector<std::size_t>& rows, CheckResult& c) {
    c.kind = "bound";
    c.detail = r.describe(lower) + " <= " + r.describe(e) + " <= " + r.describe(upper) +
               " at every output time (violation relative to the bound, tolerance " + format_number(tolerance) + ")";
    const auto values = r.evaluate(std::vector<Expr>{e, lower, upper});
    Shown shown{{e, values[0]}};
    if (!lower.is_const() || std::isfinite(lower.value())) shown.push_back({lower, values[1]});
    if (!upper.is_const() || std::isfinite(upper.value())) shown.push_back({upper, values[2]});
    // Relative to the bound; a bound at zero is taken relative to the signal's own size.
    double size = 1e-300;
    for (double x : values[0])
      if (std::isfinite(x)) size = std::max(size, 1e-9 * std::fabs(x));
    judge(r, c, rows,
          [&](std::size_t k) {
            const double x = values[0][k], lo = values[1][k], hi = values[2][k];
            if (std::isnan(x)) return x;
            const double over = std::max(0.0, x - hi) / std::max(std::fabs(hi), size);
            const double under = std::max(0.0, lo - x) / std::max(std::fabs(lo), size);
            return std::max(over, under);
          },
          shown, "relative violation");
  });
}

Check sign(const Expr& e, int direction, double tolerance) {
  return Check(direction > 0 ? "never negative" : "never positive", tolerance,
               [=](const Result& r, const std::vector<std::size_t>& rows, CheckResult& c) {
    c.kind = "sign";
                 c.detail = r.describe(e) + (direction > 0 ? " >= 0" : " <= 0") +
                            " at every output time (absolute tolerance " + format_number(tolerance) + ")";
                 const auto values = r.evaluate(e);
                 judge(r, c, rows,
                       [&](std::size_t k) {
                         return std::isnan(values[k]) ? values[k] : std::max(0.0, -direction * values[k]);
                       },
                       {{e, values}}, "violation");
               });
}

Check monotonic(const Expr& e, int direction, double t0, double t1, double tolerance) {
  return Check(direction > 0 ? "never decreases" : "never increases", tolerance,
               [=](const Result& r, const std::vector<std::size_t>& rows, CheckResult& c) {
    c.kind = "monotonic";
                 c.detail = r.describe(e) + (direction > 0 ? " never decreases" : " never increases") + " for " +
                            format_number(t0) + " s <= t <= " + format_number(t1) + " s (absolute tolerance " +
                            format_number(tolerance) + ")";
                 const auto values = r.evaluate(e);
                 const auto in = between(c, rows, t0, t1);
                 // The error at a row: how far the signal has gone back from its extreme so far.
                 std::vector<double> setback(values.size(), 0.0);
                 double extreme = NAN;
                 for (std::size_t k : in) {
                   const double x = direction * values[k];
                   extreme = std::isnan(extreme) ? x : std::max(extreme, x);
                   setback[k] = std::isnan(x) ? x : extreme - x;
                 }
                 judge(r, c, in, [&](std::size_t k) { return setback[k]; }, {{e, values}}, "setback");
               });
}

Check power_balance(const std::vector<Expr>& powers, double tolerance, double floor) {
  return Check("power balance", tolerance, [=](const Result& r, const std::vector<std::size_t>& rows, CheckResult& c) {
    c.kind = "balance";
    Expr sum(0.0);
    for (const auto& p : powers) sum = sum + p;
    c.detail = r.describe(sum) + " = 0 at every output time, relative to the largest term, within " +
               percent(tolerance);
    const auto values = r.evaluate(powers);
    Shown shown;
    for (std::size_t i = 0; i < powers.size(); ++i) shown.push_back({powers[i], values[i]});
    judge(r, c, rows,
          [&](std::size_t k) {
            double total = 0, largest = floor;
            for (const auto& v : values) {
              total += v[k];
              largest = std::max(largest, std::fabs(v[k]));
            }
            return std::fabs(total) / largest;
          },
          shown, "relative imbalance");
    for (auto& s : c.plot)
      if (s.unit.empty()) s.unit = std::string("W");  // products of efforts and flows: powers by the check's statement
  });
}

}  // namespace acausal::harness
