// Derivative aliases. Where an equation says a state's derivative is
// an affine function of other unknowns (v = der(s), w_rel = w_b - w_a), every
// other equation reads that function instead of der(s). The solution is the
// same, but the Jacobian entries of those equations no longer carry IDA's
// factor cj = O(1/h): a stiff law of a velocity (a tire's slip, a friction's
// tanh) written through der(s) would make Newton's matrix ill-conditioned at
// small steps and its iterations fail.
#pragma once

#include "solver/ir/dae.hpp"

namespace acausal {

void substitute_derivative_aliases(DaeSystem& dae);

}  // namespace acausal
