#pragma once

#include <cstdlib>
#include <string>
#include <vector>

#include "components/blocks/tables/table_file.hpp"
#include "components/blocks/tables/table_options.hpp"
#include "connectors/signal.hpp"

namespace acausal::blocks {

/// MSL Blocks.Tables.CombiTable2Ds: y = table(u1, u2) over a grid, bilinear
/// in each cell (smoothness LinearSegments) or a smooth bicubic
/// (ContinuousDerivative: cubic Hermites with centred-difference slopes along
/// each axis, C1; MSL uses Akima's slopes there). Extrapolation HoldLastPoint clamps the inputs to the grid,
/// LastTwoPoints continues the edge cells, NoExtrapolation gives NaN outside.
/// No events at grid lines; the derivatives are the interpolant's.
/// set_table() or load() before compiling.
struct CombiTable2D : Component {
  RealInput u1{*this, "u1"}, u2{*this, "u2"};
  RealOutput y{*this, "y"};
  Parameter extrapolation =
      parameter("extrapolation", Extrapolation::LastTwoPoints, {.choices = Extrapolation::names});
  Parameter smoothness = parameter("smoothness", 0, {.choices = {"LinearSegments", "ContinuousDerivative"}});

  explicit CombiTable2D(std::string name) : Component(std::move(name)) {}

  /// values[i][j] at (u1_grid[i], u2_grid[j]); both grids increasing.
  void set_table(const std::vector<double>& u1_grid, const std::vector<double>& u2_grid,
                 const std::vector<std::vector<double>>& values) {
    if (!equations().empty()) throw ModelError("CombiTable2D '" + path() + "': the table is already set");
    Table2D t{.u1 = u1_grid, .u2 = u2_grid};
    if (values.size() != u1_grid.size())
      throw ModelError("CombiTable2D '" + path() + "': " + std::to_string(values.size()) + " rows of values for " +
                       std::to_string(u1_grid.size()) + " values of u1");
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (values[i].size() != u2_grid.size())
        throw ModelError("CombiTable2D '" + path() + "': row " + std::to_string(i + 1) + " has " +
                         std::to_string(values[i].size()) + " values for " + std::to_string(u2_grid.size()) +
                         " values of u2");
      t.y.insert(t.y.end(), values[i].begin(), values[i].end());
    }
    check_table(t, "CombiTable2D '" + path() + "'");
    require(!chosen(extrapolation, Extrapolation::Periodic), "a 2-D table does not extrapolate periodically");
    Expr value(0.0);
    for (int e : {Extrapolation::NoExtrapolation, Extrapolation::LastTwoPoints, Extrapolation::HoldLastPoint}) {
      t.extrapolation = static_cast<TableExtrapolation>(e);
      t.smoothness = TableSmoothness::monotone_cubic;
      const Expr smooth = table(u1, u2, t);
      t.smoothness = TableSmoothness::linear;
      const Expr by_smoothness = ifelse(chosen(smoothness, 1), smooth, table(u1, u2, t));
      value = e == Extrapolation::NoExtrapolation ? by_smoothness : ifelse(chosen(extrapolation, e), by_smoothness, value);
    }
    equation(y == value);
  }

  /// MSL's layout, from a file: the first row is u2's grid (its first entry
  /// ignored), the first column u1's, the rest the values (MSL text format
  /// with `table_name`, or a CSV whose header row is ignored).
  void load(const std::string& file, const std::string& table_name = "") {
    TableFile read = read_table_file(file, table_name);
    std::vector<std::vector<double>> rows = read.rows;
    if (!read.names.empty()) {  // a CSV's header holds u2's grid as text
      std::vector<double> grid{0.0};
      for (std::size_t k = 1; k < read.names.size(); ++k) {
        char* end = nullptr;
        grid.push_back(std::strtod(read.names[k].c_str(), &end));
        if (read.names[k].empty() || *end != '\0')
          throw ModelError(read.source + ": header field " + std::to_string(k + 1) + " '" + read.names[k] +
                           "' must be a value of u2");
      }
      rows.insert(rows.begin(), grid);
    }
    if (rows.size() < 2 || rows.front().size() < 2)
      throw ModelError(read.source + ": a 2-D table needs a row of u2, a column of u1 and values");
    std::vector<double> u2_grid(rows.front().begin() + 1, rows.front().end()), u1_grid;
    std::vector<std::vector<double>> values;
    for (std::size_t r = 1; r < rows.size(); ++r) {
      u1_grid.push_back(rows[r][0]);
      values.emplace_back(rows[r].begin() + 1, rows[r].end());
    }
    set_table(u1_grid, u2_grid, values);
  }
};

}  // namespace acausal::blocks
