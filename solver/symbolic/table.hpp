// Interpolation tables inside expressions: y = table(x) for any expression x,
// with derivatives of every order for the Jacobian and for index reduction
// (a table of a state that gets differentiated works).
//
// A table is data, interned by content: an expression holds an Op::Table node
// whose `symbol` names an entry (the data, which function of it: value,
// derivative, segment, next breakpoint). The tape and native code evaluate an
// entry through table_evaluate(), so a 2000-row cycle costs a binary search,
// not a 2000-deep chain of ifelse.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "solver/symbolic/expr.hpp"
#include "solver/symbolic/table_entries.hpp"

namespace acausal {

/// Between the points (MSL Modelica.Blocks.Types.Smoothness).
enum class TableSmoothness : int {
  linear,          // LinearSegments
  constant,        // ConstantSegments: y_i held on [x_i, x_i+1)
  monotone_cubic,  // MonotoneContinuousDerivative1: Fritsch–Butland slopes, C1, no overshoot
};

/// Beyond the first and the last point (MSL Modelica.Blocks.Types.Extrapolation).
enum class TableExtrapolation : int {
  hold,      // HoldLastPoint
  linear,    // LastTwoPoints: continued with the end slope
  periodic,  // Periodic: the table repeats with period x_last - x_first
  error,     // NoExtrapolation: NaN, which the solver reports with the equation reading it
};

/// One column over an abscissa. Abscissae must not decrease; two equal ones
/// are a jump (at the abscissa itself the later value holds).
struct Table1D {
  std::vector<double> x, y;
  TableSmoothness smoothness = TableSmoothness::linear;
  TableExtrapolation extrapolation = TableExtrapolation::hold;
};

/// y over a grid u1 × u2 (row major: y[i·u2.size() + j] at u1[i], u2[j]);
/// both abscissae strictly increasing. smoothness linear: bilinear in each
/// cell; monotone_cubic: a smooth (C1) bicubic, the tensor product of cubic
/// Hermites with centred-difference slopes (it may overshoot: only the 1-D
/// cubic is monotone). Extrapolation hold clamps to the grid, linear
/// continues the edges with their slope, error gives NaN.
struct Table2D {
  std::vector<double> u1, u2, y;
  TableExtrapolation extrapolation = TableExtrapolation::hold;
  TableSmoothness smoothness = TableSmoothness::linear;
};

/// How many distinct tables (1-D and 2-D) are registered now; those no model
/// uses any more go at the next collect_expressions().
std::size_t interned_table_count();

/// Checks a table and throws ModelError naming `owner` and the offending row.
void check_table(const Table1D& table, const std::string& owner);
void check_table(const Table2D& table, const std::string& owner);

/// table(x): the column's value at x, the segment searched at each evaluation
/// (no events at the breakpoints: a kink in x is smooth enough for the
/// integrator; a table of time with jumps belongs in table_in_segment).
Expr table(const Expr& x, const Table1D& table);
/// The value on segment `segment` (a value of table_segment, held between
/// events by a discrete variable): the segment's polynomial, so the
/// integrator never sees a jump or a kink. How CombiTimeTable reads time.
Expr table_in_segment(const Expr& x, const Expr& segment, const Table1D& table);
/// The segment x lies in (an opaque number for table_in_segment) and the next
/// breakpoint after x (the largest double when there is none): for when-clause actions.
Expr table_segment(const Expr& x, const Table1D& table);
Expr table_next_breakpoint(const Expr& x, const Table1D& table);
/// y(u1, u2), bilinear.
Expr table(const Expr& u1, const Expr& u2, const Table2D& table);

/// What an Op::Table node's entry computes, as plain data: how a compiled
/// model is written to a file and read back in another process (where the
/// entry numbers differ). `function` and the orders are opaque to callers.
struct TableEntryData {
  int function = 0;
  int order = 0, order2 = 0;
  bool two_dimensional = false;
  Table1D column;  // when !two_dimensional
  Table2D grid;    // when two_dimensional
};
TableEntryData table_entry_data(std::uint32_t entry);
/// The entry that computes `data` in this process; throws ModelError for data
/// that is not a valid table or function.
std::uint32_t table_entry(const TableEntryData& data);

}  // namespace acausal
