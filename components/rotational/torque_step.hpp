#pragma once

#include "connectors/rotational.hpp"

namespace acausal::rotational {

/// Torque source stepping from offsetTorque to offsetTorque + stepTorque at
/// startTime (a time event, hit exactly); drives the connected flange.
struct TorqueStep : Component {
  Flange flange{*this, "flange"};
  Parameter stepTorque = parameter("stepTorque", 1.0, {.unit = "N.m"});
  Parameter offsetTorque = parameter("offsetTorque", 0.0, {.unit = "N.m"});
  Parameter startTime = parameter("startTime", 0.0, {.unit = "s"});
  Variable tau = variable("tau", {.unit = "N.m"});

  explicit TorqueStep(std::string name) : Component(std::move(name)) {
    energy_source();
    equation(tau == offsetTorque + ifelse(time_symbol() < startTime, 0.0, stepTorque));
    equation(flange.tau == -tau);
  }
};

}  // namespace acausal::rotational
