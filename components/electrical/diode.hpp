#pragma once

#include "components/electrical/conditional_heat_port.hpp"

namespace acausal::electrical {

/// Diode with an exponential characteristic (MSL Semiconductors.Diode, the
/// "simple diode with heating port"): i = Ids·(exlin(v/Vt, Maxexp) - 1) + v/R,
/// a Shockley diode in parallel with the leakage resistance R, where
/// exlin(x, Maxexp) is exp(x) continued by its tangent above Maxexp, so that
/// large forward voltages do not overflow. With use_temperature_dependency =
/// 1 the thermal voltage follows the device temperature T_heatPort,
/// vt_t = k·T_heatPort/q, and the saturation current grows with it:
///   i = Ids·(exlin(v/(N·vt_t), Maxexp) - 1)·(T_heatPort/TNOM)^(XTI/N)
///       ·exp((T_heatPort/TNOM - 1)·EG/(N·vt_t)) + v/R.
/// T_heatPort is the heat port's temperature with use_heat_port = 1, else the
/// fixed T. MSL ties useHeatPort's default to useTemperatureDependency; here
/// both default to 0 and are set separately (HeatingRectifier sets both). The
/// loss v·i >= 0 (i has the sign of v) is dissipated or leaves through heat_port.
struct Diode : ConditionalHeatPort {
  // Boltzmann's constant over the elementary charge (Modelica.Constants.k/q),
  // a parameter so that the thermal voltage's unit is checked.
  Parameter k_by_q = parameter("k_by_q", 1.380649e-23 / 1.602176634e-19,
                               {.unit = "V/K", .description = "Boltzmann constant / elementary charge"});

  Parameter Ids = parameter("Ids", 1e-6, {.unit = "A", .min = 0, .description = "saturation current"});
  Parameter use_temperature_dependency = parameter(
      "use_temperature_dependency", 0.0,
      {.min = 0,
       .max = 1,
       .description = "1: the thermal voltage and the saturation current follow T_heatPort (MSL useTemperatureDependency)",
       .structural = true});
  Parameter Vt = parameter(
      "Vt", 0.04, {.unit = "V", .min = 1e-15, .description = "thermal voltage k·T/(q·n) without temperature dependency"});
  Parameter Maxexp = parameter(
      "Maxexp", 15.0, {.unit = "1", .min = 1e-60, .description = "exponent above which exp is continued linearly"});
  Parameter R = parameter("R", 1e8, {.unit = "Ohm", .min = 1e-15, .description = "parallel ohmic resistance"});
  Parameter EG = parameter("EG", 1.11, {.unit = "V", .description = "activation energy (band gap) per electron charge"});
  Parameter N = parameter("N", 1.0, {.unit = "1", .min = 1e-15, .description = "emission coefficient"});
  Parameter TNOM = parameter("TNOM", 300.15, {.unit = "K", .min = 1e-15, .description = "parameter measurement temperature"});
  Parameter XTI = parameter("XTI", 3.0, {.unit = "1", .description = "temperature exponent of the saturation current"});
  Variable vt_t = variable("vt_t", {.unit = "V", .description = "thermal voltage k·T_heatPort/q"});
  Variable id = variable("id", {.unit = "A", .description = "current of the exponential branch"});

  explicit Diode(std::string name) : ConditionalHeatPort(std::move(name), 293.15) {
    const Expr temperature = use_temperature_dependency > 0.5;
    equation(vt_t == k_by_q * T_heatPort);
    // MSL's exlin: exp continued by its tangent above Maxexp, C1 there (a function: no event).
    const Expr x = ifelse(temperature, v / (N * vt_t), v / Vt);
    const Expr exlin = no_event(ifelse(x > Maxexp, exp(Maxexp) * (1.0 + x - Maxexp), exp(min(x, Maxexp))));
    equation(id == Ids * (exlin - 1.0));
    const Expr saturation_growth =
        pow(T_heatPort / TNOM, XTI / N) * exp((T_heatPort / TNOM - 1.0) * EG / (N * vt_t));
    equation(i == ifelse(temperature, id * saturation_growth, id) + v / R);
    equation(LossPower == v * i);
  }
};

}  // namespace acausal::electrical
