#pragma once

#include "connectors/signal.hpp"
#include "connectors/translational.hpp"

namespace acausal::translational {

/// Force transmitted from flange_a to flange_b: an ideal rigid cut.
struct ForceSensor : Component {
  Flange flange_a{*this, "flange_a"}, flange_b{*this, "flange_b"};
  RealOutput f{*this, "f", {.unit = "N"}};
  explicit ForceSensor(std::string name) : Component(std::move(name)) {
    equation(flange_a.s == flange_b.s);
    equation(flange_a.f + flange_b.f == 0.0);
    equation(f == flange_a.f);
  }
};

}  // namespace acausal::translational
