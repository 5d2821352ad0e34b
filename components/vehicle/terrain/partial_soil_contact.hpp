#pragma once

#include <cmath>
#include <string>
#include <utility>

#include "components/vehicle/terrain/soil.hpp"
#include "solver/modeling/component.hpp"

namespace acausal::vehicle {

/// Which pressure–sinkage law a soil contact uses (structural).
struct PressureSinkageLaw {
  enum : int { bekker, reece };
  static inline const std::vector<std::string> names = {"bekker", "reece"};
};

/// The partial base of the soil contacts (SoftSoilWheel, SoilTrack,
/// SoilPlate): the soil's parameters and the pressure–sinkage law.
/// pressure_law: bekker, p = (k_c/b + k_phi)·z^n (Bekker); reece,
/// p = (c·k_c_reece + gamma_s·b·k_phi_reece)·(z/b)^n (Reece). Either way
/// p = k_eq·z^n with the sinkage modulus k_eq of the contact's width b.
/// k_c and k_phi carry units that depend on n (N/m^(n+1), N/m^(n+2)), so they
/// are declared without a unit. set_soil() copies a Soil (a row of
/// data/soils/soils.csv) into the parameters; Soil::parameters() gives the
/// same values for Model::add.
struct PartialSoilContact : Component {
  Parameter b = parameter("b", 0.3, {.unit = "m", .min = 1e-6, .description = "width of the contact"});
  Parameter n = parameter("n", Soil{}.n, {.min = 1e-3, .max = 5, .description = "sinkage exponent"});
  Parameter k_c = parameter("k_c", Soil{}.k_c, {.min = 0, .description = "cohesive modulus of deformation [N/m^(n+1)]"});
  Parameter k_phi =
      parameter("k_phi", Soil{}.k_phi, {.min = 0, .description = "frictional modulus of deformation [N/m^(n+2)]"});
  Parameter c = parameter("c", Soil{}.c, {.unit = "Pa", .min = 0, .description = "cohesion"});
  Parameter phi_soil = parameter("phi_soil", Soil{}.phi,
                                 {.unit = "rad", .min = 0, .max = 1.55, .description = "angle of internal shearing resistance"});
  Parameter K = parameter("K", Soil{}.K, {.unit = "m", .min = 1e-9, .description = "Janosi shear deformation modulus"});
  Parameter pressure_law = parameter("pressure_law", PressureSinkageLaw::bekker,
                                     {.description = "pressure-sinkage law (bekker, reece)",
                                      .choices = PressureSinkageLaw::names});
  Parameter k_c_reece = parameter("k_c_reece", 0.0, {.min = 0, .description = "Reece's cohesive modulus k'_c [-]"});
  Parameter k_phi_reece =
      parameter("k_phi_reece", 0.0, {.min = 0, .description = "Reece's frictional modulus k'_phi [-]"});
  Parameter gamma_s = parameter("gamma_s", 15e3, {.unit = "N/m3", .min = 0, .description = "unit weight of the soil (Reece)"});

  /// Copies the soil's n, k_c, k_phi, c, phi (as phi_soil) and K, its c1 and
  /// c2 where the contact has them (a wheel), and Reece's moduli and unit
  /// weight when the soil has them. Call before compiling (a Simulator takes
  /// the same names through set_parameter).
  void set_soil(const Soil& soil) {
    for (const auto& [name, value] : soil.parameters(true))
      for (const auto& p : parameters())
        if (p.name == name) {
          set_parameter(name, value);
          break;
        }
  }

 protected:
  explicit PartialSoilContact(std::string name) : Component(std::move(name)) {}

  /// k_eq of p = k_eq·z^n for this contact's width b.
  Expr sinkage_modulus() const {
    return ifelse(chosen(pressure_law, PressureSinkageLaw::reece),
                  (c * k_c_reece + gamma_s * b * k_phi_reece) / pow(b, n), k_c / b + k_phi);
  }

  /// The value a parameter has now (set by add() or set_parameter()), for start guesses.
  double value_of(const std::string& local_name) const {
    for (const auto& p : parameters())
      if (p.name == local_name) return p.value;
    throw ModelError(path() + ": no parameter " + local_name);
  }
  /// k_eq from the parameters' current values.
  double sinkage_modulus_value() const {
    const double width = value_of("b");
    if (static_cast<int>(value_of("pressure_law")) == PressureSinkageLaw::reece)
      return (value_of("c") * value_of("k_c_reece") + value_of("gamma_s") * width * value_of("k_phi_reece")) /
             std::pow(width, value_of("n"));
    return value_of("k_c") / width + value_of("k_phi");
  }
};

/// g(x) = 1 - exp(-x) for x ≥ 0 and its odd continuation exp(x) - 1 below 0:
/// the Janosi–Hanamoto shear mobilisation at a shear displacement x·K, of
/// the sign of the displacement (C1 at 0: no event).
inline Expr janosi_mobilisation(const Expr& x) {
  return no_event(ifelse(x >= 0.0, 1.0 - exp(-x), exp(x) - 1.0));
}

/// The speed the slip is relative to: the larger of |ω·r| and |v|, smoothed
/// over v_eps so that it is C∞ and at least v_eps at standstill (1.5·v_eps
/// there). Away from |ω·r| = |v| it is the larger speed to within
/// v_eps²/(4·| |ω·r| - |v| |).
inline Expr slip_reference_speed(const Expr& rim_speed, const Expr& v, const Expr& v_eps) {
  const Expr a = sqrt(rim_speed * rim_speed + v_eps * v_eps), c = sqrt(v * v + v_eps * v_eps);
  return 0.5 * (a + c + sqrt((a - c) * (a - c) + v_eps * v_eps));
}

}  // namespace acausal::vehicle
