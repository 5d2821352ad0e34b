#pragma once

#include <fmt/format.h>

#include <cmath>
#include <string>
#include <vector>

#include "components/blocks/continuous/init.hpp"
#include "connectors/signal.hpp"

namespace acausal::blocks {

/// MSL Blocks.Continuous.TransferFunction: y = (b_1·s^(nb-1) + … + b_nb)/(a_1·s^(na-1) + … + a_na)·u
/// in controller canonical form, with MSL's scaled states: x_scaled_k = a_end·x_k,
/// a_end = a_na (1 if a_na <= 100·eps·|a|),
///   der(x_scaled_1) = (-Σ a_(k+1)·x_scaled_k + a_end·u)/a_1, der(x_scaled_k) = x_scaled_(k-1),
///   y = Σ (bb_(k+1) - d·a_(k+1))·x_scaled_k/a_end + d·u,
/// bb = b padded with leading zeros to na, d = bb_1/a_1 (the feedthrough).
/// The sizes of b and a are structural (MSL's vectors): the constructor takes
/// them as vectors whose values are the defaults of the parameters b_1 … b_nb,
/// a_1 … a_na, which change after compile() like any other (from Python only
/// the default sizes, MSL's b = {1}, a = {1}: y = u). nb <= na (proper).
/// States x_1 … x_(na-1) (MSL's x, unscaled). initType (MSL, default NoInit):
/// InitialState starts at x_k = x_start_k, SteadyState at der(x) = 0,
/// InitialOutput at y = y_start with der(x_scaled_k) = 0 for k >= 2.
struct TransferFunction : Component {
  RealInput u{*this, "u"};
  RealOutput y{*this, "y"};
  std::vector<Parameter> b, a, x_start;
  Parameter initType = parameter("initType", NoInit, init_type_attributes());
  Parameter y_start = parameter("y_start", 0.0, {.description = "initial output (initType = InitialOutput)"});
  std::vector<Variable> x, x_scaled;

  explicit TransferFunction(std::string name, const std::vector<double>& b_values = {1.0},
                            const std::vector<double>& a_values = {1.0})
      : Component(std::move(name)) {
    const int nb = static_cast<int>(b_values.size()), na = static_cast<int>(a_values.size()), nx = na - 1;
    if (na < 1 || nb < 1)
      throw ModelError(fmt::format("TransferFunction '{}': b and a need at least one coefficient each", path()));
    if (nb > na)
      throw ModelError(fmt::format("TransferFunction '{}': {} numerator and {} denominator coefficients; the "
                                   "transfer function is not proper (b may not have more than a)",
                                   path(), nb, na));
    for (int k = 1; k <= nb; ++k)
      b.push_back(parameter(fmt::format("b_{}", k), b_values[k - 1],
                            {.description = fmt::format("numerator coefficient of s^{}", nb - k)}));
    for (int k = 1; k <= na; ++k)
      a.push_back(parameter(fmt::format("a_{}", k), a_values[k - 1],
                            {.description = fmt::format("denominator coefficient of s^{}", na - k)}));
    for (int k = 1; k <= nx; ++k) {
      x_start.push_back(parameter(fmt::format("x_start_{}", k), 0.0,
                                  {.description = fmt::format("initial value of x_{} (initType = InitialState)", k)}));
      x.push_back(variable(fmt::format("x_{}", k), {.description = "state of the controller canonical form"}));
      x_scaled.push_back(variable(fmt::format("x_scaled_{}", k), {.description = fmt::format("a_end·x_{}", k)}));
    }
    std::vector<Expr> bb(static_cast<std::size_t>(na), Expr(0.0));
    for (int k = 0; k < nb; ++k) bb[na - nb + k] = b[k];
    const Expr d = bb[0] / a[0];
    if (nx == 0) {
      equation(y == d * u);
      return;
    }
    Expr norm2 = 0.0;
    for (const Parameter& ak : a) norm2 = norm2 + ak * ak;
    const double eps = 1e-15;  // Modelica.Constants.eps
    const Expr a_end = ifelse(a.back() > 100.0 * eps * sqrt(norm2), Expr(a.back()), Expr(1.0));
    Expr feedback = 0.0, output = 0.0;
    for (int k = 0; k < nx; ++k) {
      feedback = feedback + a[k + 1] * x_scaled[k];
      output = output + (bb[k + 1] - d * a[k + 1]) * x_scaled[k];
    }
    equation(der(x_scaled[0]) == (-feedback + a_end * u) / a[0]);
    for (int k = 1; k < nx; ++k) equation(der(x_scaled[k]) == x_scaled[k - 1]);
    equation(y == output / a_end + d * u);
    for (int k = 0; k < nx; ++k) equation(x[k] == x_scaled[k] / a_end);
    const Expr steady = chosen(initType, SteadyState), output_given = chosen(initType, InitialOutput);
    for (int k = 0; k < nx; ++k) {
      initial_value(x_scaled[k], x_start[k] * a_end, chosen(initType, InitialState));
      initial_equation(der(x_scaled[k]) == 0.0, steady || (output_given && Expr(k >= 1 ? 1.0 : 0.0)));
    }
    initial_equation(y == y_start, output_given);
  }
};

}  // namespace acausal::blocks
