// Alias elimination. Removes equations of the form a = b, a = -b,
// a = c*b (c a number) and a = p (p a parameter expression), replacing the
// eliminated variables everywhere; near-linear in model size (weighted
// union-find). Eliminated variables keep a definition, so results show them.
#pragma once

#include "solver/ir/dae.hpp"

namespace acausal {

void eliminate_aliases(DaeSystem& dae);

}  // namespace acausal
