#pragma once

#include "components/blocks/continuous/init.hpp"
#include "connectors/signal.hpp"

namespace acausal::blocks {

/// Integrator: der(y) = k·u. initType (MSL): InitialState or InitialOutput
/// start at y = y_start (the default), SteadyState at der(y) = 0 (u = 0),
/// NoInit at y's start value.
struct Integrator : Component {
  RealInput u{*this, "u"};
  RealOutput y{*this, "y"};
  Parameter k = parameter("k", 1.0);
  Parameter initType = parameter("initType", InitialState, init_type_attributes());
  Parameter y_start = parameter("y_start", 0.0);

  explicit Integrator(std::string name) : Component(std::move(name)) {
    equation(der(y) == k * u);
    initial_value(y, y_start, chosen(initType, InitialState) || chosen(initType, InitialOutput));
    initial_equation(der(y) == 0.0, chosen(initType, SteadyState));
  }
};

}  // namespace acausal::blocks
