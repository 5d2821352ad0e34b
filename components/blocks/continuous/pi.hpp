#pragma once

#include "components/blocks/continuous/init.hpp"
#include "connectors/signal.hpp"

namespace acausal::blocks {

/// PI controller with output limits and back-calculation anti-windup:
/// y = clamp(k·e + I, yMin, yMax), e = u_s - u_m,
/// der(I) = k/Ti·e + (y - y_unlimited)/(Ni·Ti). initType (MSL): InitialState
/// starts at I = I_start (the default), SteadyState at der(I) = 0,
/// InitialOutput at y = y_start, NoInit at I's start value.
struct PI : Component {
  RealInput u_s{*this, "u_s"}, u_m{*this, "u_m"};
  RealOutput y{*this, "y"};
  Parameter k = parameter("k", 1.0, {.unit = "1", .min = 0});
  Parameter Ti = parameter("Ti", 1.0, {.unit = "s", .min = 1e-15});
  Parameter Ni = parameter("Ni", 0.9, {.unit = "1", .min = 1e-15});
  Parameter yMax = parameter("yMax", 1.0);
  Parameter yMin = parameter("yMin", -1.0);
  Parameter initType = parameter("initType", InitialState, init_type_attributes());
  Parameter I_start = parameter("I_start", 0.0);
  Parameter y_start = parameter("y_start", 0.0);
  Variable e = variable("e");
  Variable I = variable("I");
  Variable y_unlimited = variable("y_unlimited");

  explicit PI(std::string name) : Component(std::move(name)) {
    equation(e == u_s - u_m);
    equation(y_unlimited == k * e + I);
    equation(y == max(min(y_unlimited, yMax), yMin));
    equation(der(I) == k / Ti * e + (y - y_unlimited) / (Ni * Ti));
    initial_value(I, I_start, chosen(initType, InitialState));
    initial_equation(der(I) == 0.0, chosen(initType, SteadyState));
    initial_equation(y == y_start, chosen(initType, InitialOutput));
    require(yMax >= yMin, "the output limits need yMax >= yMin");
  }
};

}  // namespace acausal::blocks
