#pragma once

#include <vector>

#include "components/blocks/logical/pre.hpp"
#include "components/blocks/math_boolean/boolean_multi_switch.hpp"
#include "components/blocks/math_integer/partial_integer_miso.hpp"

namespace acausal::blocks {

/// MSL MathInteger.MultiSwitch: y = expr_k for the first true Boolean input
/// u_k, else y's previous value (use_pre_as_default) or y_default. nu and the
/// Integer expr values (parameters expr_1 … expr_nu, 0 by default) are build
/// options.
struct IntegerMultiSwitch : Component {
  std::vector<BooleanInput*> u;
  IntegerOutput y{*this, "y"};
  Parameter y_default = integer_parameter(*this, "y_default", 0.0, "y when no input is true");
  Parameter use_pre_as_default =
      parameter("use_pre_as_default", 1.0, boolean_parameter("keep y's previous value when no input is true"));

  explicit IntegerMultiSwitch(std::string name, int nu = 2, const std::vector<int>& expr = {})
      : Component(std::move(name)) {
    if (nu < 1 || (!expr.empty() && expr.size() != static_cast<std::size_t>(nu)))
      throw ModelError(fmt::format("IntegerMultiSwitch '{}': nu = {} and {} expr values; it needs nu >= 1 and one "
                                   "value per input", path(), nu, expr.size()));
    std::vector<Expr> inputs, values;
    u = connector_array<BooleanInput>(*this, "u", nu);
    for (int k = 1; k <= nu; ++k) {
      inputs.push_back(*u[k - 1]);
      values.push_back(integer_parameter(*this, fmt::format("expr_{}", k), expr.empty() ? 0.0 : expr[k - 1],
                                         fmt::format("y when u{} is the first true input", k)));
    }
    equation(y == first_true_choice(inputs, values, y, use_pre_as_default, y_default));
  }
};

}  // namespace acausal::blocks
