#pragma once

#include <fmt/format.h>

#include <memory>
#include <string>
#include <vector>

#include "connectors/signal.hpp"

namespace acausal::blocks {

/// nu Boolean inputs u1 … u_nu (MSL's u[nu]) and one Boolean output y: the
/// base of MathBoolean's gates. nu is a build option (at least 1).
struct PartialBooleanMISO : Component {
  std::vector<BooleanInput*> u;
  BooleanOutput y{*this, "y"};

  PartialBooleanMISO(std::string name, int nu) : Component(std::move(name)), u(connector_array<BooleanInput>(*this, "u", nu)) {}

  /// u1 op u2 op … op u_nu.
  template <class Op>
  Expr fold(Op op) const {
    Expr e = *u.front();
    for (std::size_t k = 1; k < u.size(); ++k) e = op(e, Expr(*u[k]));
    return e;
  }
  /// The number of true inputs.
  Expr count() const {
    return fold([](const Expr& a, const Expr& b) { return a + b; });
  }
};

}  // namespace acausal::blocks
