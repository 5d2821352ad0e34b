#pragma once

#include "connectors/rotational.hpp"

namespace acausal::rotational {

/// Flange fixed in the housing at angle phi0; takes any reaction torque.
struct Fixed : Component {
  Flange flange{*this, "flange"};
  Parameter phi0 = parameter("phi0", 0.0, {.unit = "rad"});

  explicit Fixed(std::string name) : Component(std::move(name)) { equation(flange.phi == phi0); }
};

}  // namespace acausal::rotational
