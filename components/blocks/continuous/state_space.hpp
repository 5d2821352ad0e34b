#pragma once

#include <fmt/format.h>

#include <memory>
#include <string>
#include <vector>

#include "components/blocks/continuous/init.hpp"
#include "connectors/signal.hpp"

namespace acausal::blocks {

/// MSL Blocks.Continuous.StateSpace: der(x) = A·x + B·u, y = C·x + D·u with
/// nx states, nu inputs u1 … u_nu and ny outputs y1 … y_ny (MSL's u[nu],
/// y[ny]). The library has no matrix parameters: the sizes are structural and
/// come from the matrices given to the constructor, whose entries are the
/// defaults of the parameters A_i_j, B_i_j, C_i_j, D_i_j (1-based), each
/// changeable after compile() (from Python only MSL's defaults:
/// A = [1, 0; 0, 1], B = [1; 1], C = [1, 1], D = 0). An empty D is zeros.
/// States x_1 … x_nx. initType (MSL, default NoInit): InitialState starts at
/// x_i = x_start_i, SteadyState at der(x) = 0, NoInit at the states' start
/// values; MSL's InitialOutput (a least-squares x for y = y_start) is not
/// offered.
struct StateSpace : Component {
  using Matrix = std::vector<std::vector<double>>;
  Parameter initType =
      parameter("initType", NoInit,
                {.description = "how the block starts (NoInit, SteadyState, InitialState)",
                 .choices = {"NoInit", "SteadyState", "InitialState"}});
  std::vector<RealInput*> u;
  std::vector<RealOutput*> y;
  std::vector<std::vector<Parameter>> A, B, C, D;
  std::vector<Parameter> x_start;
  std::vector<Variable> x;

  explicit StateSpace(std::string name, const Matrix& A_values = {{1.0, 0.0}, {0.0, 1.0}},
                      const Matrix& B_values = {{1.0}, {1.0}}, const Matrix& C_values = {{1.0, 1.0}},
                      const Matrix& D_values = {})
      : Component(std::move(name)) {
    const std::size_t nx = A_values.size();
    const std::size_t nu = B_values.empty() ? 0 : B_values.front().size();
    const std::size_t ny = C_values.size();
    auto refuse = [&](const std::string& what) {
      throw ModelError(fmt::format("StateSpace '{}': {} (A is nx×nx, B nx×nu, C ny×nx, D ny×nu)", path(), what));
    };
    if (nu == 0 || ny == 0) refuse("it needs at least one input (a column of B) and one output (a row of C)");
    if (B_values.size() != nx) refuse(fmt::format("B has {} rows and A {}", B_values.size(), nx));
    auto check = [&](const Matrix& M, const char* label, std::size_t rows, std::size_t cols) {
      if (M.size() != rows) refuse(fmt::format("{} has {} rows, it needs {}", label, M.size(), rows));
      for (std::size_t i = 0; i < M.size(); ++i)
        if (M[i].size() != cols) refuse(fmt::format("row {} of {} has {} entries, it needs {}", i + 1, label, M[i].size(), cols));
    };
    check(A_values, "A", nx, nx);
    check(B_values, "B", nx, nu);
    check(C_values, "C", ny, nx);
    const Matrix D_used = D_values.empty() ? Matrix(ny, std::vector<double>(nu, 0.0)) : D_values;
    check(D_used, "D", ny, nu);
    u = connector_array<RealInput>(*this, "u", static_cast<int>(nu));
    y = connector_array<RealOutput>(*this, "y", static_cast<int>(ny));
    auto declare = [&](const Matrix& M, const char* label) {
      std::vector<std::vector<Parameter>> P(M.size());
      for (std::size_t i = 0; i < M.size(); ++i)
        for (std::size_t j = 0; j < M[i].size(); ++j)
          P[i].push_back(parameter(fmt::format("{}_{}_{}", label, i + 1, j + 1), M[i][j]));
      return P;
    };
    A = declare(A_values, "A");
    B = declare(B_values, "B");
    C = declare(C_values, "C");
    D = declare(D_used, "D");
    for (std::size_t i = 1; i <= nx; ++i) {
      x_start.push_back(parameter(fmt::format("x_start_{}", i), 0.0,
                                  {.description = fmt::format("initial value of x_{} (initType = InitialState)", i)}));
      x.push_back(variable(fmt::format("x_{}", i), {.description = "state"}));
    }
    for (std::size_t i = 0; i < nx; ++i) {
      Expr rate = 0.0;
      for (std::size_t j = 0; j < nx; ++j) rate = rate + A[i][j] * x[j];
      for (std::size_t j = 0; j < nu; ++j) rate = rate + B[i][j] * *u[j];
      equation(der(x[i]) == rate);
      initial_value(x[i], x_start[i], chosen(initType, InitialState));
      initial_equation(der(x[i]) == 0.0, chosen(initType, SteadyState));
    }
    for (std::size_t i = 0; i < ny; ++i) {
      Expr value = 0.0;
      for (std::size_t j = 0; j < nx; ++j) value = value + C[i][j] * x[j];
      for (std::size_t j = 0; j < nu; ++j) value = value + D[i][j] * *u[j];
      equation(*y[i] == value);
    }
  }
};

}  // namespace acausal::blocks
