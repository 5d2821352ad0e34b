#pragma once

#include <fmt/format.h>

#include <memory>
#include <string>
#include <vector>

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

/// Boolean and Integer signals (MSL Blocks.Interfaces): discrete variables,
/// which change only at events. 0 and 1 are false and true. An input takes its
/// value from the output it is connected to; leaving one unconnected is a
/// ModelError naming it.
template <DiscreteKind kind, Causality direction>
struct DiscreteSignal : Connector, Discrete {
  explicit DiscreteSignal(Component& owner, std::string name, DiscreteAttributes attributes = {})
      : Connector(owner, std::move(name), kind == DiscreteKind::boolean ? "signal.Boolean" : "signal.Integer") {
    attributes.kind = kind;
    static_cast<Discrete&>(*this) = discrete_signal(direction, "", std::move(attributes));
  }
};
using BooleanInput = DiscreteSignal<DiscreteKind::boolean, Causality::input>;
using BooleanOutput = DiscreteSignal<DiscreteKind::boolean, Causality::output>;
using IntegerInput = DiscreteSignal<DiscreteKind::integer, Causality::input>;
using IntegerOutput = DiscreteSignal<DiscreteKind::integer, Causality::output>;

/// n connectors named prefix1 … prefix<n> (MSL's vector connectors u[n]),
/// owned by `owner`; n is a build option, at least 1.
template <class C>
std::vector<C*> connector_array(Component& owner, const std::string& prefix, int n) {
  if (n < 1)
    throw ModelError(fmt::format("{} '{}': {} inputs or outputs '{}', it needs at least one", owner.type_name(),
                                 owner.path(), n, prefix));
  std::vector<C*> connectors;
  for (int k = 1; k <= n; ++k)
    connectors.push_back(
        &static_cast<C&>(owner.keep_connector(std::make_unique<C>(owner, fmt::format("{}{}", prefix, k)))));
  return connectors;
}

}  // namespace acausal
