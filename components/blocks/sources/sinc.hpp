#pragma once

#include <numbers>

#include "connectors/signal.hpp"

namespace acausal::blocks {

/// MSL Blocks.Sources.Sinc: y = offset + amplitude·sin(x)/x from startTime
/// on, x = 2π·f·(time - startTime), offset before; 1 in place of sin(x)/x
/// within eps = 1e-15 s of startTime (MSL's noEvent guard against 0/0).
struct Sinc : Component {
  RealOutput y{*this, "y"};
  Parameter amplitude = parameter("amplitude", 1.0, {.description = "amplitude of the sine wave"});
  Parameter f = parameter("f", 1.0, {.unit = "Hz", .min = 0, .description = "frequency of the sine wave"});
  Parameter offset = parameter("offset", 0.0, {.description = "offset of the output"});
  Parameter startTime = parameter("startTime", 0.0, {.unit = "s", .description = "output = offset before"});

  explicit Sinc(std::string name) : Component(std::move(name)) {
    const Expr t = time_symbol();
    const double eps = 1e-15;  // Modelica.Constants.eps
    const Expr x = 2.0 * std::numbers::pi * f * (t - startTime);
    const Expr near_start = t - startTime < eps;
    // The divisor is x only where it is used: no 0/0 in the branch not taken (nor in its derivatives).
    const Expr divisor = ifelse(near_start, 1.0, x);
    equation(y == offset + ifelse(t < startTime, 0.0, amplitude * no_event(ifelse(near_start, 1.0, sin(x) / divisor))));
  }
};

}  // namespace acausal::blocks
