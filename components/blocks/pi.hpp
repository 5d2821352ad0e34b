#pragma once

#include "connectors/signal.hpp"

namespace acausal::blocks {

/// PI controller with output limits and back-calculation anti-windup:
/// y = clamp(k·e + I, yMin, yMax), e = u_s - u_m,
/// der(I) = k/Ti·e + (y - y_unlimited)/(Ni·Ti), I(t0) = I_start.
struct PI : Component {
  RealInput u_s{*this, "u_s"}, u_m{*this, "u_m"};
  RealOutput y{*this, "y"};
  Parameter k = parameter("k", 1.0, {.unit = "1", .min = 0});
  Parameter Ti = parameter("Ti", 1.0, {.unit = "s", .min = 1e-15});
  Parameter Ni = parameter("Ni", 0.9, {.unit = "1", .min = 1e-15});
  Parameter yMax = parameter("yMax", 1.0);
  Parameter yMin = parameter("yMin", -1.0);
  Parameter I_start = parameter("I_start", 0.0);
  Variable e = variable("e");
  Variable I = variable("I");
  Variable y_unlimited = variable("y_unlimited");

  explicit PI(std::string name) : Component(std::move(name)) {
    equation(e == u_s - u_m);
    equation(y_unlimited == k * e + I);
    equation(y == max(min(y_unlimited, yMax), yMin));
    equation(der(I) == k / Ti * e + (y - y_unlimited) / (Ni * Ti));
    initial_equation(I == I_start);
  }
};

}  // namespace acausal::blocks
