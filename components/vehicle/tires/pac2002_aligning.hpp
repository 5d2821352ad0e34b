#pragma once

#include <functional>
#include <limits>
#include <numbers>
#include <vector>

#include "components/vehicle/tires/pac2002.hpp"
#include "components/vehicle/tires/pac2002_lateral.hpp"
#include "solver/symbolic/expr.hpp"

namespace acausal::vehicle {

/// Coefficients of the PAC2002 (MF-Tyre 5.2) aligning moment, named as in a
/// .TIR tire property file (read_tir_aligning loads them): Q*Z* and SSZ* from
/// [ALIGNING_COEFFICIENTS], UNLOADED_RADIUS (R0) from [DIMENSION], LTR, LRES
/// and LS from [SCALING_COEFFICIENTS]. The moment also reads LKY and LMUY
/// (Pac2002Lateral) and FNOMIN and LFZO (Pac2002Longitudinal).
///
/// No camber, as in Pac2002Lateral: the coefficients that multiply γ (QBZ4,
/// QBZ5, QDZ3, QDZ4, QDZ8, QDZ9, QEZ5, QHZ3, QHZ4, SSZ3, SSZ4) are left out.
///
/// The defaults are the car tire of TNO's MF-Tyre example property file, the
/// one Pac2002Lateral's defaults come from (modelica-3rdparty/ExternData,
/// ExternData/Resources/Examples/sample.tir, [ALIGNING_COEFFICIENTS]), with its
/// offsets and asymmetry set to 0 as there (the published value after such a
/// member): the trail's shift QHZ1, QHZ2, its asymmetry QEZ4, the residual
/// moment at zero slip QDZ6, QDZ7 and the arm of Fx at zero side force SSZ1.
/// A moment without slip would yaw a car whose left and right tires are the
/// same unmirrored data.
struct Pac2002Aligning {
  double UNLOADED_RADIUS = 0.3135;  // [m]
  double QBZ1 = 12.035;
  double QBZ2 = -1.33;
  double QBZ3 = 0.0;
  double QBZ9 = 34.5;
  double QBZ10 = 0.0;
  double QCZ1 = 1.2923;
  double QDZ1 = 0.09068;
  double QDZ2 = -0.00565;
  double QDZ6 = 0.0;  // 0.0017015
  double QDZ7 = 0.0;  // -0.002091
  double QEZ1 = -1.7924;
  double QEZ2 = 0.8975;
  double QEZ3 = 0.0;
  double QEZ4 = 0.0;  // 0.2895
  double QHZ1 = 0.0;  // 0.0014333
  double QHZ2 = 0.0;  // 0.0024087
  double SSZ1 = 0.0;  // 0.00918
  double SSZ2 = 0.03869;
  double LTR = 1.0;
  double LRES = 1.0;
  double LS = 1.0;

  /// One coefficient, as Pac2002Lateral::Field.
  struct Field {
    const char* name;
    double Pac2002Aligning::*member;
    const char* unit;
    double min;
    const char* description;
  };

  /// Every coefficient: the radius, the trail, the residual moment, the arm of
  /// Fx, then the scale factors.
  static const std::vector<Field>& fields() {
    constexpr double none = -std::numeric_limits<double>::infinity();
    using P = Pac2002Aligning;
    static const std::vector<Field> table = {
        {"UNLOADED_RADIUS", &P::UNLOADED_RADIUS, "m", 0.0, "free tire radius R0 (scales the trail and the moments)"},
        {"QBZ1", &P::QBZ1, "", none, "trail slope factor Bt at the nominal load"},
        {"QBZ2", &P::QBZ2, "", none, "variation of Bt with load"},
        {"QBZ3", &P::QBZ3, "", none, "variation of Bt with load squared"},
        {"QBZ9", &P::QBZ9, "", none, "slope factor Br of the residual moment"},
        {"QBZ10", &P::QBZ10, "", none, "slope factor Br of the residual moment per By·Cy"},
        {"QCZ1", &P::QCZ1, "", 0.0, "shape factor Ct of the trail"},
        {"QDZ1", &P::QDZ1, "", none, "peak trail Dt/R0·Fz0'/Fz at the nominal load"},
        {"QDZ2", &P::QDZ2, "", none, "variation of the peak trail with load"},
        {"QDZ6", &P::QDZ6, "", none, "peak residual moment Dr/(Fz·R0) at the nominal load"},
        {"QDZ7", &P::QDZ7, "", none, "variation of the peak residual moment with load"},
        {"QEZ1", &P::QEZ1, "", none, "trail curvature Et at the nominal load"},
        {"QEZ2", &P::QEZ2, "", none, "variation of Et with load"},
        {"QEZ3", &P::QEZ3, "", none, "variation of Et with load squared"},
        {"QEZ4", &P::QEZ4, "", none, "asymmetry of Et with the sign of alpha_t"},
        {"QHZ1", &P::QHZ1, "", none, "horizontal shift SHt of the trail at the nominal load"},
        {"QHZ2", &P::QHZ2, "", none, "variation of SHt with load"},
        {"SSZ1", &P::SSZ1, "", none, "arm s/R0 of Fx about the contact centre at zero side force"},
        {"SSZ2", &P::SSZ2, "", none, "variation of s/R0 with Fy/Fz0'"},
        // A negative scale would turn the moment it scales.
        {"LTR", &P::LTR, "", 0.0, "scale factor of the peak of the pneumatic trail"},
        {"LRES", &P::LRES, "", 0.0, "scale factor of the residual moment"},
        {"LS", &P::LS, "", 0.0, "scale factor of the arm of Fx"},
    };
    return table;
  }
};

/// The terms of the PAC2002 aligning moment (t is the pneumatic trail, Mzr the
/// residual moment, s the arm of Fx), for a component that wants more than Mz.
struct Pac2002AligningTerms {
  Expr SHt, alpha_t, Bt, Ct, Dt, Et, SHf, alpha_r, Br, Dr, alpha_t_eq, alpha_r_eq, t, Mzr, s, Mz;
};

/// PAC2002 / MF-Tyre 5.2 aligning moment under combined slip (Pacejka, Tire
/// and Vehicle Dynamics, pure slip eqs. 4.E31-4.E49, combined slip
/// 4.E71-4.E78; no camber, no turn slip) as an expression: `coefficient(name)`
/// gives each coefficient of Pac2002Aligning::fields(), Pac2002Lateral::fields()
/// and Pac2002Longitudinal::fields() (Kx, FNOMIN, LFZO); kappa, alpha, Fz and
/// mu_scale as in pac2002_lateral; Fx and Fy the combined forces the tire
/// delivers and Fy_prime its lateral force without SVyk.
///
/// Signs: ISO 8855, as pac2002_lateral: Mz is the road's moment on the tire
/// about the upward axis, positive counter-clockwise seen from above. An
/// ISO-W file has PKY1 < 0, so at alpha > 0 (the contact slides to the left)
/// Fy < 0, and a positive trail t behind the contact centre makes -t·Fy > 0:
/// the moment turns the wheel to the left, toward where it is going.
///
///   dfz, alpha* = tan(alpha), SHy, SVy, By, Cy and Kya of pac2002_lateral;
///   Kx of pac2002_longitudinal; λ*μy = LMUY·mu_scale; Fz0' = LFZO·FNOMIN
///   SHt = QHZ1 + QHZ2·dfz     alpha_t = alpha* + SHt
///   Bt = (QBZ1 + QBZ2·dfz + QBZ3·dfz²)·LKY/λ*μy     Ct = QCZ1
///   Dt = Fz·(R0/Fz0')·(QDZ1 + QDZ2·dfz)·LTR
///   Et = min((QEZ1 + QEZ2·dfz + QEZ3·dfz²)·(1 + QEZ4·(2/π)·atan(Bt·Ct·alpha_t)), 1)
///   SHf = SHy + SVy/Kya'     alpha_r = alpha* + SHf
///   Br = QBZ9·LKY/λ*μy + QBZ10·By·Cy     Dr = Fz·R0·(QDZ6 + QDZ7·dfz)·LRES·λ*μy
///   alpha_t,eq = √(alpha_t² + (Kx/Kya')²·kappa²)    alpha_r,eq likewise
///   t = Dt·cos(Ct·atan(Bt·alpha_t,eq - Et·(Bt·alpha_t,eq - atan(Bt·alpha_t,eq))))·cos(alpha)
///   Mzr = Dr·cos(atan(Br·alpha_r,eq))·cos(alpha)
///   s = R0·(SSZ1 + SSZ2·Fy/Fz0')·LS
///   Mz = -t·Fy' + Mzr + s·Fx
///
/// At kappa = 0 this is the pure slip moment Mz0 = -t·Fy0 + Mzr (Fy' = Fy0,
/// and s·Fx = 0 without longitudinal offsets).
///
/// The equivalent slip angles: PAC2002 codes that take alpha_t as an angle
/// (Chrono's ChPac02Tire) write them atan(√(tan²alpha_t +
/// (Kx/Kya')²·kappa²))·sgn(alpha_t); with alpha* = tan(alpha), as here and in
/// pac2002_lateral, alpha_t is already a tangent, and the form above is the
/// same formula in that variable (the 3rd edition's 4.E77, 4.E78, as MF-Tyre
/// 6.1 evaluates them). The two agree at pure slip and to first order in
/// combined slip. Taking tan of alpha_t again
/// would fold alpha_t,eq back beyond alpha_t = π/2 (alpha ≳ 57°, met sliding
/// sideways at low speed) and make the trail oscillate. The book's sgn(alpha_t)
/// is dropped: with Et taken at alpha_t, t and Mzr are even in the equivalent
/// angle, so the sign changes nothing, except at alpha_t = 0 exactly, where
/// sgn(0) = 0 would make t jump to Dt under longitudinal slip; without it t is
/// continuous there.
///
/// Guards, none of them generating events: Kya' = Kya - 1e-6 N (ISO signs:
/// Kya <= 0, the 1e-6 keeps it from 0 at zero load, where SVy and Kx vanish
/// too); 1e-12 added to λ*μy where it divides (a frictionless road); 1e-24
/// added under each root, so its derivative stays finite at zero slip (alpha_t
/// and alpha_r change by at most 1e-12). Fz < 0 is read as 0, where Dt, Dr and
/// so Mz vanish (with Fx = Fy = 0).
inline Pac2002AligningTerms pac2002_aligning(const std::function<Expr(const char*)>& coefficient, const Expr& kappa,
                                             const Expr& alpha, const Expr& Fz, const Expr& mu_scale, const Expr& Fx,
                                             const Expr& Fy, const Expr& Fy_prime) {
  const auto& c = coefficient;
  Pac2002AligningTerms a;
  // Built again, these are the very nodes the forces use (expressions are interned).
  const Pac2002Terms along = pac2002_longitudinal(c, kappa, Fz, mu_scale);
  const Pac2002LateralTerms across = pac2002_lateral(c, alpha, Fz, mu_scale);
  const auto [load, Fz0, dfz] = detail::pac2002_load(c, Fz);
  const Expr R0 = c("UNLOADED_RADIUS");
  const Expr friction_scale = c("LMUY") * mu_scale;
  const Expr per_friction = c("LKY") / (friction_scale + 1e-12);
  const Expr Kya = across.Kya - 1e-6;
  const Expr slip_term = along.Kx / Kya * kappa;
  const Expr slip_term_squared = slip_term * slip_term + 1e-24;

  a.SHt = c("QHZ1") + c("QHZ2") * dfz;
  a.alpha_t = tan(alpha) + a.SHt;
  a.Bt = (c("QBZ1") + c("QBZ2") * dfz + c("QBZ3") * dfz * dfz) * per_friction;
  a.Ct = c("QCZ1");
  a.Dt = load * (R0 / Fz0) * (c("QDZ1") + c("QDZ2") * dfz) * c("LTR");
  a.Et = no_event(min((c("QEZ1") + c("QEZ2") * dfz + c("QEZ3") * dfz * dfz) *
                          (1.0 + c("QEZ4") * (2.0 / std::numbers::pi) * atan(a.Bt * a.Ct * a.alpha_t)),
                      1.0));
  a.SHf = across.SHy + across.SVy / Kya;
  a.alpha_r = tan(alpha) + a.SHf;
  a.Br = c("QBZ9") * per_friction + c("QBZ10") * across.By * across.Cy;
  a.Dr = load * R0 * (c("QDZ6") + c("QDZ7") * dfz) * c("LRES") * friction_scale;
  a.alpha_t_eq = sqrt(a.alpha_t * a.alpha_t + slip_term_squared);
  a.alpha_r_eq = sqrt(a.alpha_r * a.alpha_r + slip_term_squared);

  const Expr cos_alpha = cos(alpha), x = a.Bt * a.alpha_t_eq;
  a.t = a.Dt * cos(a.Ct * atan(x - a.Et * (x - atan(x)))) * cos_alpha;
  a.Mzr = a.Dr * cos(atan(a.Br * a.alpha_r_eq)) * cos_alpha;
  a.s = R0 * (c("SSZ1") + c("SSZ2") * Fy / Fz0) * c("LS");
  a.Mz = -a.t * Fy_prime + a.Mzr + a.s * Fx;
  return a;
}

}  // namespace acausal::vehicle
