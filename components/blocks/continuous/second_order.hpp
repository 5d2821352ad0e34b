#pragma once

#include "components/blocks/continuous/init.hpp"
#include "connectors/signal.hpp"

namespace acausal::blocks {

/// Second-order system: der(der(y)) = w²·(k·u - y) - 2·D·w·der(y), yd = der(y).
/// initType (MSL): InitialState starts at y = y_start, yd = yd_start (the
/// default, at rest); InitialOutput at y = y_start, der(y) = 0; SteadyState
/// at der(y) = der(yd) = 0; NoInit at the start values.
struct SecondOrder : Component {
  RealInput u{*this, "u"};
  RealOutput y{*this, "y"};
  Parameter k = parameter("k", 1.0);
  Parameter w = parameter("w", 1.0, {.unit = "rad/s", .min = 0});
  Parameter D = parameter("D", 1.0, {.unit = "1", .min = 0});
  Parameter initType = parameter("initType", InitialState, init_type_attributes());
  Parameter y_start = parameter("y_start", 0.0);
  Parameter yd_start = parameter("yd_start", 0.0);
  Variable yd = variable("yd");

  explicit SecondOrder(std::string name) : Component(std::move(name)) {
    equation(yd == der(y));
    equation(der(yd) == w * (w * (k * u - y) - 2.0 * D * yd));
    Expr state = chosen(initType, InitialState), output = chosen(initType, InitialOutput);
    initial_value(y, y_start, state || output);
    initial_value(yd, yd_start, state);
    initial_equation(der(y) == 0.0, output || chosen(initType, SteadyState));
    initial_equation(der(yd) == 0.0, chosen(initType, SteadyState));
  }
};

}  // namespace acausal::blocks
