// The values a compiled model is evaluated at: one row of a run, a trim.
#pragma once

#include <vector>

namespace acausal {

/// What one row holds: enough to evaluate the compiled model there (linearize, steady_state).
struct OperatingPoint {
  double time = 0.0;
  std::vector<double> y, yp;       // IDA's unknowns and their derivatives
  std::vector<double> frozen;      // modes, discretes, pre() values, delayed values
  std::vector<double> parameters;  // one per parameter of the model
};

}  // namespace acausal
