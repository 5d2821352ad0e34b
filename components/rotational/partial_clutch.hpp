#pragma once

#include "components/rotational/partial_compliant.hpp"
#include "connectors/signal.hpp"

namespace acausal::rotational {

/// Base of the friction clutches (Clutch, OneWayClutch): two flanges pressed
/// together by a normal force fn from the input f_normalized, the relative
/// speed and acceleration, and the sliding torque at rest tau0 = mu0·cgeo·fn.
/// A derived clutch defines fn, mu0, tau0_max and the torque.
struct PartialClutch : PartialCompliant {
  RealInput f_normalized{*this, "f_normalized"};
  Parameter peak = parameter("peak", 1.0, {.min = 1, .description = "break-away / sliding torque at w_rel = 0"});
  Parameter cgeo = parameter("cgeo", 1.0, {.min = 0, .description = "geometry constant (number and radius of plates)"});
  Parameter fn_max = parameter("fn_max", 1.0, {.unit = "N", .min = 0});
  Parameter w_small = parameter("w_small", 1e10, {.unit = "rad/s", .min = 0});
  Variable w_rel = variable("w_rel", {.unit = "rad/s", .state = StateSelect::prefer});
  Variable a_rel = variable("a_rel", {.unit = "rad/s2"});
  Variable fn = variable("fn", {.unit = "N"});
  Variable mu0 = variable("mu0");
  Variable tau0 = variable("tau0", {.unit = "N.m"});
  Variable tau0_max = variable("tau0_max", {.unit = "N.m"});

  explicit PartialClutch(std::string name) : PartialCompliant(std::move(name)) {
    equation(w_rel == der(phi_rel));
    equation(a_rel == der(w_rel));
    equation(tau0 == mu0 * cgeo * fn);
  }
};

}  // namespace acausal::rotational
