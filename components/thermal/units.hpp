#pragma once

namespace acausal::thermal {

/// Kelvin from degrees Celsius: parameters and start values are in K, people
/// think in °C (MSL's Modelica.Units.Conversions.from_degC).
constexpr double from_degC(double T_degC) { return T_degC + 273.15; }

/// Degrees Celsius from kelvin (MSL's to_degC).
constexpr double to_degC(double T) { return T - 273.15; }

}  // namespace acausal::thermal
