#pragma once

#include "connectors/signal.hpp"

namespace acausal::blocks {

/// Point-to-point move (MSL Blocks.Sources.KinematicPTP, one axis): the
/// reference acceleration y of the fastest move over the distance deltaq that
/// keeps the speed within qd_max and the acceleration within qdd_max. From
/// startTime the output is ±qdd_max (accelerating), 0 (cruising at qd_max, a
/// phase that vanishes when the distance is too short to reach qd_max), ∓qdd_max
/// (braking) and 0 at rest; integrate it once for the speed, twice for the
/// position. The phase switches depend on parameters and time only: time events.
struct KinematicPTP : Component {
  RealOutput y{*this, "y"};
  Parameter deltaq = parameter("deltaq", 1.0);
  Parameter qd_max = parameter("qd_max", 1.0, {.unit = "1/s", .min = 1e-15});
  Parameter qdd_max = parameter("qdd_max", 1.0, {.unit = "1/s2", .min = 1e-15});
  Parameter startTime = parameter("startTime", 0.0, {.unit = "s"});

  explicit KinematicPTP(std::string name) : Component(std::move(name)) {
    Expr t = time_symbol();
    Expr distance = abs(deltaq);
    Expr Ta1 = sqrt(distance / qdd_max);  // accelerating half of a move that never cruises
    Expr Ta2 = qd_max / qdd_max;          // time to reach qd_max
    Expr noWphase = Ta2 >= Ta1;           // qd_max is never reached
    Expr Ta = ifelse(noWphase, Ta1, Ta2);                 // end of acceleration
    Expr Tv = ifelse(noWphase, Ta1, distance / qd_max);   // start of braking
    Expr Te = Tv + Ta;                                    // at rest
    Expr a = sign(deltaq) * qdd_max;
    equation(y == ifelse(t < startTime, 0.0,
                  ifelse(t < startTime + Ta, a,
                  ifelse(t < startTime + Tv, 0.0,
                  ifelse(t < startTime + Te, -a, 0.0)))));
  }
};

}  // namespace acausal::blocks
