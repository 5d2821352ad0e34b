#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "components/common/friction_modes.hpp"
#include "components/thermal/conditional_heat_port.hpp"
#include "connectors/rotational.hpp"
#include "connectors/signal.hpp"
#include "solver/symbolic/table.hpp"

namespace acausal::vehicle {

/// Hydrodynamic torque converter with a lock-up clutch, between the impeller
/// (pump, `flange_a`, on the engine side) and the turbine (`flange_b`, on the
/// gearbox side); the stator reacts on the fixed housing. Massless: put the
/// impeller's and the turbine's inertias on the flanges.
///
/// Speed ratio SR = w_t/w_p; capacity factor K(SR) [rpm/√(N·m)] and torque
/// ratio TR(SR) are tables over SR (linear, held beyond their ends;
/// set_capacity_table, set_torque_ratio_table). Driving (w_t < w_p):
///   tau_p = fade(SR)·n_p·|n_p|/K(SR)²,   n_p = w_p·30/π [rpm],   tau_t = TR(SR)·tau_p
/// fade(SR) = clamp((1 - SR)/(1 - SR_last), 0, 1), SR_last the capacity
/// table's last point: 1 up to it, so there tau_p = (n_p/K)², the K-factor
/// relation exactly, then falling linearly to 0 at SR = 1 (a converter holds
/// no torque without slip: K → ∞). Overrun (the turbine faster, engine
/// braking), the roles swap and the converter is a coupling (TR = 1): the
/// turbine absorbs fade(SR')·n_t·|n_t|/K(SR')² with SR' = w_p/w_t and the
/// impeller receives it. Both terms always apply; at most one is nonzero
/// once |w| > w_eps. Signs: n·|n| is sign-correct and C1 through zero (no
/// event); the ratios are regularized through zero speed as
/// SR = w_t·w_p/max(w_p², w_eps²) (exactly w_t/w_p for |w_p| ≥ w_eps, 0 at
/// w_p = 0, where the torque n_p·|n_p| vanishes anyway).
///
/// Lock-up clutch between the flanges (FrictionModes, as the locking vehicle
/// Clutch): capacity lockup_input·tau_lockup (lockup_input in [0, 1], open at
/// 0); below its capacity it locks (w_t = w_p exactly, SR = 1, the fluid
/// carries nothing), above it slides at its capacity.
///
/// Flange torques: flange_a.tau = tau_p - tau_c, flange_b.tau = tau_c - tau_t
/// (tau_c the lock-up torque on w_rel = w_t - w_p). Dissipated:
/// P_fluid = tau_p·w_p - tau_t·w_t = tau_p·w_p·(1 - TR·SR) ≥ 0 (the tables
/// are checked for TR·SR ≤ 1 on [0, 1]) and P_lockup = tau_c·w_rel ≥ 0;
/// lossPower = P_fluid + P_lockup (heat_port with use_heat_port = 1).
///
/// Default tables: an illustrative passenger-car converter (not measured
/// data; shapes as in the published curves of SAE J643-style tests): stall
/// torque ratio 2.1, coupling point SR = 0.85 (TR = 1 from there on), K from
/// 170 at stall (a stall speed of about 2080 rpm at 150 N·m) rising to 420 at
/// SR = 0.95.
struct TorqueConverter : Component {
  rotational::Flange flange_a{*this, "flange_a"}, flange_b{*this, "flange_b"};
  RealInput lockup_input{*this, "lockup_input", {.unit = "1"}};
  Parameter tau_lockup = parameter("tau_lockup", 400.0, {.unit = "N.m", .min = 0,
                                                          .description = "lock-up clutch capacity at lockup_input = 1"});
  Parameter w_eps = parameter("w_eps", 0.1, {.unit = "rad/s", .min = 1e-9,
                                             .description = "speed ratios regularized below this speed"});
  Variable w_p = variable("w_p", {.unit = "rad/s", .description = "impeller speed"});
  Variable w_t = variable("w_t", {.unit = "rad/s", .description = "turbine speed"});
  Variable w_rel = variable("w_rel", {.unit = "rad/s", .description = "w_t - w_p"});
  Variable SR = variable("SR", {.unit = "1", .description = "speed ratio w_t/w_p (regularized)"});
  Variable SR_reverse = variable("SR_reverse", {.unit = "1", .description = "w_p/w_t (regularized), overrun"});
  Variable K = variable("K", {.description = "capacity factor K(SR) [rpm/sqrt(N.m)]"});
  Variable K_reverse = variable("K_reverse", {.description = "K(SR_reverse) [rpm/sqrt(N.m)]"});
  Variable TR = variable("TR", {.unit = "1", .description = "torque ratio TR(SR)"});
  Variable tau_p = variable("tau_p", {.unit = "N.m", .description = "torque the impeller absorbs"});
  Variable tau_t = variable("tau_t", {.unit = "N.m", .description = "torque the turbine delivers"});
  Variable tau_c = variable("tau_c", {.unit = "N.m", .description = "lock-up clutch torque on w_rel"});
  Variable P_fluid = variable("P_fluid", {.unit = "W", .description = "tau_p·w_p - tau_t·w_t >= 0"});
  Variable P_lockup = variable("P_lockup", {.unit = "W", .description = "tau_c·w_rel >= 0"});
  FrictionModes friction{*this, "N.m", "rad/s2"};
  thermal::ConditionalHeatPort heat{*this};

  explicit TorqueConverter(std::string name) : Component(std::move(name)) {
    const Expr capacity = lockup_input * tau_lockup, open = lockup_input <= 0.0;
    equation(w_p == der(flange_a.phi));
    equation(w_t == der(flange_b.phi));
    equation(w_rel == w_t - w_p);
    equation(SR == w_t * w_p / no_event(max(w_p * w_p, w_eps * w_eps)));
    equation(SR_reverse == w_p * w_t / no_event(max(w_t * w_t, w_eps * w_eps)));
    capacity_table_ = checked_capacity_table(default_capacity_table());
    torque_ratio_table_ = checked_torque_ratio_table(default_torque_ratio_table());
    table_laws();
    friction.equations(*this, w_rel, der(w_rel), capacity, capacity, open, Expr(1e10));  // no reversals
    equation(tau_c == friction.force(open, capacity, -capacity));
    equation(flange_a.tau == tau_p - tau_c);
    equation(flange_b.tau == tau_c - tau_t);
    equation(P_fluid == tau_p * w_p - tau_t * w_t);
    equation(P_lockup == tau_c * w_rel);
    heat.equations(*this, P_fluid + P_lockup);
  }

  /// (SR, K) points, SR increasing within [0, 1) (the last below 1: the
  /// torque fades to 0 from there to SR = 1), K > 0 in rpm/√(N·m). Call before compiling.
  void set_capacity_table(const std::vector<std::pair<double, double>>& points) {
    capacity_table_ = checked_capacity_table(points);
    table_laws();
  }

  /// (SR, TR) points, SR increasing within [0, 1], TR > 0, with TR·SR ≤ 1
  /// everywhere on [0, 1] (the converter must not make power). Call before compiling.
  void set_torque_ratio_table(const std::vector<std::pair<double, double>>& points) {
    torque_ratio_table_ = checked_torque_ratio_table(points);
    table_laws();
  }

  /// The illustrative default data (see the class comment).
  static std::vector<std::pair<double, double>> default_capacity_table() {
    return {{0.0, 170}, {0.2, 171}, {0.4, 175}, {0.6, 185}, {0.7, 195}, {0.8, 215}, {0.85, 235}, {0.9, 280}, {0.95, 420}};
  }
  static std::vector<std::pair<double, double>> default_torque_ratio_table() {
    return {{0.0, 2.1}, {0.2, 1.85}, {0.4, 1.6}, {0.6, 1.35}, {0.7, 1.22}, {0.8, 1.08}, {0.85, 1.0}, {1.0, 1.0}};
  }

 private:
  Table1D capacity_table_, torque_ratio_table_;
  std::vector<std::size_t> table_equations_;

  void table_laws() {
    constexpr double rpm = 30.0 / std::numbers::pi;
    const double sr_last = capacity_table_.x.back();
    const auto fade = [&](const Expr& sr) { return no_event(min(max((1.0 - sr) / (1.0 - sr_last), 0.0), 1.0)); };
    const Expr n_p = rpm * w_p, n_t = rpm * w_t;
    const Expr drive = fade(SR) * n_p * no_event(abs(n_p)) / (K * K);
    const Expr overrun = fade(SR_reverse) * n_t * no_event(abs(n_t)) / (K_reverse * K_reverse);
    set_equations(*this, table_equations_,
                  {K == table(SR, capacity_table_), K_reverse == table(SR_reverse, capacity_table_),
                   TR == table(SR, torque_ratio_table_), tau_p == drive - overrun, tau_t == TR * drive - overrun});
  }

  std::string owner(const char* what) const { return fmt::format("TorqueConverter '{}' {}", path(), what); }

  Table1D points_table(const std::vector<std::pair<double, double>>& points, const std::string& who, double sr_max,
                       bool sr_max_inclusive) const {
    if (points.size() < 2) throw ModelError(fmt::format("{}: needs at least two points, got {}", who, points.size()));
    Table1D t;
    for (std::size_t k = 0; k < points.size(); ++k) {
      const auto [sr, value] = points[k];
      const bool in_range = sr >= 0.0 && (sr_max_inclusive ? sr <= sr_max : sr < sr_max);
      if (!std::isfinite(sr) || !std::isfinite(value) || !in_range)
        throw ModelError(fmt::format("{}: point {} has SR {}; SR must lie in [0, {}{}", who, k + 1, sr, sr_max,
                                     sr_max_inclusive ? "]" : ")"));
      if (!(value > 0.0))
        throw ModelError(fmt::format("{}: point {} (SR {}) has the value {}; it must be > 0", who, k + 1, sr, value));
      if (k > 0 && !(sr > points[k - 1].first))
        throw ModelError(fmt::format("{}: the speed ratios must increase (point {}: {} after {})", who, k + 1, sr,
                                     points[k - 1].first));
      t.x.push_back(sr);
      t.y.push_back(value);
    }
    check_table(t, who);
    return t;
  }

  Table1D checked_capacity_table(const std::vector<std::pair<double, double>>& points) const {
    return points_table(points, owner("capacity table K(SR)"), 1.0, false);
  }

  Table1D checked_torque_ratio_table(const std::vector<std::pair<double, double>>& points) const {
    Table1D t = points_table(points, owner("torque ratio table TR(SR)"), 1.0, true);
    check_product(t);
    return t;
  }

  // TR·SR ≤ 1 wherever the drive term acts (SR up to 1), sampled finely
  // (between points TR·SR is a quadratic, so the points alone do not settle it).
  void check_product(const Table1D& t) const {
    for (int i = 0; i <= 2000; ++i) {
      const double sr = i / 2000.0;
      std::size_t k = 1;
      while (k + 1 < t.x.size() && t.x[k] < sr) ++k;
      double tr = sr <= t.x.front() ? t.y.front() : sr >= t.x.back() ? t.y.back()
                  : t.y[k - 1] + (t.y[k] - t.y[k - 1]) * (sr - t.x[k - 1]) / (t.x[k] - t.x[k - 1]);
      if (tr * sr > 1.0 + 1e-12)
        throw ModelError(fmt::format("{}: TR·SR = {} > 1 at SR = {} (the converter would make power); lower TR "
                                     "towards the coupling point",
                                     owner("torque ratio table TR(SR)"), tr * sr, sr));
    }
  }
};

}  // namespace acausal::vehicle
