#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

#include "connectors/rotational.hpp"
#include "connectors/signal.hpp"
#include "solver/symbolic/table.hpp"

namespace acausal::vehicle {

/// Combustion engine read from maps (as Simscape's Mapped Engine), crankshaft
/// inertia J driving `flange`: J·der(w) = tau + flange.tau with
/// tau = throttle_eff·tau_full(w) + (1 - throttle_eff)·tau_motoring(w), where
/// tau_full is the full-load curve and tau_motoring the drag of the unfired
/// engine (tables over speed; set_full_load_curve, set_motoring_curve).
/// throttle_eff = rev_cut·max(throttle_input, throttle_idle): an idle governor,
/// a PI on w_idle - w, opens the throttle below idle (it holds w_idle with
/// no droop while its demand stays within 0..1, so the engine neither stalls
/// nor needs a starter), and a rev limiter fades the throttle to 0 across
/// w_limit .. w_limit + w_limit_band. The curves hold their first point
/// down to standstill: a lugging engine keeps its torque and never stalls.
/// Fuel: a brake-specific fuel consumption map bsfc(w, tau) [g/kWh]
/// (set_bsfc_map) gives fuel_flow = bsfc·max(tau·w, 0)/3.6e9 kg/s, but at
/// least fuel_idle (0.17 g/s, about 0.8 L/h) while fired (throttle_eff > 0:
/// at an unloaded idle the map's flow is zero); none in overrun with the
/// throttle closed (fuel cut). fuel_mass integrates it from 0, P_fuel = fuel_flow·LHV is
/// the power the fuel supplies, and P_loss = P_fuel - tau·w the heat, which
/// is >= 0 because every BSFC in the map is at least 3.6e9/LHV g/kWh (an
/// efficiency of at most 100 %: checked when the map is set, and at every run
/// through bsfc_min).
/// The default maps are a generic 1.6 L-class gasoline engine, illustrative
/// and not measured data: 100 N.m at 1000 rpm rising to 155 N.m at 4000 rpm,
/// 140 N.m at 6000 rpm, 0 from 6500 rpm; drag -(8 + 2n + 0.4n²) N.m (n in
/// 1000 rpm: about -10 N.m at idle, -34 N.m at 6000 rpm); a BSFC map from a
/// Willans line (see default_bsfc_map), best about 242 g/kWh at 2000-3000 rpm
/// and 75-85 % load, about 670 g/kWh at 10 % load (2500 rpm), 340 g/kWh at
/// full load and 6000 rpm.
struct MappedEngine : Component {
  rotational::Flange flange{*this, "flange"};
  RealInput throttle_input{*this, "throttle_input", {.unit = "1"}};
  Parameter J = parameter("J", 0.15, {.unit = "kg.m2", .min = 1e-9, .description = "crankshaft and flywheel"});
  Parameter w_idle = parameter("w_idle", 800.0 * std::numbers::pi / 30.0,
                               {.unit = "rad/s", .min = 0, .description = "idle speed the governor holds (800 rpm)"});
  Parameter k_idle = parameter("k_idle", 0.05, {.unit = "s/rad", .min = 0,
                                                .description = "idle governor: throttle per rad/s below w_idle"});
  // A huge Ti_idle leaves a proportional governor, drooping by its throttle/k_idle (2 rad/s here).
  Parameter Ti_idle = parameter("Ti_idle", 0.5, {.unit = "s", .min = 1e-9, .description = "idle governor: reset time"});
  Parameter w_limit = parameter("w_limit", 6200.0 * std::numbers::pi / 30.0,
                                {.unit = "rad/s", .min = 0, .description = "rev limiter: the throttle cut begins"});
  Parameter w_limit_band = parameter("w_limit_band", 20.0,
                                     {.unit = "rad/s", .min = 1e-9, .description = "rev limiter: the cut's width"});
  Parameter w_eps = parameter("w_eps", 1.0,
                              {.unit = "rad/s", .min = 1e-9, .description = "the drag fades out below this speed"});
  Parameter LHV = parameter("LHV", 43e6, {.unit = "J/kg", .min = 1.0, .description = "fuel lower heating value"});
  Parameter fuel_idle = parameter("fuel_idle", 1.7e-4, {.unit = "kg/s", .min = 0,
                                                       .description = "fuel flow of a fired engine at no load"});
  Parameter rho_fuel = parameter("rho_fuel", 745.0, {.unit = "kg/m3", .min = 1e-9, .description = "fuel density"});
  /// Derived from the map by set_bsfc_map (as MSL's final parameters of a table): the check
  /// bsfc_min·LHV >= 3.6e9 reads it at every run, so a later change of LHV is checked too.
  Parameter bsfc_min = parameter("bsfc_min", 0.0, {.unit = "g/(kW.h)", .min = 0,
                                                   .description = "the BSFC map's lowest value (set with the map)"});

  Variable phi = variable("phi", {.unit = "rad"});
  Variable w = variable("w", {.unit = "rad/s", .state = StateSelect::prefer});
  Variable rpm = variable("rpm", {.unit = "rpm"});
  Variable I_idle = variable("I_idle", {.unit = "1", .start = 0.0, .fixed = true,
                                        .description = "idle governor: the integral part of its throttle"});
  Variable throttle_idle = variable("throttle_idle", {.unit = "1", .description = "the idle governor's throttle"});
  Variable rev_cut = variable("rev_cut", {.unit = "1", .description = "rev limiter: the throttle's share let through"});
  Variable throttle_eff = variable("throttle_eff", {.unit = "1", .description = "the throttle the engine runs at"});
  Variable tau_full = variable("tau_full", {.unit = "N.m", .description = "full-load torque at w"});
  Variable tau_motoring = variable("tau_motoring", {.unit = "N.m", .description = "drag at w (<= 0 for w > 0)"});
  Variable tau = variable("tau", {.unit = "N.m", .description = "engine torque"});
  Variable P_out = variable("P_out", {.unit = "W", .description = "power delivered through the flange"});
  Variable bsfc = variable("bsfc", {.unit = "g/(kW.h)", .description = "the BSFC map at (w, tau)"});
  Variable fuel_flow = variable("fuel_flow", {.unit = "kg/s"});
  Variable fuel_mass = variable("fuel_mass", {.unit = "kg", .start = 0.0, .fixed = true});
  Variable fuel_volume = variable("fuel_volume", {.unit = "l"});
  Variable fuel_volume_flow = variable("fuel_volume_flow", {.unit = "l/h"});
  Variable P_fuel = variable("P_fuel", {.unit = "W", .description = "fuel power, fuel_flow·LHV"});
  Variable P_loss = variable("P_loss", {.unit = "W", .description = "heat: fuel power not made torque, or drag"});

  explicit MappedEngine(std::string name) : Component(std::move(name)) {
    stored_energy(0.5 * J * w * w);
    supplied_power(P_fuel);
    dissipated_power(P_loss);
    require(bsfc_min * LHV >= 3.6e9,
            "bsfc_min·LHV must be at least 3.6e9 (the map's best point at most 100 % efficient): raise LHV or "
            "set a BSFC map burning more fuel");
    require(w_limit > w_idle, "the rev limit w_limit must exceed the idle speed w_idle");
    // Kinks only (no events): a clamp's corner is smooth enough for the integrator.
    const auto clamp01 = [](const Expr& x) { return no_event(min(max(x, 0.0), 1.0)); };
    equation(phi == flange.phi);
    equation(w == der(phi));
    equation(rpm == w * (30.0 / std::numbers::pi));
    // PI with automatic reset: I_idle follows the governor's clamped output, so
    // inside 0..1 it is k_idle/Ti_idle·∫(w_idle - w) (no droop), and it cannot
    // wind up: above idle the output sits at 0 and I_idle relaxes to 0.
    equation(throttle_idle == clamp01(k_idle * (w_idle - w) + I_idle));
    equation(der(I_idle) == (throttle_idle - I_idle) / Ti_idle);
    // A smoothstep (C1): the torque has no corner where the cut begins or ends.
    const Expr s = clamp01((w - w_limit) / w_limit_band);
    equation(rev_cut == 1.0 - s * s * (3.0 - 2.0 * s));
    equation(throttle_eff == rev_cut * no_event(max(clamp01(throttle_input), throttle_idle)));
    full_load_ = equation(full_load_law(default_full_load_curve(), TableSmoothness::monotone_cubic));
    motoring_ = equation(motoring_law(default_motoring_curve(), TableSmoothness::monotone_cubic));
    equation(tau == throttle_eff * tau_full + (1.0 - throttle_eff) * tau_motoring);
    equation(J * der(w) == tau + flange.tau);
    equation(P_out == -flange.tau * w);
    const DefaultMap map = default_bsfc_map();
    bsfc_ = equation(bsfc_law(map.rpm, map.torque, map.g_per_kWh));
    // Exact fuel cut with no event: the flow is continuous (0 on both sides of
    // tau·w = 0) and feeds only the fuel_mass quadrature and P_fuel, so the
    // corner in its slope costs the integrator nothing.
    // Fired (any throttle) the engine burns at least its idle flow: at an
    // unloaded idle the brake power and so the map's flow are zero, yet the
    // fuel keeps the engine turning against its own friction.
    const Expr fired = no_event(min(throttle_eff / 0.01, 1.0));
    equation(fuel_flow == no_event(max(bsfc * max(tau * w, 0.0) / 3.6e9, fuel_idle * fired)));
    equation(der(fuel_mass) == fuel_flow);
    equation(fuel_volume == 1000.0 * fuel_mass / rho_fuel);
    equation(fuel_volume_flow == 3.6e6 * fuel_flow / rho_fuel);
    equation(P_fuel == fuel_flow * LHV);
    equation(P_loss == P_fuel - tau * w);
  }

  /// Full-load torque over speed, (rpm, N.m) points with increasing speeds and
  /// torques >= 0; held beyond its ends. Call before compiling.
  void set_full_load_curve(const std::vector<std::pair<double, double>>& rpm_to_Nm,
                           TableSmoothness smoothness = TableSmoothness::monotone_cubic) {
    replace_equation(full_load_, full_load_law(rpm_to_Nm, smoothness));
  }

  /// Drag of the unfired engine over speed, (rpm, N.m) points with increasing
  /// speeds and torques <= 0, read at |w| and turned against the rotation.
  /// Held beyond its ends. Call before compiling.
  void set_motoring_curve(const std::vector<std::pair<double, double>>& rpm_to_Nm,
                          TableSmoothness smoothness = TableSmoothness::monotone_cubic) {
    replace_equation(motoring_, motoring_law(rpm_to_Nm, smoothness));
  }

  /// Brake-specific fuel consumption g_per_kWh[i][j] at rpm[i], torque_Nm[j]
  /// (both increasing), bilinear, held beyond the grid; every value at least
  /// 3.6e9/LHV g/kWh (83.7 for gasoline). Sets bsfc_min. Call before compiling.
  void set_bsfc_map(std::vector<double> rpm_axis, std::vector<double> torque_Nm,
                    std::vector<std::vector<double>> g_per_kWh) {
    replace_equation(bsfc_, bsfc_law(rpm_axis, torque_Nm, g_per_kWh));
  }

 private:
  struct DefaultMap {
    std::vector<double> rpm, torque;
    std::vector<std::vector<double>> g_per_kWh;
  };

  static std::vector<std::pair<double, double>> default_full_load_curve() {
    return {{500, 80},   {1000, 100}, {1500, 115}, {2000, 128}, {2500, 138}, {3000, 146}, {3500, 152},
            {4000, 155}, {4500, 154}, {5000, 151}, {5500, 146}, {6000, 140}, {6500, 0}};
  }

  // Friction rising with speed, plus pumping against the closed throttle.
  static std::vector<std::pair<double, double>> default_motoring_curve() {
    std::vector<std::pair<double, double>> points;
    for (int k = 0; k <= 7; ++k) points.emplace_back(1000.0 * k, -(8.0 + 2.0 * k + 0.4 * k * k));
    return points;
  }

  // A Willans line: the fuel power is (tau + tau_loss)·w/eta, with a loss
  // torque (friction and pumping) tau_loss = 12 + 2n + 0.4n² N.m (n in
  // 1000 rpm) and an indicated efficiency
  //   eta = 0.41·(1 - 0.012·(n - 2.7)²)·(1 - 2·(l - 0.75)₊²)·(1 - 0.5·(0.75 - l)₊²)
  // at load l = tau/tau_full(n) (tau_full: the default curve joined linearly),
  // so bsfc = 3.6e9/43e6·(tau + tau_loss)/(tau·eta) g/kWh. The loss torque
  // alone would make full load the best point; the factors in l, full-load
  // enrichment above 75 % load and slow, diluted combustion at light load,
  // move it to 75-85 %. Torques above the curve, never reached, read the
  // curve's value.
  static DefaultMap default_bsfc_map() {
    DefaultMap m{.rpm = {800, 1000, 1500, 2000, 2500, 3000, 3500, 4000, 4500, 5000, 5500, 6000},
                 .torque = {5, 10, 20, 30, 45, 60, 80, 100, 120, 140, 160}};
    const auto curve = default_full_load_curve();
    const auto full_load = [&](double n) {
      for (std::size_t i = 1; i < curve.size(); ++i)
        if (n <= curve[i].first)
          return curve[i - 1].second + (curve[i].second - curve[i - 1].second) * (n - curve[i - 1].first) /
                                           (curve[i].first - curve[i - 1].first);
      return curve.back().second;
    };
    for (double n : m.rpm) {
      std::vector<double> row;
      const double k = n / 1000.0, tau_loss = 12.0 + 2.0 * k + 0.4 * k * k;
      for (double t_grid : m.torque) {
        const double t = std::min(t_grid, full_load(n)), load = t / full_load(n);
        const double rich = std::max(load - 0.75, 0.0), lean = std::max(0.75 - load, 0.0);
        const double eta = 0.41 * (1.0 - 0.012 * (k - 2.7) * (k - 2.7)) * (1.0 - 2.0 * rich * rich) *
                           (1.0 - 0.5 * lean * lean);
        row.push_back(3.6e9 / 43e6 * (t + tau_loss) / (t * eta));
      }
      m.g_per_kWh.push_back(std::move(row));
    }
    return m;
  }

  // A curve as a table over rpm, its points checked: speeds strictly
  // increasing (a jump in torque would be a discontinuity with no event) and
  // the torque's sign (`sign` > 0: >= 0, < 0: <= 0).
  Table1D curve_table(const std::vector<std::pair<double, double>>& points, TableSmoothness smoothness,
                      const std::string& owner, int sign) const {
    Table1D t{.smoothness = smoothness, .extrapolation = TableExtrapolation::hold};
    for (const auto& [n, value] : points) {
      t.x.push_back(n);
      t.y.push_back(value);
    }
    if (points.empty()) throw ModelError(owner + ": no points");
    for (std::size_t i = 0; i < points.size(); ++i) {
      const auto [n, value] = points[i];
      if (!std::isfinite(n) || !std::isfinite(value))
        throw ModelError(owner + ": point " + std::to_string(i + 1) + " (" + format_number(n) + " rpm, " +
                         format_number(value) + " N.m) is not finite");
      if (i > 0 && !(n > points[i - 1].first))
        throw ModelError(owner + ": the speeds must increase (point " + std::to_string(i + 1) + ": " +
                         format_number(n) + " rpm after " + format_number(points[i - 1].first) + " rpm)");
      if (sign * value < 0)
        throw ModelError(owner + ": the torque must be " + (sign > 0 ? ">= 0" : "<= 0 (a drag)") + " (point " +
                         std::to_string(i + 1) + ": " + format_number(value) + " N.m at " + format_number(n) +
                         " rpm)");
    }
    check_table(t, owner);
    return t;
  }

  Equation full_load_law(const std::vector<std::pair<double, double>>& points, TableSmoothness smoothness) const {
    return tau_full == table(rpm, curve_table(points, smoothness, path() + " full-load curve", +1));
  }

  // Read at |w| and turned against the rotation: a stopped engine has no drag
  // to drive it backwards, and the drag never does work on the shaft.
  Equation motoring_law(const std::vector<std::pair<double, double>>& points, TableSmoothness smoothness) const {
    const Table1D t = curve_table(points, smoothness, path() + " motoring curve", -1);
    return tau_motoring == table(no_event(abs(rpm)), t) * tanh(w / w_eps);
  }

  Equation bsfc_law(const std::vector<double>& rpm_axis, const std::vector<double>& torque_Nm,
                    const std::vector<std::vector<double>>& g_per_kWh) {
    const std::string owner = path() + " BSFC map";
    const auto increasing = [&](const std::vector<double>& axis, const std::string& name, const char* unit) {
      if (axis.empty()) throw ModelError(owner + ": no " + name + "s");
      for (std::size_t i = 0; i < axis.size(); ++i)
        if (!std::isfinite(axis[i]))
          throw ModelError(owner + ": " + name + " " + std::to_string(i + 1) + " is not finite");
      for (std::size_t i = 1; i < axis.size(); ++i)
        if (!(axis[i] > axis[i - 1]))
          throw ModelError(owner + ": the " + name + "s must increase (" + name + " " + std::to_string(i + 1) +
                           ": " + format_number(axis[i]) + " " + unit + " after " + format_number(axis[i - 1]) +
                           " " + unit + ")");
    };
    increasing(rpm_axis, "speed", "rpm");
    increasing(torque_Nm, "torque", "N.m");
    if (g_per_kWh.size() != rpm_axis.size())
      throw ModelError(owner + ": " + std::to_string(g_per_kWh.size()) + " rows of values for " +
                       std::to_string(rpm_axis.size()) + " speeds");
    for (std::size_t i = 0; i < g_per_kWh.size(); ++i)
      if (g_per_kWh[i].size() != torque_Nm.size())
        throw ModelError(owner + ": row " + std::to_string(i + 1) + " (" + format_number(rpm_axis[i]) + " rpm) has " +
                         std::to_string(g_per_kWh[i].size()) + " values for " + std::to_string(torque_Nm.size()) +
                         " torques");
    const double lhv = parameter_value("LHV"), limit = 3.6e9 / lhv;
    Table2D t{.u1 = rpm_axis, .u2 = torque_Nm, .extrapolation = TableExtrapolation::hold};
    double lowest = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < g_per_kWh.size(); ++i) {
      for (std::size_t j = 0; j < torque_Nm.size(); ++j) {
        const double value = g_per_kWh[i][j];
        if (!std::isfinite(value))
          throw ModelError(owner + ": the value at " + format_number(rpm_axis[i]) + " rpm, " +
                           format_number(torque_Nm[j]) + " N.m is not finite");
        if (value < limit)
          throw ModelError(owner + ": " + format_number(value) + " g/kWh at " + format_number(rpm_axis[i]) +
                           " rpm, " + format_number(torque_Nm[j]) + " N.m is below the thermodynamic limit " +
                           "3.6e9/LHV = " + format_number(limit, 4) + " g/kWh (LHV = " + format_number(lhv) +
                           " J/kg): an efficiency above 100 %");
        lowest = std::min(lowest, value);
      }
      t.y.insert(t.y.end(), g_per_kWh[i].begin(), g_per_kWh[i].end());
    }
    check_table(t, owner);
    set_parameter("bsfc_min", lowest);
    return bsfc == table(rpm, tau, t);
  }

  double parameter_value(const std::string& name) const {
    for (const auto& p : parameters())
      if (p.name == name) return p.value;
    throw ModelError(path() + ": no parameter " + name);
  }

  std::size_t full_load_ = 0, motoring_ = 0, bsfc_ = 0;
};

}  // namespace acausal::vehicle
