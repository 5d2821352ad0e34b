#pragma once

#include "components/blocks/math_boolean/partial_boolean_miso.hpp"

namespace acausal::blocks {

// MSL MathBoolean's gates over nu inputs (MultiAnd is MathBoolean.And, …);
// MathBoolean.Not is blocks::Not.

/// y = u1 and u2 and … and u_nu.
struct MultiAnd : PartialBooleanMISO {
  explicit MultiAnd(std::string name, int nu = 2) : PartialBooleanMISO(std::move(name), nu) {
    equation(y == fold([](const Expr& a, const Expr& b) { return a && b; }));
  }
};

/// y = u1 or u2 or … or u_nu.
struct MultiOr : PartialBooleanMISO {
  explicit MultiOr(std::string name, int nu = 2) : PartialBooleanMISO(std::move(name), nu) {
    equation(y == fold([](const Expr& a, const Expr& b) { return a || b; }));
  }
};

/// y is true when exactly one input is true (MSL's oneTrue(u)).
struct MultiXor : PartialBooleanMISO {
  explicit MultiXor(std::string name, int nu = 2) : PartialBooleanMISO(std::move(name), nu) {
    equation(y == equal(count(), 1.0));
  }
};

/// y = not (u1 and u2 and … and u_nu).
struct MultiNand : PartialBooleanMISO {
  explicit MultiNand(std::string name, int nu = 2) : PartialBooleanMISO(std::move(name), nu) {
    equation(y == !fold([](const Expr& a, const Expr& b) { return a && b; }));
  }
};

/// y = not (u1 or u2 or … or u_nu).
struct MultiNor : PartialBooleanMISO {
  explicit MultiNor(std::string name, int nu = 2) : PartialBooleanMISO(std::move(name), nu) {
    equation(y == !fold([](const Expr& a, const Expr& b) { return a || b; }));
  }
};

}  // namespace acausal::blocks
