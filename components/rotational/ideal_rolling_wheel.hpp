#pragma once

#include "connectors/rotational.hpp"
#include "connectors/translational.hpp"

namespace acausal::rotational {

/// Ideal rolling wheel without slip or inertia: flangeR.phi·radius = flangeT.s
/// and radius·flangeT.f + flangeR.tau = 0. Couples a rotational inertia rigidly
/// to a translational mass (index reduction keeps one of them as state).
struct IdealRollingWheel : Component {
  Flange flangeR{*this, "flangeR"};
  translational::Flange flangeT{*this, "flangeT"};
  Parameter radius = parameter("radius", 0.3, {.unit = "m", .min = 1e-15});

  explicit IdealRollingWheel(std::string name) : Component(std::move(name)) {
    equation(flangeR.phi * radius == flangeT.s);
    equation(0.0 == radius * flangeT.f + flangeR.tau);
  }
};

}  // namespace acausal::rotational
