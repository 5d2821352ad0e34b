#pragma once

#include <string>
#include <utility>
#include <vector>

#include "solver/errors.hpp"
#include "solver/expr.hpp"

namespace acausal::blocks {

/// Linear interpolation of (x, y) points at `x`, holding the first value
/// before the first point and the last after the last. Each breakpoint is a
/// relation on x, so crossing it is an event (a time event when x is time).
/// `owner` names the table in errors, `abscissas` its first column ("times").
inline Expr piecewise_linear(const Expr& x, const std::vector<std::pair<double, double>>& points,
                             const std::string& owner, const std::string& abscissas) {
  if (points.empty()) throw ModelError(owner + ": the table is empty");
  for (std::size_t i = 1; i < points.size(); ++i)
    if (!(points[i].first > points[i - 1].first))
      throw ModelError(owner + ": " + abscissas + " must increase (row " + std::to_string(i) + ")");
  Expr value = points.back().second;
  for (std::size_t i = points.size() - 1; i-- > 0;) {
    auto [x0, y0] = points[i];
    auto [x1, y1] = points[i + 1];
    value = ifelse(x < x1, y0 + (y1 - y0) * (x - x0) / (x1 - x0), value);
  }
  return ifelse(x < points.front().first, points.front().second, value);
}

}  // namespace acausal::blocks
