#pragma once

#include "solver/symbolic/expr.hpp"

namespace acausal::vehicle {

/// The integrator rate of a PI controller u = k·(e + xi/Ti) with
/// back-calculation anti-windup: der(xi) = e + (u_sat − u)·Ti/(k·Tt). While
/// the output saturates, the integrator is pulled back with time constant Tt
/// instead of winding up; the 1e-12 keeps k = 0 (feed-forward only) finite.
inline Expr anti_windup_rate(const Expr& e, const Expr& u, const Expr& u_sat, const Expr& k, const Expr& Ti,
                             const Expr& Tt) {
  return e + (u_sat - u) * Ti / (k * Tt + 1e-12);
}

}  // namespace acausal::vehicle
