// Units: dimensional analysis of the flattened equations from the declared
// units. A unit string ("N.m", "rad/s2", "kg.m2", "N.m.s/rad") is a product of
// SI symbols with integer powers; radians are dimensionless (as in SI), so the
// check sees dimensions, not scale (rpm and rad/s agree). A variable or
// parameter without a unit, and every literal number, adapts to its context:
// only definite contradictions are reported.
#pragma once

#include <array>
#include <optional>
#include <string>

#include "solver/ir/dae.hpp"

namespace acausal {

/// Exponents of m, kg, s, A, K, mol, cd.
using Dimension = std::array<double, 7>;

/// Parses a unit string; nullopt when a symbol is unknown. "" and "1" are dimensionless.
std::optional<Dimension> parse_unit(const std::string& unit);

/// Prints a dimension in base units ("kg.m2/s2"; "1" when dimensionless).
std::string dimension_string(const Dimension& d);

/// Checks every equation and initial equation; each contradiction becomes a
/// line of dae.report.unit_errors naming the equation, where it comes from and
/// the units on each side, and a warning of kind "unit" (CompileReport::warnings)
/// naming the component the equation comes from.
void check_units(DaeSystem& dae);

}  // namespace acausal
