#pragma once

#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "solver/symbolic/expr.hpp"

namespace acausal::vehicle {

/// Coefficients of the PAC2002 (MF-Tyre 5.2) longitudinal force under pure
/// slip, named as in a .TIR tire property file (read_tir_longitudinal loads
/// them). The defaults are a plain passenger-car tire without offsets: μ ≈ 1
/// falling slowly with load, slip stiffness Kx ≈ 20·Fz. Camber (PDX3) is left
/// out: the longitudinal wheel has none.
struct Pac2002Longitudinal {
  double FNOMIN = 4000.0;  // [N]
  double PCX1 = 1.6;
  double PDX1 = 1.0;
  double PDX2 = -0.05;
  double PEX1 = 0.2;
  double PEX2 = 0.0;
  double PEX3 = 0.0;
  double PEX4 = 0.0;
  double PKX1 = 20.0;
  double PKX2 = 0.0;
  double PKX3 = 0.0;
  double PHX1 = 0.0;
  double PHX2 = 0.0;
  double PVX1 = 0.0;
  double PVX2 = 0.0;
  double LFZO = 1.0;
  double LCX = 1.0;
  double LMUX = 1.0;
  double LEX = 1.0;
  double LKX = 1.0;
  double LHX = 1.0;
  double LVX = 1.0;

  /// One coefficient: its .TIR name, the member holding it, its unit ("" when
  /// nondimensional), the least value that keeps the formula defined and a
  /// description, so a component can declare one Parameter per coefficient.
  struct Field {
    const char* name;
    double Pac2002Longitudinal::*member;
    const char* unit;
    double min;
    const char* description;
  };

  /// Every coefficient, in .TIR order.
  static const std::vector<Field>& fields() {
    constexpr double none = -std::numeric_limits<double>::infinity();
    using P = Pac2002Longitudinal;
    static const std::vector<Field> table = {
        // Fz0' = LFZO·FNOMIN divides the load, so both must stay positive.
        {"FNOMIN", &P::FNOMIN, "N", 1e-6, "nominal wheel load Fz0"},
        {"PCX1", &P::PCX1, "", 0.0, "shape factor Cx"},
        {"PDX1", &P::PDX1, "", 0.0, "friction coefficient mux at the nominal load"},
        {"PDX2", &P::PDX2, "", none, "variation of mux with load"},
        {"PEX1", &P::PEX1, "", none, "curvature factor Ex at the nominal load"},
        {"PEX2", &P::PEX2, "", none, "variation of Ex with load"},
        {"PEX3", &P::PEX3, "", none, "variation of Ex with load squared"},
        {"PEX4", &P::PEX4, "", none, "asymmetry of Ex, driving against braking"},
        {"PKX1", &P::PKX1, "", none, "slip stiffness Kx/Fz at the nominal load"},
        {"PKX2", &P::PKX2, "", none, "variation of Kx/Fz with load"},
        {"PKX3", &P::PKX3, "", none, "exponent of the variation of Kx/Fz with load"},
        {"PHX1", &P::PHX1, "", none, "horizontal shift SHx at the nominal load"},
        {"PHX2", &P::PHX2, "", none, "variation of SHx with load"},
        {"PVX1", &P::PVX1, "", none, "vertical shift SVx/Fz at the nominal load"},
        {"PVX2", &P::PVX2, "", none, "variation of SVx/Fz with load"},
        {"LFZO", &P::LFZO, "", 1e-6, "scale factor of the nominal load"},
        {"LCX", &P::LCX, "", 0.0, "scale factor of Cx"},
        {"LMUX", &P::LMUX, "", 0.0, "scale factor of mux"},
        {"LEX", &P::LEX, "", none, "scale factor of Ex"},
        {"LKX", &P::LKX, "", none, "scale factor of Kx"},
        {"LHX", &P::LHX, "", none, "scale factor of SHx"},
        {"LVX", &P::LVX, "", none, "scale factor of SVx"},
    };
    return table;
  }
};

/// The terms of the PAC2002 pure longitudinal slip force, for a component
/// that wants more than Fx (Dx is the peak force, Kx the slip stiffness).
struct Pac2002Terms {
  Expr dfz, SHx, kx, Cx, mux, Dx, Ex, Kx, Bx, SVx, Fx;
};

/// PAC2002 / MF-Tyre 5.2 longitudinal force under pure slip (Pacejka, Tire and
/// Vehicle Dynamics, eqs. 4.E9-4.E18; no camber, no turn slip) as an
/// expression: `coefficient(name)` gives each coefficient of
/// Pac2002Longitudinal::fields() (a Parameter, or a constant), kappa is the
/// practical slip (SAE/ISO: positive driving, -1 a locked wheel), Fz the
/// vertical load and mu_scale the road's friction relative to the tire data
/// (it multiplies LMUX, so the peak force and SVx follow the road).
///
///   dfz = (Fz - Fz0')/Fz0', Fz0' = LFZO·FNOMIN     SHx = (PHX1 + PHX2·dfz)·LHX, kx = kappa + SHx
///   Cx = PCX1·LCX     mux = (PDX1 + PDX2·dfz)·LMUX·mu_scale     Dx = mux·Fz
///   Ex = min((PEX1 + PEX2·dfz + PEX3·dfz²)·(1 - PEX4·sign(kx))·LEX, 1)
///   Kx = Fz·(PKX1 + PKX2·dfz)·exp(PKX3·dfz)·LKX     Bx = Kx/(max(Cx·Dx, 0) + 1e-6 N)
///   SVx = Fz·(PVX1 + PVX2·dfz)·LVX·LMUX·mu_scale
///   Fx = Dx·sin(Cx·atan(Bx·kx - Ex·(Bx·kx - atan(Bx·kx)))) + SVx
///
/// A tire off the ground carries nothing: Fz < 0 is read as 0, where Kx, Dx and
/// SVx vanish and Fx = 0 (the 1e-6 N keeps Bx finite, and negligible, at any
/// load). sign, min and the load clamp generate no events: Fx is continuous
/// across all three (the sign's jump in Ex meets Bx·kx - atan(Bx·kx) = O(kx³),
/// so Fx is even twice differentiable in kappa there), and an event would only
/// restart the integrator each time the wheel turns from driving to braking.
inline Pac2002Terms pac2002_longitudinal(const std::function<Expr(const char*)>& coefficient, const Expr& kappa,
                                         const Expr& Fz, const Expr& mu_scale) {
  const auto& c = coefficient;
  Pac2002Terms t;
  const Expr load = no_event(max(Fz, 0.0));
  const Expr Fz0 = c("LFZO") * c("FNOMIN");
  t.dfz = (load - Fz0) / Fz0;
  t.SHx = (c("PHX1") + c("PHX2") * t.dfz) * c("LHX");
  t.kx = kappa + t.SHx;
  t.Cx = c("PCX1") * c("LCX");
  const Expr friction_scale = c("LMUX") * mu_scale;
  t.mux = (c("PDX1") + c("PDX2") * t.dfz) * friction_scale;
  t.Dx = t.mux * load;
  t.Ex = no_event(min(
      (c("PEX1") + c("PEX2") * t.dfz + c("PEX3") * t.dfz * t.dfz) * (1.0 - c("PEX4") * sign(t.kx)) * c("LEX"), 1.0));
  t.Kx = load * (c("PKX1") + c("PKX2") * t.dfz) * exp(c("PKX3") * t.dfz) * c("LKX");
  t.Bx = t.Kx / (no_event(max(t.Cx * t.Dx, 0.0)) + 1e-6);
  t.SVx = load * (c("PVX1") + c("PVX2") * t.dfz) * c("LVX") * friction_scale;
  const Expr Bk = t.Bx * t.kx;
  t.Fx = t.Dx * sin(t.Cx * atan(Bk - t.Ex * (Bk - atan(Bk)))) + t.SVx;
  return t;
}

/// The PAC2002 pure longitudinal slip force Fx alone (see pac2002_longitudinal).
inline Expr pac2002_fx(const std::function<Expr(const char*)>& coefficient, const Expr& kappa, const Expr& Fz,
                       const Expr& mu_scale) {
  return pac2002_longitudinal(coefficient, kappa, Fz, mu_scale).Fx;
}

/// Coefficient lookup from a set of numbers (for pac2002_fx with constants).
inline std::function<Expr(const char*)> pac2002_constants(const Pac2002Longitudinal& values) {
  return [values](const char* name) -> Expr {
    for (const auto& field : Pac2002Longitudinal::fields())
      if (std::string_view(field.name) == name) return values.*field.member;
    throw std::logic_error(std::string("pac2002_constants: no coefficient ") + name);
  };
}

}  // namespace acausal::vehicle
