#pragma once

#include "connectors/rotational.hpp"
#include "connectors/translational.hpp"

namespace acausal::rotational {

/// Ideal gear from rotation to translation (MSL Rotational.Components.
/// IdealGearR2T, also Translational.Components.IdealGearR2T), a rack and
/// pinion or a lead screw without inertia, elasticity or losses:
/// flangeR.phi = ratio·flangeT.s (ratio in rad/m) and ratio·flangeR.tau +
/// flangeT.f = 0, so the power in equals the power out. Its housings are
/// fixed (MSL's useSupportR = useSupportT = false). A rigid coupling between
/// an inertia and a mass: index reduction keeps one of them as state.
struct IdealGearR2T : Component {
  Flange flangeR{*this, "flangeR"};
  translational::Flange flangeT{*this, "flangeT"};
  Parameter ratio = parameter("ratio", 1.0, {.unit = "rad/m", .description = "flangeR.phi / flangeT.s"});

  explicit IdealGearR2T(std::string name) : Component(std::move(name)) {
    equation(flangeR.phi == ratio * flangeT.s);
    equation(0.0 == ratio * flangeR.tau + flangeT.f);
  }
};

}  // namespace acausal::rotational
