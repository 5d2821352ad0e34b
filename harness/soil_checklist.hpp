// The soft-soil wheel's checklist (issue 38): Bekker's closed forms, the
// Wong–Reece wheel's vertical equilibrium from the specification's soil,
// pull against slip and the Coulomb limit, energy books.
#pragma once

#include "components/vehicle/terrain/soft_soil_wheel.hpp"
#include "harness/checklists.hpp"

namespace acausal::harness {

/// `acausal validate soil_wheel`: vehicle::SoftSoilWheel (or a variant, built by `make`).
Checklist soil_wheel_checklist(const Builder<vehicle::SoftSoilWheel>& make =
                                   library_component<vehicle::SoftSoilWheel>);

}  // namespace acausal::harness
