#pragma once

#include <fmt/format.h>

#include <cmath>
#include <utility>
#include <vector>

#include "connectors/signal.hpp"

namespace acausal::blocks {

/// MSL Sources.IntegerTable: y is the value of the last table row whose time
/// has come, (time, value) rows with strictly increasing times and whole
/// values; before the first row the first value, after the last the last
/// (MSL's ConstantSegments with HoldLastPoint). Each row's time is a time
/// event. set_table() before compiling.
struct IntegerTable : Component {
  IntegerOutput y{*this, "y"};

  explicit IntegerTable(std::string name) : Component(std::move(name)) {}

  void set_table(const std::vector<std::pair<double, double>>& rows) {
    if (!equations().empty()) throw ModelError(fmt::format("IntegerTable '{}': the table is already set", path()));
    if (rows.empty()) throw ModelError(fmt::format("IntegerTable '{}': the table is empty", path()));
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const auto [t, value] = rows[i];
      if (!std::isfinite(t) || !std::isfinite(value) || value != std::floor(value))
        throw ModelError(fmt::format("IntegerTable '{}': row {} ({}, {}) needs a finite time and a whole value", path(),
                                     i + 1, t, value));
      if (i > 0 && !(t > rows[i - 1].first))
        throw ModelError(fmt::format("IntegerTable '{}': the times increase strictly (row {} at {} s, row {} at {} s)",
                                     path(), i, rows[i - 1].first, i + 1, t));
    }
    Expr value(rows.front().second);
    for (std::size_t i = 1; i < rows.size(); ++i)
      value = value + ifelse(time_symbol() >= rows[i].first, rows[i].second - rows[i - 1].second, 0.0);
    equation(y == value);
  }
};

}  // namespace acausal::blocks
