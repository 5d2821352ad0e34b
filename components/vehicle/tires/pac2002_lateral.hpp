#pragma once

#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "components/vehicle/tires/pac2002.hpp"
#include "solver/symbolic/expr.hpp"

namespace acausal::vehicle {

/// Coefficients of the PAC2002 (MF-Tyre 5.2) lateral force under pure side
/// slip and of the combined-slip weighting functions, named as in a .TIR tire
/// property file (read_tir_lateral loads them): P*Y* and R*Y* from
/// [LATERAL_COEFFICIENTS], R*X* (Fx under side slip) from
/// [LONGITUDINAL_COEFFICIENTS], L* from [SCALING_COEFFICIENTS]. FNOMIN and LFZO
/// stay in Pac2002Longitudinal: both forces share one nominal load.
///
/// No camber, as in Pac2002Longitudinal: the coefficients that multiply γ
/// (PDY3, PEY4, PKY3, PHY3, PVY3, PVY4, RVY3) are left out. PEY3 is kept:
/// the .TIR files describe it as a camber term, but it multiplies
/// sign(alpha_y), not γ, so it shapes the curve at γ = 0 (like PEX4).
///
/// The defaults are the car tire of TNO's MF-Tyre example property file
/// (205/60 R15 dimensions, FNOMIN 4000 N; published as
/// modelica-3rdparty/ExternData, ExternData/Resources/Examples/sample.tir), the
/// coefficients PAC2002 shares with it at γ = 0 and nominal pressure, with the
/// offsets and the asymmetry set to 0 as in Pac2002Longitudinal's defaults
/// (the published value is given after such a member). Without offsets both
/// weighting functions stay within (0, 1] for |kappa| <= 1 and any slip angle.
struct Pac2002Lateral {
  double PCY1 = 1.337;
  double PDY1 = 0.8785;
  double PDY2 = -0.06452;
  double PEY1 = -0.8057;
  double PEY2 = -0.6046;
  double PEY3 = 0.0;  // 0.09854
  double PKY1 = -15.324;
  double PKY2 = 1.715;
  double PHY1 = 0.0;  // -0.001806
  double PHY2 = 0.0;  // 0.00352
  double PVY1 = 0.0;  // -0.00661
  double PVY2 = 0.0;  // 0.03592
  double LCY = 1.0;
  double LMUY = 1.0;
  double LEY = 1.0;
  double LKY = 1.0;
  double LHY = 1.0;
  double LVY = 1.0;
  double RBX1 = 13.046;
  double RBX2 = 9.718;
  double RCX1 = 0.9995;
  double REX1 = -0.4403;
  double REX2 = -0.4663;
  double RHX1 = 0.0;  // -9.968e-5
  double RBY1 = 10.622;
  double RBY2 = 7.82;
  double RBY3 = 0.0;  // 0.002037
  double RCY1 = 1.0587;
  double REY1 = 0.3148;
  double REY2 = 0.004867;
  double RHY1 = 0.0;  // 0.009472
  double RHY2 = 0.0;  // 0.009754
  double RVY1 = 0.0;  // 0.05187
  double RVY2 = 0.0;  // 4.853e-4
  double RVY4 = 94.63;
  double RVY5 = 1.8914;
  double RVY6 = 23.8;
  double LXAL = 1.0;
  double LYKA = 1.0;
  double LVYKA = 1.0;

  /// One coefficient: its .TIR name, the member holding it, its unit ("" when
  /// nondimensional), the least value that keeps the formula defined and a
  /// description, so a component can declare one Parameter per coefficient.
  struct Field {
    const char* name;
    double Pac2002Lateral::*member;
    const char* unit;
    double min;
    const char* description;
  };

  /// Every coefficient: the pure lateral force, its scale factors, then the
  /// weighting functions.
  static const std::vector<Field>& fields() {
    constexpr double none = -std::numeric_limits<double>::infinity();
    using P = Pac2002Lateral;
    static const std::vector<Field> table = {
        {"PCY1", &P::PCY1, "", 0.0, "shape factor Cy"},
        {"PDY1", &P::PDY1, "", 0.0, "friction coefficient muy at the nominal load"},
        {"PDY2", &P::PDY2, "", none, "variation of muy with load"},
        {"PEY1", &P::PEY1, "", none, "curvature factor Ey at the nominal load"},
        {"PEY2", &P::PEY2, "", none, "variation of Ey with load"},
        {"PEY3", &P::PEY3, "", none, "asymmetry of Ey, positive against negative alpha_y"},
        // A positive PKY1 would push the tire along its slip; read_tir_lateral refuses it.
        {"PKY1", &P::PKY1, "", none, "cornering stiffness Kya/Fz0' at its peak (negative: ISO signs)"},
        // PKY2·Fz0' divides the load.
        {"PKY2", &P::PKY2, "", 1e-6, "load Fz/Fz0' at which Kya peaks"},
        {"PHY1", &P::PHY1, "", none, "horizontal shift SHy at the nominal load"},
        {"PHY2", &P::PHY2, "", none, "variation of SHy with load"},
        {"PVY1", &P::PVY1, "", none, "vertical shift SVy/Fz at the nominal load"},
        {"PVY2", &P::PVY2, "", none, "variation of SVy/Fz with load"},
        {"LCY", &P::LCY, "", 0.0, "scale factor of Cy"},
        {"LMUY", &P::LMUY, "", 0.0, "scale factor of muy"},
        {"LEY", &P::LEY, "", none, "scale factor of Ey"},
        // A negative scale would turn the cornering stiffness along the slip.
        {"LKY", &P::LKY, "", 0.0, "scale factor of Kya"},
        {"LHY", &P::LHY, "", none, "scale factor of SHy"},
        {"LVY", &P::LVY, "", none, "scale factor of SVy"},
        {"RBX1", &P::RBX1, "", 0.0, "slope factor Bxa of the reduction of Fx by side slip"},
        {"RBX2", &P::RBX2, "", none, "variation of Bxa with kappa"},
        {"RCX1", &P::RCX1, "", 0.0, "shape factor Cxa of the reduction of Fx by side slip"},
        {"REX1", &P::REX1, "", none, "curvature factor Exa at the nominal load"},
        {"REX2", &P::REX2, "", none, "variation of Exa with load"},
        {"RHX1", &P::RHX1, "", none, "horizontal shift SHxa of the reduction of Fx"},
        {"RBY1", &P::RBY1, "", 0.0, "slope factor Byk of the reduction of Fy by longitudinal slip"},
        {"RBY2", &P::RBY2, "", none, "variation of Byk with alpha"},
        {"RBY3", &P::RBY3, "", none, "shift of alpha in Byk"},
        {"RCY1", &P::RCY1, "", 0.0, "shape factor Cyk of the reduction of Fy by longitudinal slip"},
        {"REY1", &P::REY1, "", none, "curvature factor Eyk at the nominal load"},
        {"REY2", &P::REY2, "", none, "variation of Eyk with load"},
        {"RHY1", &P::RHY1, "", none, "horizontal shift SHyk at the nominal load"},
        {"RHY2", &P::RHY2, "", none, "variation of SHyk with load"},
        {"RVY1", &P::RVY1, "", none, "kappa-induced side force SVyk/(muy·Fz) at the nominal load"},
        {"RVY2", &P::RVY2, "", none, "variation of SVyk/(muy·Fz) with load"},
        {"RVY4", &P::RVY4, "", none, "variation of SVyk/(muy·Fz) with alpha"},
        {"RVY5", &P::RVY5, "", none, "variation of SVyk/(muy·Fz) with kappa"},
        {"RVY6", &P::RVY6, "", none, "variation of SVyk/(muy·Fz) with atan(kappa)"},
        {"LXAL", &P::LXAL, "", 0.0, "scale factor of the influence of alpha on Fx"},
        {"LYKA", &P::LYKA, "", 0.0, "scale factor of the influence of kappa on Fy"},
        {"LVYKA", &P::LVYKA, "", none, "scale factor of the kappa-induced side force SVyk"},
    };
    return table;
  }
};

/// The terms of the PAC2002 pure lateral slip force, for a component that
/// wants more than Fy (Dy is the peak force, Kya the cornering stiffness).
struct Pac2002LateralTerms {
  Expr dfz, SHy, alpha_y, Cy, muy, Dy, Ey, Kya, By, SVy, Fy;
};

namespace detail {

using Pac2002Lookup = std::function<Expr(const char*)>;

// The load as pac2002_longitudinal reads it (none off the ground) and its
// deviation from the nominal load: both forces must agree on them.
struct Pac2002Load {
  Expr load, Fz0, dfz;
};
inline Pac2002Load pac2002_load(const Pac2002Lookup& c, const Expr& Fz) {
  const Expr load = no_event(max(Fz, 0.0));
  const Expr Fz0 = c("LFZO") * c("FNOMIN");
  return {load, Fz0, (load - Fz0) / Fz0};
}

// SVyk scales with the lateral friction, so it needs muy exactly as Fy has it.
inline Expr pac2002_muy(const Pac2002Lookup& c, const Expr& dfz, const Expr& mu_scale) {
  return (c("PDY1") + c("PDY2") * dfz) * (c("LMUY") * mu_scale);
}

// The weighting function of combined slip: the cosine curve at the shifted
// slip over its value at zero slip, so it is exactly 1 there. Above 0: with a
// shape factor over 1 the cosine turns negative at large slip, which would
// turn the force along the slip.
inline Expr pac2002_weight(const Expr& B, const Expr& C, const Expr& E, const Expr& slip, const Expr& shift) {
  const auto curve = [&](const Expr& s) {
    const Expr Bs = B * s;
    return cos(C * atan(Bs - E * (Bs - atan(Bs))));
  };
  return no_event(max(curve(slip + shift) / curve(shift), 0.0));
}

}  // namespace detail

/// PAC2002 / MF-Tyre 5.2 lateral force under pure side slip (Pacejka, Tire and
/// Vehicle Dynamics, eqs. 4.E19-4.E30; no camber, no turn slip) as an
/// expression: `coefficient(name)` gives each coefficient of
/// Pac2002Lateral::fields() and FNOMIN and LFZO of Pac2002Longitudinal (a
/// Parameter, or a constant), alpha is the slip angle, Fz the vertical load and
/// mu_scale the road's friction relative to the tire data (it multiplies LMUY).
///
/// Signs: ISO 8855, the axes of MF-Tyre's ISO-W system (x forward, y left, z
/// up). tan(alpha) = v_lateral/|v_longitudinal| of the contact point: alpha is
/// positive when the contact slides to the left, in (-π/2, π/2); Fy is positive
/// to the left. The coefficients are used as the .TIR file gives them, no sign
/// flipped: an ISO-W property file has PKY1 < 0, so Kya < 0 and near zero slip
/// Fy ≈ Kya·alpha opposes the sliding with the tire's cornering stiffness
/// |Kya|. MF 5.2 evaluates alpha* = tan(alpha)·sign(Vcx); measured against
/// |v_longitudinal| the sign is 1, so alpha* = tan(alpha) here, and the slope
/// at zero slip is still Kya.
///
///   dfz = (Fz - Fz0')/Fz0', Fz0' = LFZO·FNOMIN     alpha* = tan(alpha)
///   SHy = (PHY1 + PHY2·dfz)·LHY     alpha_y = alpha* + SHy     Cy = PCY1·LCY
///   muy = (PDY1 + PDY2·dfz)·LMUY·mu_scale     Dy = muy·Fz
///   Ey = min((PEY1 + PEY2·dfz)·(1 - PEY3·sign(alpha_y))·LEY, 1)
///   Kya = PKY1·Fz0'·sin(2·atan(Fz/(PKY2·Fz0')))·LKY     By = Kya/(max(Cy·Dy, 0) + 1e-6 N)
///   SVy = Fz·(PVY1 + PVY2·dfz)·LVY·LMUY·mu_scale
///   Fy = Dy·sin(Cy·atan(By·alpha_y - Ey·(By·alpha_y - atan(By·alpha_y)))) + SVy
///
/// The guards are pac2002_longitudinal's: Fz < 0 is read as 0, where Kya, Dy
/// and SVy vanish and Fy = 0; the 1e-6 N keeps By finite at any load; sign, min
/// and the load clamp generate no events.
inline Pac2002LateralTerms pac2002_lateral(const std::function<Expr(const char*)>& coefficient, const Expr& alpha,
                                           const Expr& Fz, const Expr& mu_scale) {
  const auto& c = coefficient;
  Pac2002LateralTerms t;
  const auto [load, Fz0, dfz] = detail::pac2002_load(c, Fz);
  t.dfz = dfz;
  t.SHy = (c("PHY1") + c("PHY2") * t.dfz) * c("LHY");
  t.alpha_y = tan(alpha) + t.SHy;
  t.Cy = c("PCY1") * c("LCY");
  t.muy = detail::pac2002_muy(c, t.dfz, mu_scale);
  t.Dy = t.muy * load;
  t.Ey = no_event(min((c("PEY1") + c("PEY2") * t.dfz) * (1.0 - c("PEY3") * sign(t.alpha_y)) * c("LEY"), 1.0));
  t.Kya = c("PKY1") * Fz0 * sin(2.0 * atan(load / (c("PKY2") * Fz0))) * c("LKY");
  t.By = t.Kya / (no_event(max(t.Cy * t.Dy, 0.0)) + 1e-6);
  t.SVy = load * (c("PVY1") + c("PVY2") * t.dfz) * c("LVY") * (c("LMUY") * mu_scale);
  const Expr Ba = t.By * t.alpha_y;
  t.Fy = t.Dy * sin(t.Cy * atan(Ba - t.Ey * (Ba - atan(Ba)))) + t.SVy;
  return t;
}

/// The PAC2002 pure lateral slip force Fy alone (see pac2002_lateral).
inline Expr pac2002_fy(const std::function<Expr(const char*)>& coefficient, const Expr& alpha, const Expr& Fz,
                       const Expr& mu_scale) {
  return pac2002_lateral(coefficient, alpha, Fz, mu_scale).Fy;
}

/// PAC2002 / MF-Tyre 5.2 combined slip (Pacejka, Tire and Vehicle Dynamics,
/// eqs. 4.E50-4.E67; no camber): the pure slip forces Fx0 (pac2002_fx at
/// kappa) and Fy0 (pac2002_fy at alpha) become
///
///   Fx = Gxa·Fx0     Fy = Gyk·Fy0 + SVyk
///
/// with kappa, alpha, Fz, the signs and the coefficient lookup as in
/// pac2002_longitudinal and pac2002_lateral, alpha* = tan(alpha) and dfz as
/// there (Fz < 0 read as 0):
///
///   Gxa = max(cos(Cxa·atan(Bxa·as - Exa·(Bxa·as - atan(Bxa·as)))) / Gxa0, 0),  as = alpha* + SHxa
///   Gxa0 = cos(Cxa·atan(Bxa·SHxa - Exa·(Bxa·SHxa - atan(Bxa·SHxa))))
///   Bxa = RBX1·cos(atan(RBX2·kappa))·LXAL   Cxa = RCX1   Exa = min(REX1 + REX2·dfz, 1)   SHxa = RHX1
///
///   Gyk = max(cos(Cyk·atan(Byk·ks - Eyk·(Byk·ks - atan(Byk·ks)))) / Gyk0, 0),  ks = kappa + SHyk
///   Gyk0 = cos(Cyk·atan(Byk·SHyk - Eyk·(Byk·SHyk - atan(Byk·SHyk))))
///   Byk = RBY1·cos(atan(RBY2·(alpha* - RBY3)))·LYKA   Cyk = RCY1   Eyk = min(REY1 + REY2·dfz, 1)
///   SHyk = RHY1 + RHY2·dfz
///
///   SVyk = DVyk·sin(RVY5·atan(RVY6·kappa))·LVYKA
///   DVyk = muy·Fz·(RVY1 + RVY2·dfz)·cos(atan(RVY4·alpha*))   (muy of pac2002_lateral)
///
/// Gxa(kappa, 0) = 1 and Gyk(0, alpha) = 1 exactly, and SVyk(0, alpha) = 0:
/// either pure slip gives the pure slip force. Without shifts (RHX1, RHY1,
/// RHY2) the numerator's cosine is largest at zero slip and both weights are
/// at most 1; a shift moves that maximum off zero slip, where a weight then
/// exceeds 1 by O((C·B·shift)²), as in PAC2002. The max(..., 0) keeps a shape
/// factor above 1 from turning the force along the slip at large slip.
inline Expr pac2002_gx_alpha(const std::function<Expr(const char*)>& coefficient, const Expr& kappa,
                             const Expr& alpha, const Expr& Fz) {
  const auto& c = coefficient;
  const Expr dfz = detail::pac2002_load(c, Fz).dfz;
  const Expr B = c("RBX1") * cos(atan(c("RBX2") * kappa)) * c("LXAL");
  const Expr E = no_event(min(c("REX1") + c("REX2") * dfz, 1.0));
  return detail::pac2002_weight(B, c("RCX1"), E, tan(alpha), c("RHX1"));
}

/// The weight of Fy under longitudinal slip, Gyk (see pac2002_gx_alpha).
inline Expr pac2002_gy_kappa(const std::function<Expr(const char*)>& coefficient, const Expr& kappa,
                             const Expr& alpha, const Expr& Fz) {
  const auto& c = coefficient;
  const Expr dfz = detail::pac2002_load(c, Fz).dfz;
  const Expr B = c("RBY1") * cos(atan(c("RBY2") * (tan(alpha) - c("RBY3")))) * c("LYKA");
  const Expr E = no_event(min(c("REY1") + c("REY2") * dfz, 1.0));
  return detail::pac2002_weight(B, c("RCY1"), E, kappa, c("RHY1") + c("RHY2") * dfz);
}

/// The side force induced by longitudinal slip, SVyk (see pac2002_gx_alpha);
/// mu_scale as in pac2002_lateral.
inline Expr pac2002_svy_kappa(const std::function<Expr(const char*)>& coefficient, const Expr& kappa,
                              const Expr& alpha, const Expr& Fz, const Expr& mu_scale) {
  const auto& c = coefficient;
  const detail::Pac2002Load l = detail::pac2002_load(c, Fz);
  const Expr DVyk = detail::pac2002_muy(c, l.dfz, mu_scale) * l.load * (c("RVY1") + c("RVY2") * l.dfz) *
                    cos(atan(c("RVY4") * tan(alpha)));
  return DVyk * sin(c("RVY5") * atan(c("RVY6") * kappa)) * c("LVYKA");
}

/// Coefficient lookup from a set of numbers (the lateral coefficients only).
inline std::function<Expr(const char*)> pac2002_lateral_constants(const Pac2002Lateral& values) {
  return [values](const char* name) -> Expr {
    for (const auto& field : Pac2002Lateral::fields())
      if (std::string_view(field.name) == name) return values.*field.member;
    throw std::logic_error(std::string("pac2002_lateral_constants: no coefficient ") + name);
  };
}

/// Coefficient lookup from both sets of numbers: what pac2002_lateral and the
/// combined-slip functions need (FNOMIN and LFZO come from `longitudinal`),
/// and pac2002_fx too.
inline std::function<Expr(const char*)> pac2002_constants(const Pac2002Longitudinal& longitudinal,
                                                          const Pac2002Lateral& lateral) {
  return [longitudinal, lateral](const char* name) -> Expr {
    for (const auto& field : Pac2002Lateral::fields())
      if (std::string_view(field.name) == name) return lateral.*field.member;
    for (const auto& field : Pac2002Longitudinal::fields())
      if (std::string_view(field.name) == name) return longitudinal.*field.member;
    throw std::logic_error(std::string("pac2002_constants: no coefficient ") + name);
  };
}

}  // namespace acausal::vehicle
