// Exact outputs: the values IDA interpolates between its steps satisfy the
// DAE only to the integration error, so an ideal constraint such as v = ω·r
// would read 1e-6 off in a result. Modelica tools compute outputs from the
// states through the sorted equations; the equivalent here is, at each output
// row, to keep the states (the differential unknowns) as interpolated and
// solve F(t, y, y') = 0 for the algebraic unknowns and every derivative by
// Newton's method. Every equation of the compiled model then holds at the row
// to rounding.
#pragma once

#include <functional>
#include <memory>

#include "solver/lower/tape.hpp"

namespace acausal {

struct CompiledModel;

class ExactOutputs {
 public:
  /// rtol, atol: the run's tolerances, to tell rounding noise from a failed iteration.
  ExactOutputs(const CompiledModel& m, double rtol, double atol);
  ~ExactOutputs();

  /// Writes t, cj, y and y' into a tape's inputs, with the frozen values (modes,
  /// delayed values) of the row: the caller's, as for the integrator.
  using Loader = std::function<void(Tape&, double cj, const double* y, const double* yp)>;

  struct Outcome {
    bool exact = false;           // false: the row keeps the interpolated values
    int nonfinite_equation = -1;  // a residual that is NaN or infinite at the row
    int iterations = 0;
  };
  /// Refines y (algebraic slots) and y' in place; the residual and Jacobian
  /// tapes must already hold the run's parameters. `weighted_floor` > 0 also
  /// accepts a correction below that fraction of the error weights
  /// (rtol·|value| + atol): what an integrator's own Newton test asks, where
  /// values that should be zero carry the rounding of large terms (an
  /// integrating host needs no more; rows need values exact to rounding).
  Outcome solve(double* y, double* yp, const Loader& load, double weighted_floor = 0.0);

  /// Drops the matrix kept from earlier rows: the next row factors its own, as
  /// the first row of a run does (a restarted run then continues identically).
  void forget();

  Tape& residual() { return residual_; }
  Tape& jacobian() { return jacobian_; }
  long factorizations() const { return factorizations_; }

 private:
  struct Factorization;
  bool factor(const double* y, const double* yp, const Loader& load);
  bool at_rounding_floor(const double* y, const double* yp) const;

  const CompiledModel& model_;
  double rtol_, atol_;
  Tape residual_, jacobian_;
  std::unique_ptr<Factorization> lu_;  // also holds the iteration's vectors (Eigen stays out of this header)
  long factorizations_ = 0;
};

}  // namespace acausal
