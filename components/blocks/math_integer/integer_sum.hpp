#pragma once

#include "components/blocks/math_integer/partial_integer_miso.hpp"

namespace acausal::blocks {

/// MSL MathInteger.Sum: y = k_1·u1 + … + k_nu·u_nu, Integer gains k_i (1 by default).
struct IntegerSum : PartialIntegerMISO {
  explicit IntegerSum(std::string name, int nu = 2) : PartialIntegerMISO(std::move(name), nu) {
    Expr sum(0.0);
    for (int k = 1; k <= nu; ++k)
      sum = sum + integer_parameter(*this, fmt::format("k_{}", k), 1.0, fmt::format("gain of u{}", k)) * *u[k - 1];
    equation(y == sum);
  }
};

/// MSL MathInteger.Product: y = u1 · u2 · … · u_nu.
struct IntegerProduct : PartialIntegerMISO {
  explicit IntegerProduct(std::string name, int nu = 2) : PartialIntegerMISO(std::move(name), nu) {
    Expr product = *u.front();
    for (std::size_t k = 1; k < u.size(); ++k) product = product * *u[k];
    equation(y == product);
  }
};

}  // namespace acausal::blocks
