#pragma once

#include <fmt/format.h>

#include <vector>

#include "components/blocks/logical/pre.hpp"
#include "components/blocks/math_boolean/partial_boolean_miso.hpp"

namespace acausal::blocks {

/// The value of a multi-switch: expr_k of the first true input u_k; when none
/// is, y's previous value (use_pre_as_default) or y_default, which is also
/// pre(y) at initialization (MSL's firstTrueIndex rule).
inline Expr first_true_choice(const std::vector<Expr>& u, const std::vector<Expr>& expr, const Expr& y,
                              const Expr& use_pre_as_default, const Expr& y_default) {
  Expr value = ifelse(use_pre_as_default, ifelse(initial(), y_default, pre(y)), y_default);
  for (std::size_t k = u.size(); k-- > 0;) value = ifelse(u[k], expr[k], value);
  return value;
}

/// MSL MathBoolean.MultiSwitch: y = expr_k for the first true u_k, else its
/// previous value (use_pre_as_default) or y_default. nu and the expr values
/// (parameters expr_1 … expr_nu, false by default) are build options.
struct BooleanMultiSwitch : PartialBooleanMISO {
  Parameter y_default = parameter("y_default", 0.0, boolean_parameter("y when no input is true"));
  Parameter use_pre_as_default =
      parameter("use_pre_as_default", 1.0, boolean_parameter("keep y's previous value when no input is true"));

  explicit BooleanMultiSwitch(std::string name, int nu = 2, const std::vector<bool>& expr = {})
      : PartialBooleanMISO(std::move(name), nu) {
    if (!expr.empty() && expr.size() != static_cast<std::size_t>(nu))
      throw ModelError(fmt::format("BooleanMultiSwitch '{}': nu = {} and {} expr values; it needs one value per input",
                                   path(), nu, expr.size()));
    std::vector<Expr> inputs, values;
    for (int k = 1; k <= nu; ++k) {
      const bool value = static_cast<std::size_t>(k) <= expr.size() && expr[k - 1];
      values.push_back(parameter(fmt::format("expr_{}", k), value ? 1.0 : 0.0,
                                 boolean_parameter(fmt::format("y when u{} is the first true input", k))));
      inputs.push_back(*u[k - 1]);
    }
    equation(y == first_true_choice(inputs, values, y, use_pre_as_default, y_default));
  }
};

}  // namespace acausal::blocks
