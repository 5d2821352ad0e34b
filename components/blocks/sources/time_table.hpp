#pragma once

#include <utility>
#include <vector>

#include "components/blocks/tables/interpolation.hpp"
#include "connectors/signal.hpp"

namespace acausal::blocks {

/// Table of (time, value) points, linearly interpolated; the value is held
/// before the first and after the last point. Breakpoints are time events.
/// set_table() must be called before the model is compiled.
struct TimeTable : Component {
  RealOutput y{*this, "y"};

  explicit TimeTable(std::string name) : Component(std::move(name)) {}

  void set_table(const std::vector<std::pair<double, double>>& points) {
    if (!equations().empty()) throw ModelError("TimeTable '" + name() + "': the table is already set");
    equation(y == piecewise_linear(time_symbol(), points, "TimeTable '" + name() + "'", "times"));
  }
};

}  // namespace acausal::blocks
