#pragma once

#include <fmt/format.h>

#include <string>
#include <utility>
#include <vector>

#include "components/vehicle/tires/combined_slip.hpp"
#include "components/vehicle/tires/magic_formula.hpp"
#include "components/vehicle/tires/pac2002.hpp"
#include "components/vehicle/tires/pac2002_aligning.hpp"
#include "components/vehicle/tires/pac2002_lateral.hpp"
#include "components/vehicle/tires/tir_file.hpp"
#include "connectors/planar.hpp"
#include "connectors/rotational.hpp"
#include "connectors/signal.hpp"
#include "solver/symbolic/table.hpp"

namespace acausal::vehicle {

/// The PlanarWheel's combined-slip law, a structural choice
/// (`tire_law="pacejka"` in Python): the laws not chosen are not compiled.
struct PlanarTireLaw {
  enum : int { tanh, linear, pacejka, pac2002 };
  static inline const std::vector<std::string> names = {"tanh", "linear", "pacejka", "pac2002"};
};

/// A wheel rolling on the road plane with longitudinal and lateral slip (the
/// Wheel's planar sibling, for handling). `frame` is the wheel centre on the
/// road, its orientation the wheel's heading (steering included: mount it on
/// the body through a planar::PrescribedRevolute to steer it); `flange_rot`
/// drives and brakes the wheel's spin; the input `N` is the vertical load the
/// body puts on it (a load transfer computes it; negative loads are read as 0,
/// a wheel in the air). The contact's velocity in the wheel's axes,
/// v_long and v_lat, gives the practical slips of SAE J670 / ISO 8855:
///   kappa = (ω·r − v_long)/|v_long|,   tan(alpha) = v_lat/|v_long|,
/// |v_long| replaced below v_eps by (v_long²/v_eps + v_eps)/2 as in the Wheel,
/// so a wheel spinning or sliding sideways at standstill has finite slips
/// (alpha > 0: the contact slides to the wheel's left, the force pushes right).
/// The laws combine both slips by normalized slip (similarity_combined): the
/// total force √(Fx² + Fy²) never exceeds F_peak (μ·N; μ·N·max(D, D_y) for
/// the magic formula), and driving or braking only takes lateral force away.
/// tire_law: tanh, μN·tanh(s) with s the combined slip scaled by the slip
/// stiffness (per unit slip and N) and the cornering stiffness (per rad and
/// N); linear, μN·min(s, 1) (the friction ellipse on seed 000's
/// saturated-linear law, slip_compliance the slip at which Fx reaches μN);
/// pacejka, the magic formula per direction (B, C, D, E and B_y … E_y), the
/// scaled slip held within B·kappa_max (the formula's fitted range).
/// pac2002, PAC2002 with its own combined slip: Fx = Gxα·Fx0(κ), Fy =
/// Gyκ·Fy0(α) + SVyκ (pac2002.hpp, pac2002_lateral.hpp; coefficients as
/// parameters named as in a .TIR file, load_tir() reads both directions and
/// the aligning moment), the road's μ scaling the tire's friction and κ held
/// within ±kappa_max. Its weighting functions do not bound the resultant by
/// themselves: where √(Fx² + Fy²) would exceed F_peak = max(|Dx| + |SVx|,
/// |Dy| + |SVy|), the larger of the pure-slip peaks at this load, both are
/// scaled back onto it.
/// μ is `mu`, or a map μ(x, y) over the road (set_friction_map: a split-μ
/// road, a wet patch). Rolling resistance Crr·N·r·tanh(ω·r/v_eps) is a torque
/// against the spin (the planar body has none of its own). No camber. The
/// PAC2002 coefficients are parameters of every PlanarWheel; only pac2002
/// reads them.
/// aligning_moment (structural; off by default: Mz = trail = 0) adds the road's
/// moment Mz about the vertical axis (counter-clockwise seen from above, it
/// turns the wheel toward where it goes), passed on as frame.tau = −Mz: the
/// brush model's Mz = −trail·Fy for tanh, linear and pacejka (trail_0 at zero
/// slip, 0 at full sliding), PAC2002's −t·Fy' + Mzr + s·Fx for pac2002
/// (pac2002_aligning.hpp). P_slip then includes the moment's −Mz·der(frame.phi).
/// lateral_relaxation (structural; off by default, the lateral force then
/// follows the slip angle at once): the law reads a relaxed slip angle
/// alpha_t, a state, instead of alpha (the longitudinal slip is not relaxed):
///   sigma_y·d(tan alpha_t)/dt + |v_long|·tan alpha_t = v_lat,
/// |v_long| regularized below v_eps as in the slips, so the equation stays
/// regular at standstill: the lateral deflection builds up over a rolling
/// distance sigma_y (the relaxation length, the cornering stiffness over the
/// lateral tread stiffness), 1 − exp(−v·t/sigma_y) after a step at speed v,
/// and in steady state alpha_t = alpha. The law saturates in alpha_t, so
/// √(Fx² + Fy²) ≤ F_peak still holds. The tread's deflection σ·tan(alpha_t)
/// stores the work the lateral force does on it (E_lat, a ledger as the
/// Wheel's E_tread); P_slip is the rest, Fx·v_slip − Fy·|v_long|·tan(alpha_t).
struct PlanarWheel : Component {
  planar::Frame frame{*this, "frame"};
  rotational::Flange flange_rot{*this, "flange_rot"};
  RealInput N{*this, "N", {.unit = "N"}};
  Parameter radius = parameter("radius", 0.3, {.unit = "m", .min = 1e-6});
  Parameter J = parameter("J", 1.0, {.unit = "kg.m2", .min = 1e-9});
  Parameter mu = parameter("mu", 0.9, {.min = 0});
  Parameter tire_law = parameter("tire_law", PlanarTireLaw::tanh,
                                 {.description = "combined-slip tire law (tanh, linear, pacejka, pac2002)",
                                  .choices = PlanarTireLaw::names});
  Parameter slip_stiffness =
      parameter("slip_stiffness", 20.0, {.min = 1e-6, .description = "longitudinal force per unit slip and N (tanh)"});
  Parameter cornering_stiffness =
      parameter("cornering_stiffness", 15.0, {.unit = "1/rad", .min = 1e-6,
                                              .description = "lateral force per rad of slip angle and N (tanh, linear)"});
  Parameter slip_compliance =
      parameter("slip_compliance", 0.05, {.min = 1e-9, .description = "slip at which Fx reaches mu·N (linear)"});
  Parameter B = parameter("B", 10.0, {.min = 1e-6, .description = "longitudinal stiffness factor (pacejka)"});
  Parameter C = parameter("C", 1.9, {.min = 0, .description = "longitudinal shape factor (pacejka)"});
  Parameter D = parameter("D", 1.0, {.min = 0, .description = "longitudinal peak over mu·N (pacejka)"});
  Parameter E = parameter("E", 0.97, {.max = 1, .description = "longitudinal curvature factor (pacejka)"});
  Parameter B_y = parameter("B_y", 10.0, {.min = 1e-6, .description = "lateral stiffness factor (pacejka)"});
  Parameter C_y = parameter("C_y", 1.3, {.min = 0, .description = "lateral shape factor (pacejka)"});
  Parameter D_y = parameter("D_y", 1.0, {.min = 0, .description = "lateral peak over mu·N (pacejka)"});
  Parameter E_y = parameter("E_y", 0.97, {.max = 1, .description = "lateral curvature factor (pacejka)"});
  Parameter kappa_max = parameter("kappa_max", 1.5, {.min = 1e-3, .description = "slip range of the magic formula"});
  Parameter v_eps = parameter("v_eps", 0.1, {.unit = "m/s", .min = 1e-9});
  Parameter Crr = parameter("Crr", 0.015, {.min = 0, .description = "rolling resistance coefficient"});
  std::vector<Parameter> pac2002 = pac2002_parameters();
  Parameter lateral_relaxation = parameter("lateral_relaxation", 0.0,
                                           {.description = "the law reads a slip angle relaxed over sigma_y (off, on)",
                                            .choices = {"off", "on"}});
  Parameter sigma_y = parameter("sigma_y", 0.3, {.unit = "m", .min = 1e-6, .description = "lateral relaxation length"});
  Parameter aligning_moment = parameter("aligning_moment", 0.0,
                                        {.description = "the road's moment Mz about the vertical axis (off, on)",
                                         .choices = {"off", "on"}});
  Parameter trail_0 = parameter(
      "trail_0", 0.035, {.unit = "m", .min = 0, .description = "pneumatic trail at zero slip (tanh, linear, pacejka)"});

  Variable phi = variable("phi", {.unit = "rad", .description = "spin angle"});
  Variable omega = variable("omega", {.unit = "rad/s", .state = StateSelect::prefer});
  Variable v_long = variable("v_long", {.unit = "m/s", .description = "wheel centre's speed along the wheel"});
  Variable v_lat = variable("v_lat", {.unit = "m/s", .description = "wheel centre's speed to the wheel's left"});
  // Forces and moments declare their magnitude (nominal), which scales their absolute tolerance.
  Variable load = variable("load", {.unit = "N", .nominal = 1e3, .description = "vertical load N, 0 when negative"});
  Variable mu_road = variable("mu_road");
  Variable F_max = variable("F_max", {.unit = "N", .nominal = 1e3, .description = "μ·N"});
  Variable F_peak = variable("F_peak", {.unit = "N", .nominal = 1e3,
                                        .description = "the law's peak: √(Fx² + Fy²) never exceeds it"});
  Variable kappa = variable("kappa", {.description = "practical longitudinal slip (ω·r − v_long)/|v_long|"});
  Variable alpha = variable("alpha", {.unit = "rad", .description = "slip angle atan(v_lat/|v_long|)"});
  Variable Fx = variable("Fx", {.unit = "N", .nominal = 1e3,
                                .description = "road force on the tire along the wheel"});
  Variable Fy = variable("Fy", {.unit = "N", .nominal = 1e3,
                                .description = "road force on the tire to the wheel's left"});
  Variable F_total = variable("F_total", {.unit = "N", .nominal = 1e3, .description = "√(Fx² + Fy²)"});
  Variable tau_roll = variable("tau_roll", {.unit = "N.m", .nominal = 1e2});
  Variable P_slip = variable("P_slip", {.unit = "W", .nominal = 1e3,
                                        .description = "power the sliding contact dissipates"});
  Variable alpha_t = variable("alpha_t", {.unit = "rad", .description = "the slip angle the law reads: alpha, or relaxed "
                                                                        "(lateral_relaxation)"});
  Variable E_lat = variable("E_lat", {.unit = "J", .description = "work done on the lateral tread (lateral_relaxation)"});
  Variable Mz = variable("Mz", {.unit = "N.m", .nominal = 1e2,
                                .description = "road moment on the tire about the vertical axis, "
                                                              "counter-clockwise seen from above (aligning_moment)"});
  Variable trail = variable("trail", {.unit = "m", .description = "pneumatic trail: Mz = −trail·Fy, pac2002's t "
                                                                  "(aligning_moment)"});

  explicit PlanarWheel(std::string name) : Component(std::move(name)) {
    stored_energy(0.5 * J * omega * omega);
    dissipated_power(P_slip + tau_roll * omega);
    const Expr heading = frame.phi, c = cos(heading), s = sin(heading);
    equation(phi == flange_rot.phi);
    equation(omega == der(phi));
    equation(v_long == c * der(frame.x) + s * der(frame.y));
    equation(v_lat == -s * der(frame.x) + c * der(frame.y));
    equation(load == no_event(max(N, 0.0)));
    friction_law_ = equation(mu_road == mu);
    equation(F_max == mu_road * load);
    // C1 across v_eps and at standstill, as the Wheel's slip: no events.
    const Expr speed = no_event(ifelse(abs(v_long) >= v_eps, abs(v_long), 0.5 * (v_long * v_long / v_eps + v_eps)));
    const Expr rim_speed = omega * radius, v_slip = rim_speed - v_long, tan_alpha = v_lat / speed;
    equation(kappa == v_slip / speed);
    equation(alpha == atan(tan_alpha));
    // The slip angle the laws read: alpha itself, or the relaxed alpha_t
    // (equations at the end). Off, the structural choice folds these back to
    // alpha and tan_alpha: the equations are the unrelaxed wheel's.
    const Expr relaxes = chosen(lateral_relaxation, 1);
    const Expr tan_alpha_law = ifelse(relaxes, tan(alpha_t), tan_alpha), alpha_law = ifelse(relaxes, alpha_t, alpha);
    const Expr friction = mu_road + 1e-12;  // ice at its limit (μ = 0) stays finite
    const auto law = [&](int k) { return chosen(tire_law, k); };
    const PlanarTireForce tanh_law = similarity_combined(
        slip_stiffness * kappa / friction, cornering_stiffness * tan_alpha_law / friction,
        [&](const Expr& s_) { return F_max * tanh(s_); }, [&](const Expr& s_) { return F_max * tanh(s_); });
    const PlanarTireForce linear_law = similarity_combined(
        kappa / (slip_compliance * friction), cornering_stiffness * tan_alpha_law / friction,
        [&](const Expr& s_) { return F_max * no_event(min(s_, 1.0)); },
        [&](const Expr& s_) { return F_max * no_event(min(s_, 1.0)); });
    // The formula's far tail (a wheel spinning on the spot) is beyond its fit:
    // the scaled slip stops at the end of the range, B·kappa_max.
    const Expr s_fit_max = B * kappa_max;
    const auto fitted = [&](const Expr& s_) { return no_event(min(s_, s_fit_max)); };
    const PlanarTireForce pacejka_law = similarity_combined(
        B * kappa, B_y * tan_alpha_law,
        [&](const Expr& s_) { return magic_formula_force(F_max, 1.0, C, D, E, fitted(s_)); },
        [&](const Expr& s_) { return magic_formula_force(F_max, 1.0, C_y, D_y, E_y, fitted(s_)); });
    const auto coefficient = [&](const char* name) { return Expr(pac2002_coefficient(name)); };
    const Expr k_fit = no_event(max(min(kappa, kappa_max), -kappa_max));
    const Pac2002Terms along = pac2002_longitudinal(coefficient, k_fit, load, mu_road);
    const Pac2002LateralTerms across = pac2002_lateral(coefficient, alpha_law, load, mu_road);
    const Expr pac_Fx = pac2002_gx_alpha(coefficient, k_fit, alpha_law, load) * along.Fx;
    const Expr pac_Fy = pac2002_gy_kappa(coefficient, k_fit, alpha_law, load) * across.Fy +
                        pac2002_svy_kappa(coefficient, k_fit, alpha_law, load, mu_road);
    const Expr pac_peak = no_event(max(abs(along.Dx) + abs(along.SVx), abs(across.Dy) + abs(across.SVy)));
    // 1e-12 N² inside the root: its slope stays finite when the tire rolls free.
    const Expr pac_cap = no_event(min(1.0, pac_peak / sqrt(pac_Fx * pac_Fx + pac_Fy * pac_Fy + 1e-12)));
    const auto choose = [&](const Expr& tanh_case, const Expr& linear_case, const Expr& pacejka_case,
                            const Expr& pac2002_case) {
      return ifelse(law(PlanarTireLaw::tanh), tanh_case,
                    ifelse(law(PlanarTireLaw::linear), linear_case,
                           ifelse(law(PlanarTireLaw::pacejka), pacejka_case, pac2002_case)));
    };
    equation(Fx == choose(tanh_law.Fx, linear_law.Fx, pacejka_law.Fx, pac_cap * pac_Fx));
    equation(Fy == choose(tanh_law.Fy, linear_law.Fy, pacejka_law.Fy, pac_cap * pac_Fy));
    equation(F_peak == choose(F_max, F_max, F_max * no_event(max(D, D_y)), pac_peak));
    equation(F_total == sqrt(Fx * Fx + Fy * Fy));
    // The aligning moment; off, Mz = trail = 0 and every term of it folds away.
    // The simple laws take the brush model's pneumatic trail (Pacejka, Tire
    // and Vehicle Dynamics, ch. 3, the brush model at pure side slip with a
    // parabolic pressure distribution): with θ = C_α·|tan α|/(3·F_y,peak),
    // sliding spreads from the trailing edge and reaches the leading edge at
    // θ = 1; Fy = F_y,peak·θ·(3 − 3θ + θ²) and the moment F_y,peak·a·θ·(1 − θ)³
    // (a half the contact length) put the force's centre behind the contact
    // centre by trail = (a/3)·(1 − θ)³/(1 − θ + θ²/3), trail_0 = a/3 at zero
    // slip, 0 from full sliding on. θ here: C_α/F_y,peak of each law, written
    // without the load (cornering_stiffness/μ for tanh and linear, B_y·C_y for
    // pacejka), so a wheel in the air divides by nothing.
    // Sign: at alpha > 0 (the contact slides to the wheel's left) Fy < 0 pushes
    // right, at x = −trail behind the centre; its moment x·Fy = −trail·Fy > 0
    // turns the wheel counter-clockwise, to its left: toward where it goes,
    // taking slip angle away.
    const Expr aligns = chosen(aligning_moment, 1);
    const auto brush_trail = [&](const Expr& theta) {
      const Expr sliding = no_event(min(theta, 1.0)), adhering = 1.0 - sliding;
      return trail_0 * adhering * adhering * adhering / (1.0 - sliding + sliding * sliding / 3.0);
    };
    const Expr side_slip = no_event(abs(tan_alpha_law));
    const Expr theta_simple = cornering_stiffness * side_slip / (3.0 * friction);
    const Expr theta_pacejka = B_y * C_y * side_slip / 3.0;
    // PAC2002's trail acts on the lateral force the wheel delivers, Fy' =
    // Gyκ·Fy0 scaled back onto F_peak with Fy.
    const Pac2002AligningTerms pac_turn =
        pac2002_aligning(coefficient, k_fit, alpha_law, load, mu_road, Fx, Fy,
                         pac_cap * pac2002_gy_kappa(coefficient, k_fit, alpha_law, load) * across.Fy);
    equation(trail == ifelse(aligns,
                             choose(brush_trail(theta_simple), brush_trail(theta_simple), brush_trail(theta_pacejka),
                                    pac_turn.t),
                             0.0));
    equation(Mz == ifelse(aligns, ifelse(law(PlanarTireLaw::pac2002), pac_turn.Mz, -trail * Fy), 0.0));
    // The road's force on the tire, in world axes, and its moment reach the
    // body through the massless wheel centre: frame force + road force = 0,
    // frame torque + Mz = 0.
    equation(frame.fx == -(c * Fx - s * Fy));
    equation(frame.fy == -(s * Fx + c * Fy));
    equation(frame.tau == ifelse(aligns, -Mz, 0.0));
    equation(tau_roll == Crr * load * radius * tanh(rim_speed / v_eps));
    equation(J * der(omega) == flange_rot.tau - radius * Fx - tau_roll);
    // The contact point slides at (v_long − ω·r, v_lat); the road's force
    // does −P_slip of work on it. Relaxed, the lateral tread takes
    // −Fy·(v_lat − |v_long|·tan alpha_t) of that into E_lat (below).
    // The moment: the frame's torque −Mz brings −Mz·der(phi) in through the
    // port, and the wheel stores none of it, so the contact takes it. In the
    // brush model Mz is the first moment of the contact's force distribution
    // and a yaw rate r slides the tread at v_lat + r·x along the contact, so
    // the friction power gains −Mz·r, as −Fy·v_lat. (Mz follows the slip angle
    // at once, with no tread deflection stored, so when the wheel yaws back
    // this term may make P_slip negative for a while.)
    equation(P_slip == Fx * v_slip - ifelse(relaxes, Fy * speed * tan(alpha_t), Fy * v_lat) -
                           ifelse(aligns, Mz * der(heading), 0.0));
    // Lateral relaxation (the stretched string's first-order model): the
    // tread's lateral deflection sigma_y·tan(alpha_t) moves at
    // v_lat − |v_long|·tan(alpha_t), written with d(tan alpha_t)/dt =
    // (1 + tan²alpha_t)·d(alpha_t)/dt. Off: alpha_t is alpha, no deflection.
    const Expr tan_alpha_t = tan(alpha_t), deflection_rate = v_lat - speed * tan_alpha_t;
    equation(0.0 == ifelse(relaxes, sigma_y * (1 + tan_alpha_t * tan_alpha_t) * der(alpha_t) - deflection_rate,
                           alpha_t - alpha));
    stored_energy(E_lat);
    equation(0.0 == ifelse(relaxes, der(E_lat) + Fy * deflection_rate, E_lat));
  }

  /// Road friction as a map over the plane: values[i][j] is μ at
  /// (x_grid[i], y_grid[j]) in world coordinates, bilinear between grid
  /// points and held beyond the grid's edges (a split-μ road: two values of y
  /// either side of the centre line). Replaces `mu`. Call before compiling.
  void set_friction_map(const std::vector<double>& x_grid, const std::vector<double>& y_grid,
                        const std::vector<std::vector<double>>& values) {
    Table2D t{.u1 = x_grid, .u2 = y_grid};
    const std::string context = path() + " friction map";
    if (values.size() != x_grid.size())
      throw ModelError(fmt::format("{}: {} rows of values for {} values of x", context, values.size(), x_grid.size()));
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (values[i].size() != y_grid.size())
        throw ModelError(fmt::format("{}: row {} has {} values for {} values of y", context, i + 1, values[i].size(),
                                     y_grid.size()));
      for (std::size_t j = 0; j < values[i].size(); ++j)
        if (!(values[i][j] >= 0.0))
          throw ModelError(fmt::format("{}: μ = {} at x = {}, y = {} must be >= 0", context, values[i][j], x_grid[i],
                                       y_grid[j]));
      t.y.insert(t.y.end(), values[i].begin(), values[i].end());
    }
    check_table(t, context);
    t.extrapolation = TableExtrapolation::hold;
    t.smoothness = TableSmoothness::linear;
    replace_equation(friction_law_, mu_road == table(frame.x, frame.y, t));
  }

  /// Sets the pac2002 coefficients from a .TIR file's longitudinal, lateral
  /// and aligning sections (coefficients the file leaves out keep their
  /// values); all or nothing. Call before compiling, and choose tire_law =
  /// pac2002.
  void load_tir(const std::string& path) {
    const Pac2002Longitudinal along = read_tir_longitudinal(path);
    const Pac2002Lateral across = read_tir_lateral(path);
    const Pac2002Aligning turn = read_tir_aligning(path);
    std::vector<std::pair<std::string, double>> before;
    for (const ParameterDecl& p : parameters()) before.emplace_back(p.name, p.value);
    try {
      for (const auto& field : Pac2002Longitudinal::fields()) set_parameter(field.name, along.*field.member);
      for (const auto& field : Pac2002Lateral::fields()) set_parameter(field.name, across.*field.member);
      for (const auto& field : Pac2002Aligning::fields()) set_parameter(field.name, turn.*field.member);
    } catch (const ModelError&) {
      for (const auto& [name, value] : before) set_parameter(name, value);
      throw;
    }
  }

 private:
  std::vector<Parameter> pac2002_parameters() {
    std::vector<Parameter> declared;
    const auto declare = [&]<class Table>(const Table& defaults) {
      for (const auto& f : Table::fields())
        declared.push_back(
            parameter(f.name, defaults.*f.member, {.unit = f.unit, .min = f.min, .description = f.description}));
    };
    declare(Pac2002Longitudinal{});
    declare(Pac2002Lateral{});
    declare(Pac2002Aligning{});
    return declared;
  }
  // Declared in field order: the longitudinal table, the lateral one, then the aligning one.
  const Parameter& pac2002_coefficient(const char* name) const {
    std::size_t k = 0;
    const auto find = [&](const auto& fields) -> const Parameter* {
      for (const auto& f : fields) {
        if (std::string_view(f.name) == name) return &pac2002[k];
        ++k;
      }
      return nullptr;
    };
    if (const Parameter* p = find(Pac2002Longitudinal::fields())) return *p;
    if (const Parameter* p = find(Pac2002Lateral::fields())) return *p;
    if (const Parameter* p = find(Pac2002Aligning::fields())) return *p;
    throw ModelError(path() + ": no PAC2002 coefficient " + name);
  }

  std::size_t friction_law_ = 0;
};

}  // namespace acausal::vehicle
