#pragma once

#include "solver/symbolic/expr.hpp"

namespace acausal::vehicle {

/// A tire force in the wheel's axes: longitudinal (driving positive) and
/// lateral (positive to the wheel's left).
struct PlanarTireForce {
  Expr Fx, Fy;
};

/// Combined slip by normalized slip (Pacejka, Tire and Vehicle Dynamics,
/// the similarity method): each slip is scaled so that one unit of it is
/// the same force on the law's initial slope, s_x for kappa and s_y for
/// tan(alpha); the resultant s = |(s_x, s_y)| enters the law's curves
/// force_x(s), force_y(s) (the pure-slip laws as functions of the scaled
/// slip), and the force points against the slip:
///   Fx = force_x(s)·s_x/s,   Fy = −force_y(s)·s_y/s.
/// Under pure slip this is the law itself; under combined slip the total
/// force is at most the larger peak (the friction ellipse for equal peaks),
/// and since force(s)/s falls with s, braking or driving never adds lateral
/// force: |Fy(kappa, alpha)| ≤ |Fy(0, alpha)|. The 1e-12 in s keeps s_x/s
/// defined when the tire rolls free (force(s)/s → its slope at 0 there).
template <class CurveX, class CurveY>
PlanarTireForce similarity_combined(const Expr& s_x, const Expr& s_y, CurveX force_x, CurveY force_y) {
  const Expr s = sqrt(s_x * s_x + s_y * s_y + 1e-12);
  return {force_x(s) * s_x / s, -force_y(s) * s_y / s};
}

}  // namespace acausal::vehicle
