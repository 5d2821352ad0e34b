#pragma once

#include "solver/symbolic/expr.hpp"

namespace acausal::vehicle {

/// The Pacejka magic formula with constant coefficients:
/// F = F_max·D·sin(C·atan(B·κ - E·(B·κ - atan(B·κ)))), B the stiffness
/// factor, C the shape, D the peak (relative to μ·N), E the curvature.
/// `kappa` is the slip already held within the formula's fitted range.
inline Expr magic_formula_force(const Expr& F_max, const Expr& B, const Expr& C, const Expr& D, const Expr& E,
                                const Expr& kappa) {
  const Expr Bk = B * kappa;
  return F_max * D * sin(C * atan(Bk - E * (Bk - atan(Bk))));
}

}  // namespace acausal::vehicle
