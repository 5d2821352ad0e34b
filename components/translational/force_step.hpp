#pragma once

#include "connectors/translational.hpp"

namespace acausal::translational {

/// Force stepping from offsetForce to offsetForce + stepForce at startTime (a time event).
struct ForceStep : Component {
  Flange flange{*this, "flange"};
  Parameter stepForce = parameter("stepForce", 1.0, {.unit = "N"});
  Parameter offsetForce = parameter("offsetForce", 0.0, {.unit = "N"});
  Parameter startTime = parameter("startTime", 0.0, {.unit = "s"});
  Variable f = variable("f", {.unit = "N"});

  explicit ForceStep(std::string name) : Component(std::move(name)) {
    energy_source();
    equation(f == offsetForce + ifelse(time_symbol() < startTime, 0.0, stepForce));
    equation(flange.f == -f);
  }
};

}  // namespace acausal::translational
