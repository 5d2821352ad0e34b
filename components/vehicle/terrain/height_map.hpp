#pragma once
// Terrain elevation as data (issue 38 item 3, seed 004's height-map terrain):
// a profile z(s) along the road for the longitudinal bodies and a grid z(x, y)
// for the planar ones, read through the library's tables so that the height
// and its gradient are expressions with derivatives (the integrator, index
// reduction and linearization see a smooth road).

#include <array>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "solver/symbolic/errors.hpp"
#include "solver/symbolic/expr.hpp"
#include "solver/symbolic/table.hpp"
#include "solver/symbolic/table_entries.hpp"

namespace acausal::vehicle {

namespace height_map_detail {

/// The partial derivative (argument i) of a table read at (u1, u2): taken on
/// placeholder arguments and then read at the real ones, because a table of
/// constant arguments folds to a number, which has no derivative to ask for.
inline Expr table_slope(const Expr& value_at_placeholders, int i, const Expr& u1, const Expr& u2) {
  const Expr d = table_partial(value_at_placeholders.node(), i);
  if (d.op() != Op::Table) return d;  // identically zero: beyond the table's polynomial order
  const Expr args[2] = {u1, u2};
  return remake(d.node(), args);
}
inline Expr placeholder(int i) { return make_variable_symbol(i == 0 ? "height_map.u1" : "height_map.u2"); }

/// The numbers of one CSV line (comma separated, blanks around fields allowed);
/// `first_field` is the number of its first field in errors.
std::vector<double> csv_numbers(const std::string& line, const std::string& file, int line_number,
                                int first_field = 1);
/// The lines of a CSV file that hold data, with their line numbers ('#' comments and blank lines skipped).
std::vector<std::pair<int, std::string>> csv_data_lines(const std::string& file);

}  // namespace height_map_detail

/// Where a body reads the terrain: under each wheel (its attitude from the
/// heights under the wheels, gravity's pull from the slopes there, weighted by
/// the wheels' static load shares) or only under its CG (the whole body feels
/// the CG's slope; cheaper, and the same on a plane).
enum class TerrainSampling { wheels, cg };

/// Elevation z [m] along the road as a function of the distance travelled s
/// [m] (the longitudinal bodies' `s`, measured along the road surface, not
/// its horizontal projection). Between the points a monotone cubic
/// (Fritsch–Butland: C1, no overshoot, so no invented bumps) by default;
/// beyond the ends the road continues at its end slope (linear extrapolation,
/// so the slope has no jump there). The climb angle at s is asin(dz/ds): the
/// exact angle for a distance measured along the road, which makes m·g·z the
/// body's potential energy to the integrator's accuracy.
struct HeightProfile {
  Table1D table;
  std::string source = "height profile";  // names the data in errors (a file name for load_height_profile)

  HeightProfile() = default;
  /// (s, z) points, s strictly increasing, all finite.
  HeightProfile(const std::vector<std::pair<double, double>>& points,
                TableSmoothness smoothness = TableSmoothness::monotone_cubic, std::string source_name = "height profile")
      : source(std::move(source_name)) {
    table.smoothness = smoothness;
    table.extrapolation = TableExtrapolation::linear;
    for (std::size_t i = 0; i < points.size(); ++i) {
      const auto [s, z] = points[i];
      if (!std::isfinite(s) || !std::isfinite(z))
        throw ModelError(source + ": point " + std::to_string(i + 1) + " (" + std::to_string(s) + ", " +
                         std::to_string(z) + ") is not finite");
      if (i > 0 && !(s > points[i - 1].first))
        throw ModelError(source + ": the positions must increase (point " + std::to_string(i + 1) + ": s = " +
                         std::to_string(s) + " after " + std::to_string(points[i - 1].first) + ")");
      table.x.push_back(s);
      table.y.push_back(z);
    }
    if (points.size() < 2) throw ModelError(source + ": a height profile needs at least two points");
    check_table(table, source);
  }

  Expr height(const Expr& s) const { return acausal::table(s, table); }
  /// dz/ds, the sine of the climb angle.
  Expr slope(const Expr& s) const {
    return height_map_detail::table_slope(acausal::table(height_map_detail::placeholder(0), table), 0, s, Expr(0.0));
  }
  /// The climb angle asin(dz/ds) [rad], positive uphill in the direction of increasing s.
  Expr grade(const Expr& s) const { return asin(slope(s)); }

  /// Throws a ModelError naming `owner` and the source when the profile climbs
  /// steeper than max_angle [rad] (each segment sampled at 17 points: the
  /// cubic's slope peaks inside a segment).
  void require_max_angle(double max_angle, const std::string& owner) const {
    const double limit = std::sin(max_angle);
    for (std::size_t i = 0; i + 1 < table.x.size(); ++i)
      for (int k = 0; k <= 16; ++k) {
        const double s = table.x[i] + (table.x[i + 1] - table.x[i]) * k / 16.0;
        const double dz = slope(Expr(s)).value();
        if (!(std::fabs(dz) <= limit))
          throw ModelError(owner + ": " + source + " climbs at dz/ds = " + std::to_string(dz) + " near s = " +
                           std::to_string(s) + " m, steeper than the body's " + std::to_string(max_angle) + " rad");
      }
  }
};

/// Elevation z [m] over a horizontal grid x × y [m] (the planar bodies' x,
/// y): z[i][j] at (x[i], y[j]). Between the nodes the library's smooth bicubic
/// (Table2D monotone_cubic: C1, centred-difference slopes; it may overshoot
/// between nodes of very uneven data) by default; beyond the grid the surface
/// continues at its edge slopes. Queries take any expressions for the point.
struct HeightMap {
  Table2D table;
  std::string source = "height map";

  HeightMap() = default;
  HeightMap(std::vector<double> x, std::vector<double> y, const std::vector<std::vector<double>>& z,
            TableSmoothness smoothness = TableSmoothness::monotone_cubic, std::string source_name = "height map")
      : source(std::move(source_name)) {
    if (x.size() < 2 || y.size() < 2) throw ModelError(source + ": a height map needs at least 2 × 2 nodes");
    if (z.size() != x.size())
      throw ModelError(source + ": " + std::to_string(z.size()) + " rows of heights for " + std::to_string(x.size()) +
                       " x values");
    table.u1 = std::move(x);
    table.u2 = std::move(y);
    table.smoothness = smoothness;
    table.extrapolation = TableExtrapolation::linear;
    for (std::size_t i = 0; i < z.size(); ++i) {
      if (z[i].size() != table.u2.size())
        throw ModelError(source + ": row " + std::to_string(i + 1) + " (x = " + std::to_string(table.u1[i]) +
                         ") has " + std::to_string(z[i].size()) + " heights for " + std::to_string(table.u2.size()) +
                         " y values");
      table.y.insert(table.y.end(), z[i].begin(), z[i].end());
    }
    check_table(table, source);
  }

  Expr height(const Expr& x, const Expr& y) const { return acausal::table(x, y, table); }
  /// (dz/dx, dz/dy) at (x, y).
  std::array<Expr, 2> gradient(const Expr& x, const Expr& y) const {
    using namespace height_map_detail;
    const Expr at_placeholders = acausal::table(placeholder(0), placeholder(1), table);
    return {table_slope(at_placeholders, 0, x, y), table_slope(at_placeholders, 1, x, y)};
  }
  /// The surface's slope along the horizontal direction `heading` [rad from
  /// the x axis]: the sine of the climb angle a body heading that way feels,
  /// dz/dl / sqrt(1 + |∇z|²) (for a plane, sin(grade)·cos(heading - ascent)).
  Expr grade_along(const Expr& x, const Expr& y, const Expr& heading) const {
    const auto [zx, zy] = gradient(x, y);
    return (zx * cos(heading) + zy * sin(heading)) / sqrt(1.0 + zx * zx + zy * zy);
  }
  /// The unit upward normal (−z_x, −z_y, 1)/sqrt(1 + |∇z|²).
  std::array<Expr, 3> normal(const Expr& x, const Expr& y) const {
    const auto [zx, zy] = gradient(x, y);
    const Expr n = sqrt(1.0 + zx * zx + zy * zy);
    return {-zx / n, -zy / n, 1.0 / n};
  }

  /// Throws a ModelError naming `owner` when the surface is steeper than max_angle [rad] at a node or a cell's centre.
  void require_max_angle(double max_angle, const std::string& owner) const {
    const double limit = std::tan(max_angle);
    const auto& x = table.u1;
    const auto& y = table.u2;
    for (std::size_t i = 0; i < 2 * x.size() - 1; ++i)
      for (std::size_t j = 0; j < 2 * y.size() - 1; ++j) {
        const double xi = i % 2 ? 0.5 * (x[i / 2] + x[i / 2 + 1]) : x[i / 2];
        const double yj = j % 2 ? 0.5 * (y[j / 2] + y[j / 2 + 1]) : y[j / 2];
        const auto [zx, zy] = gradient(Expr(xi), Expr(yj));
        const double steepness = std::hypot(zx.value(), zy.value());
        if (!(steepness <= limit))
          throw ModelError(owner + ": " + source + " has a slope of " + std::to_string(steepness) + " at (" +
                           std::to_string(xi) + ", " + std::to_string(yj) + "), steeper than the body's " +
                           std::to_string(max_angle) + " rad");
      }
  }
};

/// A profile from a CSV file of `s,z` rows (a first line that is not numeric
/// is a header; '#' comments and blank lines are skipped); errors name the file, the line and the field.
HeightProfile load_height_profile(const std::string& file,
                                  TableSmoothness smoothness = TableSmoothness::monotone_cubic);
/// A grid from a CSV file: the first data line is a corner cell (ignored)
/// followed by the y values, each next line an x value followed by the
/// heights at (x, y_1 … y_n) (CombiTable2D's layout).
HeightMap load_height_map(const std::string& file, TableSmoothness smoothness = TableSmoothness::monotone_cubic);

}  // namespace acausal::vehicle
