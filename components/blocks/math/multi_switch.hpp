#pragma once

#include <fmt/format.h>

#include <memory>
#include <vector>

#include "connectors/signal.hpp"

namespace acausal::blocks {

/// MSL Math.MultiSwitch: the Real y is expr_k of the first true Boolean input
/// u_k, else y_default. nu is a build option; expr_1 … expr_nu are parameters
/// (0 by default).
struct MultiSwitch : Component {
  std::vector<BooleanInput*> u;
  RealOutput y{*this, "y"};
  Parameter y_default = parameter("y_default", 0.0, {.description = "y when no input is true"});

  explicit MultiSwitch(std::string name, int nu = 2, const std::vector<double>& expr = {}) : Component(std::move(name)) {
    if (nu < 1 || (!expr.empty() && expr.size() != static_cast<std::size_t>(nu)))
      throw ModelError(fmt::format("MultiSwitch '{}': nu = {} and {} expr values; it needs nu >= 1 and one value per "
                                   "input", path(), nu, expr.size()));
    u = connector_array<BooleanInput>(*this, "u", nu);
    Expr value = y_default;
    for (int k = nu; k >= 1; --k)
      value = ifelse(*u[k - 1], parameter(fmt::format("expr_{}", k), expr.empty() ? 0.0 : expr[k - 1],
                                          {.description = fmt::format("y when u{} is the first true input", k)}),
                     value);
    equation(y == value);
  }
};

}  // namespace acausal::blocks
