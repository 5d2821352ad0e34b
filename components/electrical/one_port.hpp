#pragma once

#include "components/electrical/two_pin.hpp"

namespace acausal::electrical {

/// Base of two-pin elements that pass one current through (MSL
/// Interfaces.OnePort): i enters at p and leaves at n, so the power taken
/// from the circuit is v·i.
struct OnePort : TwoPin {
  Variable i = variable("i", {.unit = "A", .description = "current from p through the element to n"});

  explicit OnePort(std::string name) : TwoPin(std::move(name)) {
    equation(0.0 == p.i + n.i);
    equation(i == p.i);
  }
};

}  // namespace acausal::electrical
