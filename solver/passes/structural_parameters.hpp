// Structural parameters folded. A structural parameter (a typed
// choice such as a block's initType or a controller type) is fixed at
// compile(): it becomes a constant in every equation, so an ifelse on it keeps
// only the chosen branch and the other branch's variables and events vanish.
#pragma once

#include "solver/ir/dae.hpp"

namespace acausal {

void fold_structural_parameters(DaeSystem& dae);

}  // namespace acausal
