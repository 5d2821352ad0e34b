#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "solver/symbolic/errors.hpp"

namespace acausal::vehicle {

/// The n-point Gauss–Legendre rule on [-1, 1]: ∫f ≈ Σ weights[k]·f(nodes[k]),
/// exact for polynomials of degree 2n - 1. Nodes ascend. The soil contacts
/// use it to write their stress integrals as fixed sums inside the equations,
/// so the integrals have symbolic derivatives like any other term.
struct GaussLegendre {
  std::vector<double> nodes, weights;
};

/// Nodes by Newton's method on the Legendre polynomial P_n from Tricomi's
/// initial guesses, to rounding; weights 2 / ((1 - x²)·P_n'(x)²). n from 1 to 256.
inline GaussLegendre gauss_legendre(int n) {
  if (n < 1 || n > 256)
    throw ModelError("gauss_legendre: the number of points must be between 1 and 256, not " + std::to_string(n));
  const double pi = std::acos(-1.0);
  GaussLegendre rule{std::vector<double>(n), std::vector<double>(n)};
  // P_n(x) and P_n'(x) by the three-term recurrence.
  const auto legendre = [n](double x, double& derivative) {
    double p_previous = 1.0, p = x;
    for (int m = 2; m <= n; ++m) {
      const double next = ((2.0 * m - 1.0) * x * p - (m - 1.0) * p_previous) / m;
      p_previous = p;
      p = next;
    }
    derivative = n * (x * p - p_previous) / (x * x - 1.0);
    return p;
  };
  for (int k = 0; k < n; ++k) {
    double x = std::cos(pi * (k + 0.75) / (n + 0.5)), derivative = 0.0;
    for (int iteration = 0; iteration < 100; ++iteration) {
      const double step = legendre(x, derivative) / derivative;
      x -= step;
      if (std::fabs(step) < 1e-16) break;
    }
    legendre(x, derivative);
    // cos() gives the nodes in descending order: store them ascending.
    rule.nodes[n - 1 - k] = x;
    rule.weights[n - 1 - k] = 2.0 / ((1.0 - x * x) * derivative * derivative);
  }
  return rule;
}

}  // namespace acausal::vehicle
