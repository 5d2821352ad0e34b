#pragma once

#include <numbers>

#include "components/electrical/one_port.hpp"

namespace acausal::electrical {

/// Inductor with saturation (MSL Basic.SaturatingInductor, no hysteresis): the
/// flux linkage is an atan with a linear term,
///   Psi = Linf·i + (Lzer − Linf)·Ipar·atan(i/Ipar),   v = der(Psi),
/// so the incremental inductance dPsi/di falls from Lzer at i = 0 towards Linf
/// at large currents, and the apparent inductance Lact = Psi/i = Linf +
/// (Lzer − Linf)·atan(i/Ipar)/(i/Ipar) is Lnom at the nominal current Inom.
/// Ipar (an output, constant in time) solves MSL's initial equation
///   (Lnom − Linf)/(Lzer − Linf) = (Ipar/Inom)·(π/2 − atan(Ipar/Inom)),
/// whose right side rises monotonically from 0 to 1: one root for
/// Linf < Lnom < Lzer (required). Stores ∫ i dPsi = ½·Linf·i² +
/// ½·(Lzer − Linf)·Ipar²·ln(1 + (i/Ipar)²). i starts at 0 and is not fixed, as
/// in MSL: set it with set_start("L1.i", value).
struct SaturatingInductor : OnePort {
  // V.s/A is the henry, written in symbols the unit check knows.
  Parameter Inom = parameter("Inom", 1.0, {.unit = "A", .description = "nominal current"});
  Parameter Lnom = parameter("Lnom", 1.0, {.unit = "V.s/A", .min = 0, .description = "inductance at Inom"});
  Parameter Lzer = parameter("Lzer", 2.0, {.unit = "V.s/A", .min = 0, .description = "inductance near i = 0"});
  Parameter Linf = parameter("Linf", 0.5, {.unit = "V.s/A", .min = 0, .description = "inductance at large currents"});

  Variable Lact = variable("Lact", {.unit = "V.s/A", .description = "present inductance Psi/i"});
  Variable Psi = variable("Psi", {.unit = "V.s", .description = "flux linkage"});
  Variable Ipar = variable("Ipar", {.unit = "A", .description = "the atan's current scale (from Inom, Lnom, Lzer, Linf)"});
  // Ipar/Inom, solved from MSL's initial equation; dimensionless, so one
  // start value (0.25, the root for MSL's defaults) suits any Inom.
  Variable x_par = variable("x_par", {.start = 0.25, .description = "Ipar/Inom"});

  explicit SaturatingInductor(std::string name) : OnePort(std::move(name)) {
    require(Inom > 0, "the nominal current Inom must be positive");
    require(Lzer > Lnom, "Lzer must be greater than Lnom");
    require(Linf < Lnom, "Linf must be less than Lnom");
    const Expr z = i / Ipar;
    stored_energy(0.5 * Linf * i * i + 0.5 * (Lzer - Linf) * Ipar * Ipar * log(1 + z * z));
    equation((Lnom - Linf) / (Lzer - Linf) == x_par * (std::numbers::pi / 2 - atan(x_par)));
    equation(Ipar == Inom * x_par);
    // MSL: 1 below Modelica.Constants.small = 1e-60 (atan(z)/z at z = 0).
    equation(Lact == Linf + (Lzer - Linf) * no_event(ifelse(abs(z) < 1e-60, 1.0, atan(z) / z)));
    equation(Psi == Linf * i + (Lzer - Linf) * Ipar * atan(z));
    equation(v == der(Psi));
  }
};

}  // namespace acausal::electrical
