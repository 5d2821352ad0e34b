#pragma once

#include <fmt/format.h>

#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "components/blocks/continuous/init.hpp"
#include "connectors/signal.hpp"

namespace acausal::blocks {

/// MSL Blocks.Continuous.CriticalDamping: n first-order lags in series,
/// y = u/(s/w + 1)^n with w = 2π·f/alpha; der(x_1) = (u - x_1)·w,
/// der(x_i) = (x_(i-1) - x_i)·w, y = x_n. normalized (the default) sets
/// alpha = √(2^(1/n) - 1), so that |H(j·2π·f)| = 1/√2 for every n; otherwise
/// alpha = 1 (f is then the corner of each lag). A step response has no
/// overshoot. The order n is MSL's structural parameter, a constructor
/// argument here (2 from Python and by default); the states are x_1 … x_n,
/// x_start(i) is x_start_i. initType (MSL, default NoInit): InitialState
/// starts at x_i = x_start_i, SteadyState at der(x_i) = 0, InitialOutput at
/// y = y_start with der(x_i) = 0 for i < n, NoInit at the states' start values.
struct CriticalDamping : Component {
  RealInput u{*this, "u"};
  RealOutput y{*this, "y"};
  Parameter f = parameter("f", 1.0, {.unit = "Hz", .min = 0, .description = "cut-off frequency"});
  Parameter normalized = parameter(
      "normalized", 1, {.description = "true: the amplitude at f is 1/sqrt(2) (3 dB)", .choices = {"false", "true"}});
  Parameter initType = parameter("initType", NoInit, init_type_attributes());
  Parameter y_start = parameter("y_start", 0.0, {.description = "initial output (initType = InitialOutput)"});
  std::vector<Parameter> x_start;
  std::vector<Variable> x;

  explicit CriticalDamping(std::string name, int n = 2) : Component(std::move(name)) {
    if (n < 1) throw ModelError(fmt::format("CriticalDamping '{}': n = {}; the order must be at least 1", path(), n));
    for (int i = 1; i <= n; ++i) {
      x_start.push_back(parameter(fmt::format("x_start_{}", i), 0.0,
                                  {.description = fmt::format("initial value of x_{} (initType = InitialState)", i)}));
      x.push_back(variable(fmt::format("x_{}", i), {.description = fmt::format("state of lag {} of {}", i, n)}));
    }
    const double alpha_normalized = std::sqrt(std::pow(2.0, 1.0 / n) - 1.0);
    const Expr w = 2.0 * std::numbers::pi * f / ifelse(chosen(normalized, 1), Expr(alpha_normalized), Expr(1.0));
    for (int i = 0; i < n; ++i) equation(der(x[i]) == ((i == 0 ? Expr(u) : Expr(x[i - 1])) - x[i]) * w);
    equation(y == x.back());
    const Expr state = chosen(initType, InitialState), output = chosen(initType, InitialOutput);
    for (int i = 0; i < n; ++i) {
      initial_value(x[i], x_start[i], state);
      initial_equation(der(x[i]) == 0.0, chosen(initType, SteadyState) || (output && Expr(i + 1 < n ? 1.0 : 0.0)));
    }
    initial_equation(y == y_start, output);
  }
};

}  // namespace acausal::blocks
