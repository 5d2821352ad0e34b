#pragma once

#include "components/thermal/conditional_heat_port.hpp"
#include "connectors/translational.hpp"

namespace acausal::translational {

/// Translational eddy current brake (MSL Sources.EddyCurrentForce, with
/// useSupport = false: it brakes against the fixed frame). Kloss' curve,
/// f = 2·f_nominal·v_normalized/(1 + v_normalized²), always opposes the
/// motion and peaks at f_nominal where v_normalized = 1. The fin's resistance
/// grows with its temperature T, R/R_ref = 1 + alphaRef·(T - TRef),
/// alphaRef = alpha20/(1 + alpha20·(TRef - 293.15 K)) (MSL's
/// linearTemperatureDependency), and moves the peak to the speed
/// v_nominal·R/R_ref: v_normalized = v/(v_nominal·R/R_ref). T is the heat
/// port's temperature, or the fixed T with use_heat_port = 0. f = flange.f is
/// the force the brake takes from the flange; the loss lossPower = f·v >= 0 is
/// dissipated, or leaves as heat through heat_port with use_heat_port = 1.
struct EddyCurrentForce : Component {
  Flange flange{*this, "flange"};
  Parameter f_nominal =
      parameter("f_nominal", 1.0, {.unit = "N", .min = 0, .description = "largest force (always braking)"});
  Parameter v_nominal =
      parameter("v_nominal", 1.0, {.unit = "m/s", .min = 1e-15, .description = "speed of the largest force at TRef"});
  Parameter TRef = parameter("TRef", 293.15, {.unit = "K", .min = 0, .description = "reference temperature"});
  Parameter alpha20 = parameter(
      "alpha20", 0.0, {.unit = "1/K", .description = "temperature coefficient of the fin's resistance at 20 degC"});
  Variable f = variable("f", {.unit = "N", .description = "braking force taken from the flange (= flange.f)"});
  Variable v = variable("v", {.unit = "m/s", .description = "speed of the flange"});
  Variable v_normalized = variable("v_normalized", {.unit = "1", .description = "v/(v_nominal·R/R_ref)"});
  thermal::ConditionalHeatPort heat{*this};

  explicit EddyCurrentForce(std::string name) : Component(std::move(name)) {
    const Expr alphaRef = alpha20 / (1.0 + alpha20 * (TRef - 293.15));
    equation(f == flange.f);
    equation(v == der(flange.s));
    equation(v_normalized == v / (v_nominal * (1.0 + alphaRef * (heat.heat_port.T - TRef))));
    equation(f == 2.0 * f_nominal * v_normalized / (1.0 + v_normalized * v_normalized));
    heat.equations(*this, f * v);
  }
};

}  // namespace acausal::translational
