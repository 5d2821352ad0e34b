#pragma once

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "solver/symbolic/errors.hpp"
#include "solver/symbolic/expr.hpp"

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

/// Modelica.Math.Vectors.interpolate, which MSL's friction characteristics
/// use: piecewise linear through the points, continued linearly beyond the
/// first and the last segment, a constant for a single point. No events at the
/// breakpoints (the characteristic is read as smooth).
inline Expr interpolate(const Expr& x, const std::vector<std::pair<double, double>>& points, const std::string& owner,
                        const std::string& abscissas) {
  if (points.empty()) throw ModelError(owner + ": the table is empty");
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (!std::isfinite(points[i].first) || !std::isfinite(points[i].second))
      throw ModelError(owner + ": row " + std::to_string(i) + " is not finite");
    if (i > 0 && !(points[i].first > points[i - 1].first))
      throw ModelError(owner + ": " + abscissas + " must increase (row " + std::to_string(i) + ")");
  }
  if (points.size() == 1) return points.front().second;
  auto segment = [&](std::size_t i) {
    auto [x0, y0] = points[i];
    auto [x1, y1] = points[i + 1];
    return y0 + (y1 - y0) / (x1 - x0) * (x - x0);
  };
  Expr value = segment(points.size() - 2);
  for (std::size_t i = points.size() - 2; i-- > 0;) value = no_event(ifelse(x < points[i + 1].first, segment(i), value));
  return value;
}

}  // namespace acausal::blocks
