#pragma once

#include "components/blocks/tables/interpolation.hpp"
#include "components/vehicle/tires/linear_law.hpp"
#include "components/vehicle/tires/magic_formula.hpp"
#include "components/vehicle/tires/pac2002.hpp"
#include "components/vehicle/tires/tanh_law.hpp"
#include "components/vehicle/tires/tir_file.hpp"
#include "connectors/rotational.hpp"
#include "connectors/wheel_contact.hpp"

namespace acausal::vehicle {

/// The Wheel's tire law, a structural choice (`{"tire_law", TireLaw::pacejka}`
/// in C++, `tire_law="pacejka"` in Python): the laws not chosen, their
/// variables and their events are not compiled.
struct TireLaw {
  enum : int { tanh, linear, pacejka, pac2002 };
  static inline const std::vector<std::string> names = {"tanh", "linear", "pacejka", "pac2002"};
};

/// Wheel with rotational inertia and a slip-based tire law, coupling the
/// driveline (flange_rot) to the body (contact). The tire laws read the
/// practical longitudinal slip kappa = (ω·r - v)/|v| (SAE J670, ISO 8855: a
/// locked wheel reads -1), with |v| replaced below v_eps by
/// (v²/v_eps + v_eps)/2 (same value and slope at v_eps, v_eps/2 at standstill),
/// so a wheel spinning on the spot has a finite slip. The force saturates at
/// F_max = μ·N: wheel spin emerges when τ/r exceeds it.
/// tire_law: tanh, the saturation μN·tanh(slip_stiffness·κ/μ); linear, the
/// saturated-linear law of seed 000, N·clamp(κ/slip_compliance, ±μ);
/// pacejka, the magic formula μN·D·sin(C·atan(B·κ - E·(B·κ - atan(B·κ)))),
/// with κ held within ±kappa_max (its fitted range); pac2002, the
/// load-dependent magic formula of PAC2002 (its coefficients FNOMIN, PCX1 …
/// LVX are parameters of the wheel; load_tir() reads them from a .TIR file),
/// with the road's μ scaling the tire's friction (μ = 1: the surface the
/// coefficients were measured on) and κ held within ±kappa_max.
/// relaxation (optional): the tread carries the slip κ' = u_tread/sigma,
/// relaxing as sigma·g·dκ'/dt = ω·r - v - |v|·κ' (g = |dF/dκ'|/S, S the law's
/// slip stiffness: the relaxation length shrinks as the law saturates), and
/// the law reads κ' + d_tread·(tread rate)/S_nominal: the force builds up over
/// a rolling distance sigma, the tread's spring and damper together never
/// exceed the law's peak, a sliding tread keeps no more deflection than its
/// peak force needs, and at standstill the tire is a damped spring, so a
/// braked car holds on a slope. d_tread is the damping at the nominal load
/// FNOMIN. F_peak is the law's peak at the current load (μN; D·μN for the
/// magic formula; |Dx| + |SVx| for PAC2002): |F_traction| ≤ F_peak always.
/// Seed 000's slips S_a = (ω·r - v)/|ω·r|, s_a and s_b are outputs.
/// The load N = c_z·δ comes from the tire deflection δ = -contact.s_normal;
/// with lift_off (for bodies with a suspension) it is c_z·max(δ, 0).
/// μ may change along the road: between patch_start and patch_end (blended
/// over patch_blend) it is mu_patch (an ice patch, one side of a split-μ road).
/// set_friction_table() replaces both by a table μ(position).
/// Rolling resistance is a torque Crr·N·r·tanh(ω·r/v_eps) against rotation.
struct Wheel : Component {
  rotational::Flange flange_rot{*this, "flange_rot"};
  WheelContact contact{*this, "contact"};
  Parameter radius = parameter("radius", 0.3, {.unit = "m", .min = 1e-6});
  Parameter J = parameter("J", 1.0, {.unit = "kg.m2", .min = 1e-9});
  Parameter mu = parameter("mu", 0.8, {.min = 0});
  Parameter c_z = parameter("c_z", 2.5e5, {.unit = "N/m", .min = 1e-6});
  Parameter Crr = parameter("Crr", 0.0, {.min = 0});
  Parameter tire_law = parameter("tire_law", TireLaw::tanh,
                                 {.description = "tire law (tanh, linear, pacejka)", .choices = TireLaw::names});
  Parameter slip_stiffness = parameter("slip_stiffness", 100.0, {.min = 1e-6});
  Parameter slip_compliance = parameter("slip_compliance", 0.01, {.min = 1e-9});
  Parameter B = parameter("B", 10.0, {.min = 0});
  Parameter C = parameter("C", 1.9, {.min = 0});
  Parameter D = parameter("D", 1.0, {.min = 0});
  Parameter E = parameter("E", 0.97, {.max = 1});  // E > 1 reverses the force at large slip
  Parameter kappa_max = parameter("kappa_max", 1.5, {.min = 1e-3, .description = "slip range of the magic formula"});
  Parameter v_eps = parameter("v_eps", 0.1, {.unit = "m/s", .min = 1e-9});
  std::vector<Parameter> pac2002 = pac2002_parameters();
  Parameter relaxation = parameter("relaxation", 0.0,
                                   {.description = "tread deflection with relaxation length sigma (no, yes)",
                                    .choices = {"no", "yes"}});
  Parameter sigma = parameter("sigma", 0.3, {.unit = "m", .min = 1e-6, .description = "relaxation length"});
  Parameter d_tread = parameter("d_tread", 1e4, {.unit = "N.s/m", .min = 0, .description = "tread damping at the nominal load FNOMIN"});
  Parameter mu_patch = parameter("mu_patch", 0.1, {.min = 0});
  Parameter patch_start = parameter("patch_start", 0.0, {.unit = "m"});
  Parameter patch_end = parameter("patch_end", 0.0, {.unit = "m"});
  Parameter patch_blend = parameter("patch_blend", 0.05, {.unit = "m", .min = 1e-9});
  Parameter lift_off = parameter("lift_off", 0.0,
                                 {.description = "the tire can leave the road (yes: N = c_z·max(deflection, 0))",
                                  .choices = {"no", "yes"}});

  Variable phi = variable("phi", {.unit = "rad"});
  Variable omega = variable("omega", {.unit = "rad/s", .state = StateSelect::prefer});
  Variable v = variable("v", {.unit = "m/s"});
  Variable N = variable("N", {.unit = "N"});
  Variable deflection = variable("deflection", {.unit = "m"});
  Variable mu_road = variable("mu_road");
  Variable F_max = variable("F_max", {.unit = "N", .description = "μ·N"});
  Variable F_peak = variable("F_peak", {.unit = "N", .description = "the tire law's peak force at this load: |F_traction| never exceeds it"});
  Variable F_traction = variable("F_traction", {.unit = "N"});
  Variable v_slip = variable("v_slip", {.unit = "m/s"});
  Variable kappa = variable("kappa", {.description = "practical slip (ω·r - v)/|v|"});
  Variable u_tread = variable("u_tread", {.unit = "m", .description = "sigma times the slip the tread carries (relaxation)"});
  Variable kappa_tread = variable("kappa_tread", {.description = "the slip the tire law reads (relaxation: of the tread's spring plus damper)"});
  Variable E_tread = variable("E_tread", {.unit = "J", .description = "work done on the tread (relaxation)"});
  Variable S_a = variable("S_a");
  Variable s_a = variable("s_a");
  Variable s_b = variable("s_b");
  Variable tau_roll = variable("tau_roll", {.unit = "N.m"});
  Variable P_rot = variable("P_rot", {.unit = "W"});
  Variable P_trans = variable("P_trans", {.unit = "W"});
  Variable P_slip = variable("P_slip", {.unit = "W"});

  explicit Wheel(std::string name) : Component(std::move(name)) {
    const Expr squeezed = ifelse(chosen(lift_off, 1), max(deflection, 0.0), deflection);
    // The vertical spring's energy is the body's to book (WheelContact).
    stored_energy(0.5 * J * omega * omega + E_tread);
    dissipated_power(P_slip + tau_roll * omega);
    // An inverted patch would blend mu beyond mu_patch, the wrong way.
    require(patch_end >= patch_start, "patch_end must be at least patch_start");
    const Expr rim_speed = omega * radius;
    const Expr x = contact.s_traction;
    equation(phi == flange_rot.phi);
    equation(omega == der(phi));
    equation(v == der(contact.s_traction));
    equation(N == -contact.f_normal);
    // A body that sets the axle load (quasi-static) needs N = c_z·deflection
    // to fix the deflection; one whose suspension sets the axle's height can
    // let the tire leave the road (an event; no load, so no traction, while airborne).
    equation(N == c_z * squeezed);
    // With no load the tire gives no force at all: a car that never brakes.
    expect(N > 0, "no_load", N,
           "no vertical load (N = 0 from the parameters alone): contact's normal axis is unconnected or "
           "loaded by zero, so the tire gives no traction or braking force; connect contact to a body or a load");
    equation(contact.s_normal == -deflection);
    friction_law_ = equation(mu_road == mu + (mu_patch - mu) * 0.5 * (tanh((x - patch_start) / patch_blend) -
                                                                      tanh((x - patch_end) / patch_blend)));
    equation(F_max == mu_road * N);
    equation(v_slip == rim_speed - v);
    equation(S_a == v_slip / sqrt(rim_speed * rim_speed + v_eps * v_eps));
    equation(s_a == v_slip * rim_speed / (rim_speed * rim_speed + v_eps * v_eps));
    equation(s_b == v_slip * v / (v * v + v_eps * v_eps));
    // C1 across v_eps and at v = 0: no events needed (a kink in the second
    // derivative only, which the integrator's error control steps over).
    const Expr speed = no_event(ifelse(abs(v) >= v_eps, abs(v), 0.5 * (v * v / v_eps + v_eps)));
    equation(kappa == v_slip / speed);
    // v·tanh(v/v_eps) is |v| away from standstill and exactly 0 there: the
    // tread neither relaxes nor creeps when the car stands.
    const Expr relaxes = chosen(relaxation, 1), kappa_carried = u_tread / sigma;
    // The rate of the tread's deflection: ω·r - v - |v|·κ'.
    const Expr tread_rate = v_slip - v * tanh(v / v_eps) * kappa_carried;
    // The law as a function of the slip it reads: its force, and its slip
    // stiffness S = dF/dκ at κ = 0 [N].
    struct LawAt {
      Expr force, slope;
    };
    const auto choose = [&](const Expr& tanh_case, const Expr& linear_case, const Expr& pacejka_case,
                            const Expr& pac2002_case) {
      return ifelse(chosen(tire_law, TireLaw::tanh), tanh_case,
                    ifelse(chosen(tire_law, TireLaw::linear), linear_case,
                           ifelse(chosen(tire_law, TireLaw::pacejka), pacejka_case, pac2002_case)));
    };
    // PAC2002 at a slip and a load (the wheel's N, or FNOMIN for the damper's nominal stiffness).
    const auto pac2002_at = [&](const Expr& k_fit, const Expr& load) {
      return pac2002_longitudinal([&](const char* name) { return Expr(pac2002_coefficient(name)); }, k_fit, load,
                                  mu_road);
    };
    const auto law_at = [&](const Expr& k) {
      // The magic formula is fitted on a slip range (a .TIR's KPUMIN/KPUMAX);
      // beyond it, a wheel spinning on the spot would read the formula's far
      // tail: it reads the range's end instead.
      const Expr k_fit = no_event(max(min(k, kappa_max), -kappa_max));
      const Pac2002Terms pac = pac2002_at(k_fit, N);
      return LawAt{choose(tanh_tire_force(F_max, slip_stiffness, k, mu_road),
                          linear_tire_force(N, slip_compliance, k, mu_road),
                          magic_formula_force(F_max, B, C, D, E, k_fit), pac.Fx),
                   choose(N * slip_stiffness, N / slip_compliance, F_max * D * C * B, pac.Kx)};
    };
    // Relaxation (Pacejka, Tire and Vehicle Dynamics, the nonlinear
    // first-order model): the tread carries the slip κ' = u/sigma, and
    //   sigma·g·dκ'/dt = ω·r - v - |v|·κ',   g = |dF/dκ'|/S,
    // the relaxation length shrinking as the law saturates (floored at 0.1 %).
    // The tread's physical deflection moves at sigma·g·dκ'/dt = tread_rate,
    // so a sliding tire stores at most its peak force's worth of deflection
    // (a few mm) instead of sigma: a car braked to a stop on locked wheels
    // does not spring back. In steady state κ' = κ: the law's own force.
    const LawAt carried = law_at(kappa_carried);
    const Expr law_slope = diff(carried.force, u_tread) * sigma;
    const Expr softening = law_slope * carried.slope / (carried.slope * carried.slope + 1e-12);
    equation(0.0 == ifelse(relaxes, sqrt(softening * softening + 1e-6) * der(u_tread) - tread_rate,
                           v_eps * u_tread / sigma));
    // A damper d_tread beside the tread's spring, inside the friction limit:
    // the law reads the slip of spring plus damper, κ' + d_tread·tread_rate/S_nominal,
    // so the total force never exceeds the law's peak (a tread element slides
    // once its force reaches friction: the brush model), and at small slip
    // F = S·κ' + (S/S_nominal)·d_tread·tread_rate: the damped spring that holds
    // a braked car on a slope, d_tread at the nominal load FNOMIN. The
    // nominal stiffness keeps the load out of the damper: a damper read
    // through S(N) closed a loop force → deceleration → load transfer → force
    // with a gain above one under hard braking.
    const Expr nominal = pac2002_coefficient("FNOMIN");
    const Expr S_nominal = choose(nominal * slip_stiffness, nominal / slip_compliance, mu_road * nominal * D * C * B,
                                  pac2002_at(Expr(0.0), nominal).Kx);
    equation(kappa_tread == ifelse(relaxes, kappa_carried + d_tread * tread_rate / S_nominal, kappa));
    const Expr elastic = carried.force;  // the tread spring's force: the E_tread ledger and P_slip below
    equation(F_traction == law_at(kappa_tread).force);
    // The law's own peak at this load: μN, or D·μN for the magic formula, and
    // for PAC2002 |Dx| + |SVx| (its load sensitivity moves the peak off μN).
    const Pac2002Terms pac_peak = pac2002_at(Expr(0.0), N);
    equation(F_peak == choose(F_max, F_max, F_max * D, no_event(abs(pac_peak.Dx) + abs(pac_peak.SVx))));
    // The tread stores the work its elastic force does on it (the force
    // depends on the load too, so this is a ledger, not a potential); the
    // slip power not stored is dissipated.
    equation(0.0 == ifelse(relaxes, der(E_tread) - elastic * tread_rate, E_tread * v_eps / sigma));
    equation(contact.f_traction == -F_traction);
    equation(tau_roll == Crr * N * radius * tanh(rim_speed / v_eps));
    equation(J * der(omega) == flange_rot.tau - radius * F_traction - tau_roll);
    equation(P_rot == flange_rot.tau * omega);
    equation(P_trans == F_traction * v);
    equation(P_slip == F_traction * v_slip - ifelse(relaxes, elastic * tread_rate, 0.0));
  }

  /// Sets the pac2002 coefficients from a .TIR file's longitudinal sections
  /// (read_tir_longitudinal; coefficients the file leaves out keep their
  /// values). Call before compiling, and choose tire_law = pac2002.
  void load_tir(const std::string& path) {
    const Pac2002Longitudinal read = read_tir_longitudinal(path);
    // All or nothing: a value the wheel refuses (outside a bound) leaves the
    // coefficients as they were, not half of the file applied.
    std::vector<std::pair<std::string, double>> before;
    for (const ParameterDecl& p : parameters()) before.emplace_back(p.name, p.value);
    try {
      for (const auto& field : Pac2002Longitudinal::fields()) set_parameter(field.name, read.*field.member);
    } catch (const ModelError&) {
      for (const auto& [name, value] : before) set_parameter(name, value);
      throw;
    }
  }

  /// Road friction as a table of (position of the contact [m], μ) points,
  /// interpolated linearly and held beyond its ends, in place of mu and the
  /// patch (seed 004's terrain). Call before compiling.
  void set_friction_table(const std::vector<std::pair<double, double>>& points) {
    for (const auto& [x, value] : points)
      if (!(value >= 0.0)) throw ModelError(path() + ": friction table value " + std::to_string(value) + " at x = " +
                                            std::to_string(x) + " must be >= 0");
    replace_equation(friction_law_, mu_road == blocks::piecewise_linear(contact.s_traction, points,
                                                                        path() + " friction table", "positions"));
  }

 private:
  std::vector<Parameter> pac2002_parameters() {
    std::vector<Parameter> declared;
    const Pac2002Longitudinal defaults;
    for (const auto& field : Pac2002Longitudinal::fields())
      declared.push_back(parameter(field.name, defaults.*field.member,
                                   {.unit = field.unit, .min = field.min, .description = field.description}));
    return declared;
  }
  const Parameter& pac2002_coefficient(const char* name) const {
    const auto& fields = Pac2002Longitudinal::fields();
    for (std::size_t i = 0; i < fields.size(); ++i)
      if (std::string_view(fields[i].name) == name) return pac2002[i];
    throw ModelError(path() + ": no PAC2002 coefficient " + name);
  }

  std::size_t friction_law_ = 0;
};

}  // namespace acausal::vehicle
