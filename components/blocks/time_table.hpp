#pragma once

#include <algorithm>
#include <utility>
#include <vector>

#include "connectors/signal.hpp"

namespace acausal::blocks {

/// Table of (time, value) points, linearly interpolated; the value is held
/// before the first and after the last point. Breakpoints are time events.
/// set_table() must be called before the model is compiled.
struct TimeTable : Component {
  RealOutput y{*this, "y"};

  explicit TimeTable(std::string name) : Component(std::move(name)) {}

  void set_table(std::vector<std::pair<double, double>> points) {
    if (points.empty()) throw ModelError("TimeTable '" + this->name() + "': the table is empty");
    if (!equations().empty()) throw ModelError("TimeTable '" + this->name() + "': the table is already set");
    for (std::size_t i = 1; i < points.size(); ++i)
      if (!(points[i].first > points[i - 1].first))
        throw ModelError("TimeTable '" + this->name() + "': times must increase (row " + std::to_string(i) + ")");
    Expr t = time_symbol();
    Expr value = points.back().second;  // held after the last point
    for (std::size_t i = points.size() - 1; i-- > 0;) {
      auto [t0, y0] = points[i];
      auto [t1, y1] = points[i + 1];
      value = ifelse(t < t1, y0 + (y1 - y0) * (t - t0) / (t1 - t0), value);
    }
    equation(y == ifelse(t < points.front().first, points.front().second, value));
  }
};

}  // namespace acausal::blocks
