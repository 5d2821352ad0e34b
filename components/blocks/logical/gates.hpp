#pragma once

#include "connectors/signal.hpp"

namespace acausal::blocks {

/// Two Boolean inputs u1, u2 and one Boolean output y (MSL
/// Interfaces.partialBooleanSI2SO): the base of the two-input gates.
struct PartialBooleanSI2SO : Component {
  BooleanInput u1{*this, "u1"}, u2{*this, "u2"};
  BooleanOutput y{*this, "y"};
  using Component::Component;
};

/// MSL Logical.And: y = u1 and u2.
struct And : PartialBooleanSI2SO {
  explicit And(std::string name) : PartialBooleanSI2SO(std::move(name)) { equation(y == (u1 && u2)); }
};

/// MSL Logical.Or: y = u1 or u2.
struct Or : PartialBooleanSI2SO {
  explicit Or(std::string name) : PartialBooleanSI2SO(std::move(name)) { equation(y == (u1 || u2)); }
};

/// MSL Logical.Xor: y = u1 xor u2 (true when exactly one is true).
struct Xor : PartialBooleanSI2SO {
  explicit Xor(std::string name) : PartialBooleanSI2SO(std::move(name)) { equation(y == !equal(u1, u2)); }
};

/// MSL Logical.Nand: y = not (u1 and u2).
struct Nand : PartialBooleanSI2SO {
  explicit Nand(std::string name) : PartialBooleanSI2SO(std::move(name)) { equation(y == !(u1 && u2)); }
};

/// MSL Logical.Nor: y = not (u1 or u2).
struct Nor : PartialBooleanSI2SO {
  explicit Nor(std::string name) : PartialBooleanSI2SO(std::move(name)) { equation(y == !(u1 || u2)); }
};

/// MSL Logical.Not (and MathBoolean.Not): y = not u.
struct Not : Component {
  BooleanInput u{*this, "u"};
  BooleanOutput y{*this, "y"};
  explicit Not(std::string name) : Component(std::move(name)) { equation(y == !u); }
};

}  // namespace acausal::blocks
