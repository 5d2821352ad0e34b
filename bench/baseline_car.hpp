// The CAR benchmark's baseline: the launch car of bench/car_model.hpp (tanh
// tire law, library defaults) written by hand as an IDA residual with an
// analytic Jacobian in the fewest unknowns, as one would without acausal.
#pragma once

#include <array>
#include <vector>

namespace acausal::bench {

struct CarBaselineOptions {
  double torque = 300.0;  // N·m on the differential's input
  double t_end = 10.0, output_interval = 0.01, rtol = 1e-6, atol = 1e-8;
};

struct CarBaselineResult {
  double wall_seconds = 0;
  long steps = 0, residual_evals = 0, jacobian_evals = 0;
  int unknowns = 0;
  std::vector<double> time, s, v;          // body, one value per output row
  std::array<std::vector<double>, 4> omega;  // wheel_fl, wheel_fr, wheel_rl, wheel_rr
};

CarBaselineResult run_baseline_car(const CarBaselineOptions& options);

}  // namespace acausal::bench
