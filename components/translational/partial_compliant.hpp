#pragma once

#include "connectors/translational.hpp"

namespace acausal::translational {

/// Base of compliant elements between two flanges: s_rel = flange_b.s -
/// flange_a.s and a force f acting on flange_b and, opposite, on flange_a.
struct PartialCompliant : Component {
  Flange flange_a{*this, "flange_a"}, flange_b{*this, "flange_b"};
  Variable s_rel = variable("s_rel", {.unit = "m"});
  Variable f = variable("f", {.unit = "N"});

  explicit PartialCompliant(std::string name) : Component(std::move(name)) {
    equation(s_rel == flange_b.s - flange_a.s);
    equation(flange_b.f == f);
    equation(flange_a.f == -f);
  }
};

}  // namespace acausal::translational
