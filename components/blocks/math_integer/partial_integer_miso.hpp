#pragma once

#include <fmt/format.h>

#include <memory>
#include <string>
#include <vector>

#include "connectors/signal.hpp"

namespace acausal::blocks {

/// nu Integer inputs u1 … u_nu (MSL's u[nu]) and one Integer output y: the
/// base of MathInteger's blocks. nu is a build option (at least 1).
struct PartialIntegerMISO : Component {
  std::vector<IntegerInput*> u;
  IntegerOutput y{*this, "y"};

  PartialIntegerMISO(std::string name, int nu) : Component(std::move(name)), u(connector_array<IntegerInput>(*this, "u", nu)) {}
};

/// An Integer parameter: a number with no fractional part, checked at every run.
inline Parameter integer_parameter(Component& c, const std::string& name, double value, std::string description) {
  Parameter p = c.parameter(name, value, {.description = std::move(description)});
  c.require(equal(p, floor(p)), name + " is a whole number (an Integer)");
  return p;
}

}  // namespace acausal::blocks
