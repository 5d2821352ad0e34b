#pragma once

#include "components/thermal/conditional_heat_port.hpp"
#include "connectors/rotational.hpp"

namespace acausal::rotational {

/// Rotational eddy current brake (MSL Sources.EddyCurrentTorque, with
/// useSupport = false: it brakes against the fixed frame). Kloss' curve,
/// tau = 2·tau_nominal·w_normalized/(1 + w_normalized²), always opposes the
/// rotation and peaks at tau_nominal where w_normalized = 1. The disc's
/// resistance grows with its temperature T, R/R_ref = 1 + alphaRef·(T - TRef),
/// alphaRef = alpha20/(1 + alpha20·(TRef - 293.15 K)) (MSL's
/// linearTemperatureDependency), and moves the peak to the speed
/// w_nominal·R/R_ref: w_normalized = w/(w_nominal·R/R_ref). T is the heat
/// port's temperature, or the fixed T with use_heat_port = 0. tau = flange.tau
/// is the torque the brake takes from the flange; the loss lossPower = tau·w
/// >= 0 is dissipated, or leaves as heat through heat_port with use_heat_port = 1.
struct EddyCurrentTorque : Component {
  Flange flange{*this, "flange"};
  Parameter tau_nominal =
      parameter("tau_nominal", 1.0, {.unit = "N.m", .min = 0, .description = "largest torque (always braking)"});
  Parameter w_nominal = parameter(
      "w_nominal", 1.0, {.unit = "rad/s", .min = 1e-15, .description = "speed of the largest torque at TRef"});
  Parameter TRef = parameter("TRef", 293.15, {.unit = "K", .min = 0, .description = "reference temperature"});
  Parameter alpha20 = parameter(
      "alpha20", 0.0, {.unit = "1/K", .description = "temperature coefficient of the disc's resistance at 20 degC"});
  Variable tau = variable("tau", {.unit = "N.m", .description = "braking torque taken from the flange (= flange.tau)"});
  Variable w = variable("w", {.unit = "rad/s", .description = "speed of the flange"});
  Variable w_normalized = variable("w_normalized", {.unit = "1", .description = "w/(w_nominal·R/R_ref)"});
  thermal::ConditionalHeatPort heat{*this};

  explicit EddyCurrentTorque(std::string name) : Component(std::move(name)) {
    const Expr alphaRef = alpha20 / (1.0 + alpha20 * (TRef - 293.15));
    equation(tau == flange.tau);
    equation(w == der(flange.phi));
    equation(w_normalized == w / (w_nominal * (1.0 + alphaRef * (heat.heat_port.T - TRef))));
    equation(tau == 2.0 * tau_nominal * w_normalized / (1.0 + w_normalized * w_normalized));
    heat.equations(*this, tau * w);
  }
};

}  // namespace acausal::rotational
