#pragma once

#include <numbers>
#include <string>

#include "connectors/rotational.hpp"
#include "connectors/signal.hpp"

namespace acausal::vehicle {

/// An electric starter cranking an engine's `flange` while `on_input` > 0.5:
/// tau = tau_max·(1 - w/w_max) between standstill and its no-load speed
/// w_max (a series-wound motor's falling line, through the ring gear), 0
/// above w_max and while off. The battery is outside the model: the
/// cranking power tau·w is supplied energy.
struct Starter : Component {
  rotational::Flange flange{*this, "flange"};
  RealInput on_input{*this, "on_input"};
  Parameter tau_max = parameter("tau_max", 60.0, {.unit = "N.m", .min = 0, .description = "torque at standstill"});
  Parameter w_max = parameter("w_max", 400.0 * std::numbers::pi / 30.0,
                              {.unit = "rad/s", .min = 1e-9, .description = "no-load speed (400 rpm)"});
  Variable w = variable("w", {.unit = "rad/s"});
  Variable tau = variable("tau", {.unit = "N.m"});

  explicit Starter(std::string name) : Component(std::move(name)) {
    supplied_power(tau * w);
    equation(w == der(flange.phi));
    equation(tau == ifelse(on_input > 0.5, tau_max * no_event(max(1.0 - w / w_max, 0.0)), 0.0));
    equation(flange.tau == -tau);
  }
};

}  // namespace acausal::vehicle
