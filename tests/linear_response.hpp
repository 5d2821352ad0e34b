// The frequency response of a linearized model, for tests that check one.
#pragma once

#include <acausal/acausal.hpp>

#include <cmath>
#include <complex>
#include <utility>
#include <vector>

namespace acausal::test {

// G(s) = C (sI - A)^-1 B + D for one input and one output.
inline std::complex<double> transfer(const LinearModel& lin, std::complex<double> s) {
  const int n = lin.A.rows;
  std::vector<std::complex<double>> M(static_cast<std::size_t>(n * n)), x(static_cast<std::size_t>(n));
  for (int r = 0; r < n; ++r) {
    for (int c = 0; c < n; ++c) M[r * n + c] = (r == c ? s : 0.0) - lin.A(r, c);
    x[r] = lin.B(r, 0);
  }
  for (int k = 0; k < n; ++k) {  // Gaussian elimination with partial pivoting
    int pivot = k;
    for (int r = k + 1; r < n; ++r)
      if (std::abs(M[r * n + k]) > std::abs(M[pivot * n + k])) pivot = r;
    for (int c = 0; c < n; ++c) std::swap(M[k * n + c], M[pivot * n + c]);
    std::swap(x[k], x[pivot]);
    for (int r = k + 1; r < n; ++r) {
      const auto f = M[r * n + k] / M[k * n + k];
      for (int c = k; c < n; ++c) M[r * n + c] -= f * M[k * n + c];
      x[r] -= f * x[k];
    }
  }
  for (int k = n - 1; k >= 0; --k) {
    for (int c = k + 1; c < n; ++c) x[k] -= M[k * n + c] * x[c];
    x[k] /= M[k * n + k];
  }
  std::complex<double> y = lin.D(0, 0);
  for (int k = 0; k < n; ++k) y += lin.C(0, k) * x[k];
  return y;
}

}  // namespace acausal::test
