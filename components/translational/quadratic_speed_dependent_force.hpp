#pragma once

#include "connectors/translational.hpp"

namespace acausal::translational {

/// Force growing with the square of the flange speed, f = f_nominal·(v/v_nominal)²
/// (ForceDirection = 1: same sign both ways) or f_nominal·(v/v_nominal)·|v/v_nominal|
/// (ForceDirection = 0: follows the direction of motion). A negative f_nominal
/// makes it a load, such as aerodynamic drag. f drives the flange.
struct QuadraticSpeedDependentForce : Component {
  Flange flange{*this, "flange"};
  Parameter f_nominal = parameter("f_nominal", -1.0, {.unit = "N"});
  Parameter v_nominal = parameter("v_nominal", 1.0, {.unit = "m/s", .min = 1e-15});
  Parameter ForceDirection = parameter("ForceDirection", 1.0, {.unit = "1", .min = 0, .max = 1, .structural = true});
  Variable v = variable("v", {.unit = "m/s"});
  Variable f = variable("f", {.unit = "N"});

  explicit QuadraticSpeedDependentForce(std::string name) : Component(std::move(name)) {
    energy_source();
    Expr ratio = v / v_nominal;
    equation(v == der(flange.s));
    // v·|v| is continuously differentiable: no event is needed at v = 0.
    equation(f == ifelse(ForceDirection > 0.5, f_nominal * ratio * ratio, f_nominal * no_event(ratio * abs(ratio))));
    equation(flange.f == -f);
  }
};

}  // namespace acausal::translational
