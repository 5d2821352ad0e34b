// Sorting (block-lower-triangular order by Tarjan's strongly connected
// components) and elimination of explicit assignments.
//
// A scalar block whose equation is linear in its algebraic unknown with a
// parameter-only coefficient is solved symbolically: the variable becomes an
// observed variable (computed from the integrator's unknowns) and disappears
// from the system IDA integrates. Algebraic loops and state derivatives stay.
#pragma once

#include <vector>

#include "solver/ir/dae.hpp"
#include "solver/structure/matching.hpp"

namespace acausal {

/// Tarjan's algorithm (iterative). Components come out in reverse
/// topological order of `successors`: each after all it can reach.
std::vector<std::vector<int>> strongly_connected_components(const std::vector<std::vector<int>>& successors);

void sort_and_eliminate(DaeSystem& dae, const StructuralSystem& structure);

}  // namespace acausal
