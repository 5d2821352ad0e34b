#pragma once

#include "solver/modeling/component.hpp"

namespace acausal {

/// A real-valued signal input; the connector is itself the value in equations.
struct RealInput : Connector, Expr {
  explicit RealInput(Component& owner, std::string name, VariableAttributes attributes = {})
      : Connector(owner, std::move(name), "signal.Real") {
    static_cast<Expr&>(*this) = signal(Causality::input, "", std::move(attributes));
  }
};

/// A real-valued signal output; exactly one per connection set drives the inputs.
struct RealOutput : Connector, Expr {
  explicit RealOutput(Component& owner, std::string name, VariableAttributes attributes = {})
      : Connector(owner, std::move(name), "signal.Real") {
    static_cast<Expr&>(*this) = signal(Causality::output, "", std::move(attributes));
  }
};

}  // namespace acausal
