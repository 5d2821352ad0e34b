// Flatten: a component tree into scalar unknowns, parameters and
// equations, adding the connection equations of every connection set.
#pragma once

#include "solver/ir/dae.hpp"

namespace acausal {

DaeSystem flatten(const Component& model);

}  // namespace acausal
