#pragma once

#include <fmt/format.h>

#include <memory>
#include <string>
#include <vector>

#include "components/blocks/tables/table_file.hpp"
#include "components/blocks/tables/table_options.hpp"
#include "connectors/signal.hpp"

namespace acausal::blocks {

/// MSL Blocks.Sources.CombiTimeTable: columns of values over time, one output
/// per column (y1, y2, …), y = table(time − shiftTime) + offset, and offset
/// alone before startTime. A time that appears twice is a jump: the value
/// changes at that instant, an event. `smoothness` and `extrapolation` are
/// MSL's choices. The table is read on its current segment, which changes
/// only at events (the breakpoints), so the integrator never steps across a
/// kink or a jump. set_table() or load() before compiling.
struct CombiTimeTable : Component {
  Parameter smoothness = parameter("smoothness", Smoothness::LinearSegments, {.choices = Smoothness::names});
  Parameter extrapolation =
      parameter("extrapolation", Extrapolation::LastTwoPoints, {.choices = Extrapolation::names});
  Parameter shiftTime = parameter("shiftTime", 0.0, {.unit = "s", .description = "the table starts this much later"});
  Parameter startTime = parameter("startTime", 0.0, {.unit = "s", .description = "y = offset before"});
  Parameter offset = parameter("offset", 0.0, {.description = "added to every column"});
  Discrete segment = discrete("segment", {.description = "the table's segment the outputs read"});
  Discrete next_breakpoint =
      discrete("next_breakpoint", {.unit = "s", .start = -1e300, .description = "the time segment changes next"});
  std::vector<RealOutput*> y;

  /// d/dt of column k's table (without offset): the interpolant's slope on
  /// the current segment, for equations of an enclosing component.
  Expr rate(std::size_t k) const { return der(values_.at(k)); }

  explicit CombiTimeTable(std::string name) : Component(std::move(name)) {}

  /// Rows of (time, value_1, value_2, …); times must not decrease.
  void set_table(const std::vector<std::vector<double>>& rows) {
    if (!y.empty()) throw ModelError("CombiTimeTable '" + path() + "': the table is already set");
    if (rows.empty()) throw ModelError("CombiTimeTable '" + path() + "': the table is empty");
    const std::size_t columns = rows.front().size();
    if (columns < 2) throw ModelError("CombiTimeTable '" + path() + "': a row needs a time and at least one value");
    std::vector<Table1D> tables(columns - 1);
    for (std::size_t r = 0; r < rows.size(); ++r) {
      if (rows[r].size() != columns)
        throw ModelError("CombiTimeTable '" + path() + "': row " + std::to_string(r + 1) + " has " +
                         std::to_string(rows[r].size()) + " values, the first " + std::to_string(columns));
      for (std::size_t k = 0; k + 1 < columns; ++k) {
        tables[k].x.push_back(rows[r][0]);
        tables[k].y.push_back(rows[r][k + 1]);
      }
    }
    for (std::size_t k = 0; k < tables.size(); ++k)
      check_table(tables[k], "CombiTimeTable '" + path() + "' column " + std::to_string(k + 2));
    // Rows all at one time have no segment to interpolate on and no two
    // points to extrapolate from: refused here, naming the table, instead of
    // a NaN that the solver would blame on whatever reads the output.
    if (rows.size() > 1 && rows.back()[0] == rows.front()[0])
      throw ModelError(fmt::format("CombiTimeTable '{}': all {} rows are at time {}; a time table needs a second, "
                                   "different time (a step at {} is a row at an earlier time, then the jump's two rows)",
                                   path(), rows.size(), rows.front()[0], rows.front()[0]));
    define(tables);
  }

  /// From a file (components/blocks/tables/table_file.hpp: CSV with a header, or
  /// MSL's text format with `table_name`): `time_column` and `columns`
  /// name CSV columns or give 1-based indices ("1", "2"); no columns: all after time.
  void load(const std::string& file, const std::string& table_name = "", const std::string& time_column = "1",
            const std::vector<std::string>& columns = {}) {
    set_table(abscissa_and_columns(read_table_file(file, table_name), time_column, columns, false));
  }

 private:
  void define(const std::vector<Table1D>& tables) {
    const Table1D& times = tables.front();
    const bool has_period = times.x.back() > times.x.front();
    require(!chosen(extrapolation, Extrapolation::Periodic) || Expr(has_period ? 1.0 : 0.0),
            "a Periodic table needs its last time after its first");
    auto variant = [](Table1D t, TableSmoothness s, TableExtrapolation e) {
      t.smoothness = s;
      t.extrapolation = e;
      return t;
    };
    // The segment and the next breakpoint depend only on the times (and on
    // whether they repeat): each event reads them at the breakpoint reached,
    // not at the event's time, which root finding may place a hair before it.
    const Expr reached = no_event(max(time_symbol(), pre(next_breakpoint))) - shiftTime;
    auto times_with = [&](const std::function<Expr(const Table1D&)>& f) {
      return for_chosen_interpolation(smoothness, extrapolation, has_period, [&](TableSmoothness, TableExtrapolation e) {
        return f(variant(times, TableSmoothness::linear, e));
      });
    };
    when({initial(), time_symbol() >= pre(next_breakpoint)},
         {segment == times_with([&](const Table1D& t) { return table_segment(reached, t); }),
          next_breakpoint == times_with([&](const Table1D& t) { return table_next_breakpoint(reached, t); }) +
                                 shiftTime});
    for (std::size_t k = 0; k < tables.size(); ++k) {
      auto& out = static_cast<RealOutput&>(
          keep_connector(std::make_unique<RealOutput>(*this, fmt::format("y{}", k + 1))));
      y.push_back(&out);
      const Expr value = for_chosen_interpolation(smoothness, extrapolation, has_period,
                                                  [&](TableSmoothness s, TableExtrapolation e) {
                                                    return table_in_segment(time_symbol() - shiftTime, segment,
                                                                            variant(tables[k], s, e));
                                                  });
      values_.push_back(ifelse(time_symbol() < startTime, 0.0, value));
      equation(out == offset + values_.back());
    }
  }

  std::vector<Expr> values_;
};

}  // namespace acausal::blocks
