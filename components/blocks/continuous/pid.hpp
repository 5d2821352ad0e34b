#pragma once

#include "components/blocks/continuous/init.hpp"
#include "connectors/signal.hpp"

namespace acausal::blocks {

/// PID controller with output limits, back-calculation anti-windup and a
/// first-order filter on the derivative (time constant Td/Nd):
/// y = clamp(k·e + I + D, yMin, yMax), e = u_s - u_m,
/// der(I) = k/Ti·e + (y - y_unlimited)/(Ni·Ti), D = k·Nd·(e - x_d), der(x_d) = (e - x_d)·Nd/Td.
/// initType (MSL): InitialState starts at I = I_start (the default),
/// SteadyState at der(I) = 0, InitialOutput at y = y_start; except with
/// NoInit the derivative filter starts steady (x_d = e: no kick at t0).
struct PID : Component {
  RealInput u_s{*this, "u_s"}, u_m{*this, "u_m"};
  RealOutput y{*this, "y"};
  Parameter k = parameter("k", 1.0, {.unit = "1", .min = 0});
  Parameter Ti = parameter("Ti", 1.0, {.unit = "s", .min = 1e-15});
  Parameter Td = parameter("Td", 0.1, {.unit = "s", .min = 1e-15});
  Parameter Nd = parameter("Nd", 10.0, {.unit = "1", .min = 1e-15});
  Parameter Ni = parameter("Ni", 0.9, {.unit = "1", .min = 1e-15});
  Parameter yMax = parameter("yMax", 1.0);
  Parameter yMin = parameter("yMin", -1.0);
  Parameter initType = parameter("initType", InitialState, init_type_attributes());
  Parameter I_start = parameter("I_start", 0.0);
  Parameter y_start = parameter("y_start", 0.0);
  Variable e = variable("e");
  Variable I = variable("I");
  Variable D = variable("D");
  Variable x_d = variable("x_d");
  Variable y_unlimited = variable("y_unlimited");

  explicit PID(std::string name) : Component(std::move(name)) {
    equation(e == u_s - u_m);
    equation(D == k * Nd * (e - x_d));
    equation(der(x_d) == (e - x_d) * Nd / Td);
    equation(y_unlimited == k * e + I + D);
    equation(y == max(min(y_unlimited, yMax), yMin));
    equation(der(I) == k / Ti * e + (y - y_unlimited) / (Ni * Ti));
    initial_value(I, I_start, chosen(initType, InitialState));
    initial_equation(der(I) == 0.0, chosen(initType, SteadyState));
    initial_equation(y == y_start, chosen(initType, InitialOutput));
    initial_equation(der(x_d) == 0.0, !chosen(initType, NoInit));
    require(yMax >= yMin, "the output limits need yMax >= yMin");
  }
};

}  // namespace acausal::blocks
