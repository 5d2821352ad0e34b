// Linearization of a compiled model around an operating point, from the
// symbolic Jacobians of the index-reduced DAE (no finite differences).
#pragma once

#include <complex>
#include <string>
#include <vector>

#include "solver/runtime/result.hpp"
#include "solver/runtime/simulator.hpp"

namespace acausal {

/// A dense matrix, row-major.
struct DenseMatrix {
  int rows = 0, cols = 0;
  std::vector<double> values;
  DenseMatrix() = default;
  DenseMatrix(int r, int c) : rows(r), cols(c), values(static_cast<std::size_t>(r) * c, 0.0) {}
  double& operator()(int r, int c) { return values[static_cast<std::size_t>(r) * cols + c]; }
  double operator()(int r, int c) const { return values[static_cast<std::size_t>(r) * cols + c]; }
};

/// dx/dt = A·x + B·u, y = C·x + D·u, in deviations from the operating point.
/// The states are those index reduction chose (the integrator's differential
/// unknowns); inputs are parameters (a model's inputs are parameters too).
struct LinearModel {
  DenseMatrix A, B, C, D;
  std::vector<std::string> states, inputs, outputs;
  double time = 0.0;  // of the operating point
};

/// Linearizes around the row of `run` at time t (its current mode for a hybrid model).
/// inputs: parameter names (empty: the model's inputs); outputs: variable names
/// (empty: the model's outputs, or every state when it has none).
LinearModel linearize(const Result& run, double t, std::vector<std::string> inputs = {},
                      std::vector<std::string> outputs = {});
/// Linearizes at an operating point of the compiled model (from Result::point or steady_state).
LinearModel linearize(const Simulator& sim, const OperatingPoint& point, std::vector<std::string> inputs = {},
                      std::vector<std::string> outputs = {});

/// Values of variables (any name a result has) or parameters at an operating point.
std::vector<double> values_at(const Simulator& sim, const OperatingPoint& point, const std::vector<std::string>& names);

/// What an eigenvalue is once round-off is taken out (see ModeTolerance).
enum class ModeKind {
  zero,         // |λ| within the tolerance: an integrator or a rigid-body mode (a position, a free speed)
  real,         // a real pole (a pair whose imaginary part is within the tolerance counts as real)
  oscillating,  // a complex-conjugate pair
};
const char* to_string(ModeKind kind);

/// Eigenvalues are classified against tol = max(relative·max|λ|, absolute): |λ| ≤ tol is zero,
/// |Im λ| ≤ tol is real, |Re λ| ≤ tol is Re λ = 0 (undamped, marginally stable).
struct ModeTolerance {
  double relative = 1e-9;   // of the largest |λ| of A
  double absolute = 1e-12;  // [1/s]: the floor when every eigenvalue is (nearly) zero
};

/// One eigenvalue of A with what engineers read from it (from the classified eigenvalue).
struct LinearMode {
  std::complex<double> eigenvalue;  // classified: exactly 0, real, or a pair's member with Im > 0
  ModeKind kind = ModeKind::real;
  bool unstable = false;           // Re(λ) > 0 after classification (a zero mode is not unstable)
  double natural_frequency = 0.0;  // |λ| [rad/s]
  double frequency_hz = 0.0;       // |λ|/2π
  double damping_ratio = 0.0;      // -Re(λ)/|λ|; 1 for a real stable pole, -1 for a real unstable one; NaN for a zero mode
  double time_constant = 0.0;      // -1/Re(λ) [s]; infinite for Re(λ) = 0; NaN for a zero mode
  std::complex<double> computed;   // the eigenvalue as the eigensolver returned it
  /// The states that take part most (participation factors, largest first, summing to 1 over all states).
  std::vector<std::pair<std::string, double>> dominant_states;
};

/// Eigenvalues of A with frequency, damping, time constant and the states that
/// take part (one entry per real or zero eigenvalue and per complex-conjugate pair, the one with
/// Im > 0), slowest first; zero modes first.
std::vector<LinearMode> modes(const LinearModel& linear, int dominant_states = 3, ModeTolerance tolerance = {});

}  // namespace acausal
