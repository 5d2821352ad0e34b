#pragma once

#include "connectors/rotational.hpp"

namespace acausal::rotational {

/// Ideal planetary gear (MSL Rotational.Components.IdealPlanetary): sun,
/// carrier and ring without inertia or losses, ratio = ring teeth / sun teeth
/// (planet teeth (zr - zs)/2). Willis' equation (1 + ratio)·w_carrier = w_sun
/// + ratio·w_ring ties the three, and the torques ring.tau = ratio·sun.tau,
/// carrier.tau = -(1 + ratio)·sun.tau make the power through the three
/// flanges sum to zero. Held at one flange it is a fixed-ratio gear (carrier
/// held: w_sun = -ratio·w_ring; ring held: 1 + ratio, sun to carrier), the
/// basis of automatic transmissions and power-split hybrids.
struct IdealPlanetary : Component {
  Flange sun{*this, "sun"}, carrier{*this, "carrier"}, ring{*this, "ring"};
  Parameter ratio = parameter("ratio", 2.0, {.unit = "1", .description = "ring teeth / sun teeth"});

  explicit IdealPlanetary(std::string name) : Component(std::move(name)) {
    equation((1.0 + ratio) * carrier.phi == sun.phi + ratio * ring.phi);
    equation(ring.tau == ratio * sun.tau);
    equation(carrier.tau == -(1.0 + ratio) * sun.tau);
  }
};

}  // namespace acausal::rotational
