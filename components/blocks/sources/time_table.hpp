#pragma once

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "connectors/signal.hpp"

namespace acausal::blocks {

/// MSL Modelica.Blocks.Sources.TimeTable: a signal interpolated linearly in a
/// table of (time, value) rows, y = offset + table(time - startTime) from
/// startTime on and y = offset before. A time given twice is a jump (the later
/// row's value holds from that time on); outside the table the first and the
/// last interval continue linearly; a single row is a constant. startTime and
/// the table's times after the first are time events. set_table() must be
/// called before the model is compiled.
struct TimeTable : Component {
  RealOutput y{*this, "y"};
  Parameter offset = parameter("offset", 0.0, {.description = "added to the table's values"});
  Parameter startTime = parameter("startTime", 0.0, {.unit = "s", .description = "the table's time 0"});

  explicit TimeTable(std::string name) : Component(std::move(name)) {}

  void set_table(const std::vector<std::pair<double, double>>& rows) {
    if (!equations().empty()) throw ModelError(fmt::format("TimeTable '{}': the table is already set", path()));
    const Expr tau = time_symbol() - startTime;
    equation(y == ifelse(time_symbol() < startTime, offset, offset + interpolation(tau, rows)));
  }

 private:
  // MSL's rule: the interval ending at the first time greater than tau (the
  // first interval before the table, the last one after it); an interval of
  // zero length gives its end value.
  Expr interpolation(const Expr& tau, const std::vector<std::pair<double, double>>& rows) const {
    if (rows.empty()) throw ModelError(fmt::format("TimeTable '{}': the table is empty", path()));
    for (std::size_t i = 0; i < rows.size(); ++i) {
      if (!std::isfinite(rows[i].first) || !std::isfinite(rows[i].second))
        throw ModelError(fmt::format("TimeTable '{}': row {} is not finite", path(), i));
      if (i > 0 && rows[i].first < rows[i - 1].first)
        throw ModelError(fmt::format("TimeTable '{}': times must not decrease (row {})", path(), i));
    }
    if (rows.size() == 1) return rows.front().second;
    auto interval = [&](std::size_t end) -> Expr {  // rows end-1 .. end
      const auto [t0, y0] = rows[end - 1];
      const auto [t1, y1] = rows[end];
      if (t1 - t0 <= 1e2 * kTimeEps * std::fabs(t1)) return y1;
      return y0 + (y1 - y0) / (t1 - t0) * (tau - t0);
    };
    const std::size_t n = rows.size();
    Expr value = interval(n - 1);
    // Before row r's time (r = n-2 … 1) the interval ending at row r; before
    // row 1's time the first interval continues backwards. Between two equal
    // times nothing is left: the value jumps there.
    for (std::size_t r = n - 2; r >= 1; --r)
      if (rows[r].first != rows[r - 1].first) value = ifelse(tau < rows[r].first, interval(r), value);
    return value;
  }

  static constexpr double kTimeEps = 2.220446049250313e-16;  // MSL's Modelica.Constants.eps
};

}  // namespace acausal::blocks
