#pragma once

#include <memory>
#include <string>
#include <vector>

#include "components/blocks/tables/table_file.hpp"
#include "components/blocks/tables/table_options.hpp"
#include "connectors/signal.hpp"

namespace acausal::blocks {

/// MSL Blocks.Tables.CombiTable1Ds: columns of values over an abscissa, one
/// output per column (y1, y2, …) at the input u. The abscissae must
/// increase. Breakpoints make no events (a kink in u is smooth enough for the
/// integrator), and the derivatives are the interpolant's, so the table may
/// sit in an equation that index reduction differentiates.
/// set_table() or load() before compiling. In an equation of your own,
/// `table(expr, Table1D)` (solver/symbolic/table.hpp) is the same function.
struct CombiTable1D : Component {
  RealInput u{*this, "u"};
  Parameter smoothness = parameter("smoothness", Smoothness::LinearSegments, {.choices = Smoothness::names});
  Parameter extrapolation =
      parameter("extrapolation", Extrapolation::LastTwoPoints, {.choices = Extrapolation::names});
  std::vector<RealOutput*> y;

  explicit CombiTable1D(std::string name) : Component(std::move(name)) {}

  /// Rows of (u, value_1, value_2, …).
  void set_table(const std::vector<std::vector<double>>& rows) {
    if (!y.empty()) throw ModelError("CombiTable1D '" + path() + "': the table is already set");
    if (rows.empty() || rows.front().size() < 2)
      throw ModelError("CombiTable1D '" + path() + "': the table needs rows of an abscissa and at least one value");
    std::vector<Table1D> tables(rows.front().size() - 1);
    for (std::size_t r = 0; r < rows.size(); ++r) {
      if (rows[r].size() != tables.size() + 1)
        throw ModelError("CombiTable1D '" + path() + "': row " + std::to_string(r + 1) + " has " +
                         std::to_string(rows[r].size()) + " values, the first " + std::to_string(tables.size() + 1));
      if (r > 0 && !(rows[r][0] > rows[r - 1][0]))
        throw ModelError("CombiTable1D '" + path() + "': the abscissae must increase (row " + std::to_string(r + 1) +
                         ")");
      for (std::size_t k = 0; k < tables.size(); ++k) {
        tables[k].x.push_back(rows[r][0]);
        tables[k].y.push_back(rows[r][k + 1]);
      }
    }
    const bool has_period = tables.front().x.back() > tables.front().x.front();
    require(!chosen(extrapolation, Extrapolation::Periodic) || Expr(has_period ? 1.0 : 0.0),
            "a Periodic table needs its last abscissa above its first");
    for (std::size_t k = 0; k < tables.size(); ++k) {
      check_table(tables[k], "CombiTable1D '" + path() + "' column " + std::to_string(k + 2));
      auto& out = static_cast<RealOutput&>(
          keep_connector(std::make_unique<RealOutput>(*this, "y" + std::to_string(k + 1))));
      y.push_back(&out);
      equation(out == for_chosen_interpolation(smoothness, extrapolation, has_period,
                                               [&](TableSmoothness s, TableExtrapolation e) {
                                                 Table1D t = tables[k];
                                                 t.smoothness = s;
                                                 t.extrapolation = e;
                                                 return table(u, t);
                                               }));
    }
  }

  /// From a file (CSV with a header, or MSL's text format with `table_name`):
  /// `u_column` and `columns` name CSV columns or give 1-based indices; no columns: all but u's.
  void load(const std::string& file, const std::string& table_name = "", const std::string& u_column = "1",
            const std::vector<std::string>& columns = {}) {
    set_table(abscissa_and_columns(read_table_file(file, table_name), u_column, columns, true));
  }
};

}  // namespace acausal::blocks
