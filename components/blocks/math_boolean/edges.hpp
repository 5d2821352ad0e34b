#pragma once

#include "components/blocks/logical/pre.hpp"

namespace acausal::blocks {

/// One Boolean input u, one Boolean output y and pre(u)'s value at
/// initialization (pre_u_start): the base of the edge detectors.
struct PartialEdge : Component {
  BooleanInput u{*this, "u"};
  BooleanOutput y{*this, "y"};
  Parameter pre_u_start = parameter("pre_u_start", 0.0, boolean_parameter("pre(u) at initialization"));
  using Component::Component;
  /// pre(u), pre_u_start at initialization.
  Expr pre_u() const { return ifelse(initial(), pre_u_start, pre(u)); }
};

/// MSL MathBoolean.RisingEdge: y = edge(u), true at the instant u becomes true.
struct RisingEdge : PartialEdge {
  explicit RisingEdge(std::string name) : PartialEdge(std::move(name)) { equation(y == (u && !pre_u())); }
};

/// MSL MathBoolean.FallingEdge: y = edge(not u), true at the instant u becomes false.
struct FallingEdge : PartialEdge {
  explicit FallingEdge(std::string name) : PartialEdge(std::move(name)) { equation(y == (!u && pre_u())); }
};

/// MSL MathBoolean.ChangingEdge: y = change(u), true at the instants u changes.
struct ChangingEdge : PartialEdge {
  explicit ChangingEdge(std::string name) : PartialEdge(std::move(name)) { equation(y == !equal(u, pre_u())); }
};

}  // namespace acausal::blocks
