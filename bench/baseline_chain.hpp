// The benchmark baseline: the chain of bench/chain_model.hpp written by hand
// as an IDA residual with an analytic Jacobian, as one would without acausal.
#pragma once

#include <vector>

namespace acausal::bench {

struct BaselineOptions {
  int n_cells = 100;
  double m = 1.0, c = 1000.0, d = 10.0, F = 100.0;
  double t_end = 10.0, output_interval = 0.01, rtol = 1e-6, atol = 1e-8;
  bool sparse = true;
};

struct BaselineResult {
  double wall_seconds = 0;
  long steps = 0, residual_evals = 0, jacobian_evals = 0;
  std::vector<double> time;
  std::vector<double> last_position;  // s_N at each output time
};

BaselineResult run_baseline_chain(const BaselineOptions& options);

}  // namespace acausal::bench
