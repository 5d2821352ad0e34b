#pragma once

#include "solver/symbolic/expr.hpp"

namespace acausal::vehicle {

/// Torque factor of a lossy mesh: `efficiency` while `power` flows in the
/// driving direction, 1/efficiency while it flows back, blended smoothly over
/// |power| ≲ P_eps so that the residual stays differentiable through zero.
inline Expr directional_efficiency(const Expr& efficiency, const Expr& power, const Expr& P_eps) {
  const Expr driving = tanh(power / P_eps);
  return 0.5 * (efficiency + 1.0 / efficiency) + 0.5 * (efficiency - 1.0 / efficiency) * driving;
}

}  // namespace acausal::vehicle
