#pragma once

#include "solver/symbolic/expr.hpp"

namespace acausal::vehicle {

/// The tanh tire law: F = F_max·tanh(slip_stiffness·κ/μ). Linear in the slip
/// near zero (initial stiffness slip_stiffness·N per unit slip), saturating
/// smoothly at F_max = μ·N; the 1e-12 keeps μ = 0 (ice at its limit) finite.
inline Expr tanh_tire_force(const Expr& F_max, const Expr& slip_stiffness, const Expr& kappa, const Expr& mu) {
  return F_max * tanh(slip_stiffness * kappa / (mu + 1e-12));
}

}  // namespace acausal::vehicle
