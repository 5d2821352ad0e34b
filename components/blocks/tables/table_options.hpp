#pragma once

#include <functional>
#include <string>
#include <vector>

#include "solver/modeling/component.hpp"
#include "solver/symbolic/table.hpp"

namespace acausal::blocks {

/// The interpolation between a table's points, a structural choice with
/// MSL's names (Modelica.Blocks.Types.Smoothness).
struct Smoothness {
  enum : int { LinearSegments, ConstantSegments, MonotoneContinuousDerivative1 };
  static inline const std::vector<std::string> names = {"LinearSegments", "ConstantSegments",
                                                        "MonotoneContinuousDerivative1"};
};

/// Beyond a table's ends, a structural choice with MSL's names
/// (Modelica.Blocks.Types.Extrapolation). NoExtrapolation makes a value
/// outside the table NaN, which the solver reports naming the equation.
struct Extrapolation {
  enum : int { HoldLastPoint, LastTwoPoints, Periodic, NoExtrapolation };
  static inline const std::vector<std::string> names = {"HoldLastPoint", "LastTwoPoints", "Periodic",
                                                        "NoExtrapolation"};
};

/// `make(smoothness, extrapolation)` for the pair the structural parameters
/// choose: every pair is written, compile() keeps the chosen one. Periodic
/// is left out when the abscissae span no period (`has_period` false); a
/// require() on the component reports choosing it.
inline Expr for_chosen_interpolation(const Expr& smoothness, const Expr& extrapolation, bool has_period,
                                     const std::function<Expr(TableSmoothness, TableExtrapolation)>& make) {
  Expr result(0.0);
  for (int e = Extrapolation::NoExtrapolation; e >= 0; --e) {
    if (e == Extrapolation::Periodic && !has_period) continue;
    Expr by_smoothness(0.0);
    for (int s = Smoothness::MonotoneContinuousDerivative1; s >= 0; --s) {
      const Expr value = make(static_cast<TableSmoothness>(s), static_cast<TableExtrapolation>(e));
      by_smoothness = s == Smoothness::MonotoneContinuousDerivative1 ? value
                                                                      : ifelse(chosen(smoothness, s), value, by_smoothness);
    }
    result = e == Extrapolation::NoExtrapolation ? by_smoothness : ifelse(chosen(extrapolation, e), by_smoothness, result);
  }
  return result;
}

}  // namespace acausal::blocks
