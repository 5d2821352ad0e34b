#pragma once

#include "connectors/translational.hpp"

namespace acausal::translational {

/// Constant force f_constant pushing the flange (reaction in the fixed housing).
struct ConstantForce : Component {
  Flange flange{*this, "flange"};
  Parameter f_constant = parameter("f_constant", 1.0, {.unit = "N"});
  Variable f = variable("f", {.unit = "N"});

  explicit ConstantForce(std::string name) : Component(std::move(name)) {
    energy_source();
    equation(f == f_constant);
    equation(flange.f == -f);
  }
};

}  // namespace acausal::translational
