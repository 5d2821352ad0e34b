#pragma once

#include "solver/symbolic/expr.hpp"

namespace acausal::vehicle {

/// The saturated-linear tire law of seed 000: F = N·clamp(κ/slip_compliance,
/// -μ, μ): linear in the slip up to the friction limit μ·N, constant beyond.
inline Expr linear_tire_force(const Expr& N, const Expr& slip_compliance, const Expr& kappa, const Expr& mu) {
  return N * max(min(kappa / slip_compliance, mu), -mu);
}

}  // namespace acausal::vehicle
