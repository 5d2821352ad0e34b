// Balance check and matching.
//
// Each equation must be assigned the unknown it determines: the derivative of
// each differentiated variable (its value is known from integration) and each
// algebraic variable. A model that is not square, or structurally singular,
// is rejected with the names of what is unmatched.
#pragma once

#include <vector>

#include "solver/ir/dae.hpp"

namespace acausal {

/// Maximum bipartite matching (Hopcroft–Karp, iterative). adjacency[e] lists
/// the unknowns equation e contains. Returns unknown_of[e] (-1 if unmatched).
/// Starting from `start` (a matching, unknown_of[e] or -1), augmenting paths
/// never unmatch an equation or unknown that was matched: a caller can cover
/// the unknowns that matter most first, then match the rest.
std::vector<int> maximum_matching(int unknowns, const std::vector<std::vector<int>>& adjacency,
                                  std::vector<int> start = {});

/// The matching problem of a DAE: unknown u of each remaining variable is the
/// variable itself (algebraic) or its derivative (differentiated).
struct StructuralSystem {
  std::vector<int> unknown_variable;    // unknown -> variable index
  std::vector<bool> unknown_is_derivative;
  std::vector<int> unknown_of_variable;  // variable -> unknown (-1 if not an unknown)
  std::vector<std::vector<int>> incidence;  // equation -> unknowns
  std::vector<int> matched_unknown;         // equation -> unknown
};

/// Builds the incidence, checks balance, matches; throws ModelError on failure.
StructuralSystem match_equations(DaeSystem& dae);

}  // namespace acausal
