// Initialization: consistent values of y and y' at t0 from the DAE together
// with the initial conditions (fixed start values, initial equations such as
// `spring.phi_rel = 0` or `der(inertia.w) = 0`).
//
// The plan is structural and made once at compile time: the DAE rows and the
// conditions are matched to the unknowns (all of y and the derivatives of the
// states). Unknowns nothing determines that are states start at their start
// value (reported); conditions left over are checked for consistency after
// solving (over-determined but consistent is accepted). The numeric part is a
// damped Newton iteration with a sparse LU factorization.
#pragma once

#include <string>
#include <vector>

#include "solver/symbolic/expr.hpp"
#include "solver/lower/tape.hpp"

namespace acausal {

struct CompiledModel;

struct InitialCondition {
  Expr residual;
  std::string description;  // "in.phi = 1 (fixed start)", an initial equation, or a default
};

struct InitializationPlan {
  /// False when every condition fixes a state: IDA's own IDACalcIC then suffices.
  bool custom = false;
  std::vector<InitialCondition> conditions;
  std::vector<int> used;       // conditions solved together with the DAE
  std::vector<int> redundant;  // conditions checked afterwards
  std::vector<int> state_of_slot;  // slot -> index among states, -1 for algebraic slots
  int n_states = 0;
  Tape residuals;  // one output per condition
  Tape jacobian;   // one output per entry
  std::vector<std::pair<int, int>> entries;  // (condition, column): column < n is y, else y' of a state
  std::vector<int> row_of_column;            // the structural matching (rows: DAE rows, then conditions)
  std::vector<std::vector<int>> condition_columns;
  std::vector<std::string> notes;
  /// Variables of the states that nothing but their start value determines at t0.
  std::vector<int> default_starts;
};

InitializationPlan plan_initialization(const CompiledModel& model);

/// Solves for y and y' at t0 (inputs: start values in y). Throws ModelError
/// naming conditions when they conflict or the iteration does not converge.
void initialize(const CompiledModel& model, double t0, const std::vector<double>& parameters,
                const std::vector<double>& modes, double* y, double* yp);

/// dy/dp of initialize()'s solution (y, y') for the parameters `wrt` (indices
/// into the model's parameters), by the implicit function theorem on the same
/// equations: one row of n values per parameter.
std::vector<std::vector<double>> initialization_sensitivities(const CompiledModel& model, double t0,
                                                              const std::vector<double>& parameters,
                                                              const std::vector<double>& modes, const double* y,
                                                              const double* yp, const std::vector<int>& wrt);

}  // namespace acausal
