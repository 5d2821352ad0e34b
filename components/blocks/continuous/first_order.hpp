#pragma once

#include "components/blocks/continuous/init.hpp"
#include "connectors/signal.hpp"

namespace acausal::blocks {

/// First-order lag: T·der(y) = k·u - y. initType (MSL): InitialState or
/// InitialOutput start at y = y_start (the default), SteadyState at
/// der(y) = 0, NoInit at y's start value.
struct FirstOrder : Component {
  RealInput u{*this, "u"};
  RealOutput y{*this, "y"};
  Parameter k = parameter("k", 1.0);
  Parameter T = parameter("T", 1.0, {.unit = "s", .min = 1e-15});
  Parameter initType = parameter("initType", InitialState, init_type_attributes());
  Parameter y_start = parameter("y_start", 0.0);

  explicit FirstOrder(std::string name) : Component(std::move(name)) {
    equation(T * der(y) == k * u - y);
    initial_value(y, y_start, chosen(initType, InitialState) || chosen(initType, InitialOutput));
    initial_equation(der(y) == 0.0, chosen(initType, SteadyState));
  }
};

}  // namespace acausal::blocks
