// Steady state and trim: the point where the states stand still (or, for
// positions that keep moving, move at a constant rate), found by Newton's
// method with the symbolic Jacobian.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "solver/runtime/result.hpp"
#include "solver/runtime/simulator.hpp"

namespace acausal {

struct SteadyStateOptions {
  /// Parameters (a model's inputs among them) the solver may change: the throttle of a trim.
  std::vector<std::string> free;
  /// Extra conditions, variable = value (body.v = 27.78): one per free parameter.
  std::vector<std::pair<std::string, double>> conditions;
  /// States whose derivative need not vanish: they keep their value and move at
  /// a constant rate (a car's position). States no equation reads the value of
  /// are found without asking.
  std::vector<std::string> moving;
  double tolerance = 1e-10;  // on every residual, relative to its scale at the guess (and at least absolute)
  int max_iterations = 50;
};

struct SteadyState {
  OperatingPoint point;  // consistent: the derivatives of the still states are 0
  std::vector<std::pair<std::string, double>> free_values;
  std::vector<std::string> moving;  // the states that move (given or found)
  int iterations = 0;
  double residual = 0.0;  // the largest, at the solution
};

/// Solves F(t, y, y', p) = 0 with y' = 0 for every state but the moving ones,
/// from `guess` (a row of a run: Result::point), for the unknowns, the moving
/// states' rates and the free parameters. Throws ModelError naming the
/// equations when the Jacobian is singular or Newton does not converge.
SteadyState steady_state(const Simulator& sim, const OperatingPoint& guess, const SteadyStateOptions& options = {});

}  // namespace acausal
