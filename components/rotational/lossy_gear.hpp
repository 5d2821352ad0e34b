#pragma once

#include <array>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "components/blocks/tables/interpolation.hpp"
#include "components/common/friction_modes.hpp"
#include "components/thermal/conditional_heat_port.hpp"
#include "connectors/rotational.hpp"

namespace acausal::rotational {

/// Lossy gear (MSL Rotational.Components.LossyGear, Pelchen et al. 2002 with
/// Bertsch's 2009 fix): phi_a = ratio·phi_b with mesh efficiencies that depend
/// on the direction of power flow and bearing friction, from lossTable rows
/// (|w_a| [rad/s], eta_mf1, eta_mf2, tau_bf1 [N.m], tau_bf2 [N.m]), linear in
/// |w_a| between rows (constant for one row; MSL default [0, 1, 1, 0, 0] is the
/// ideal gear). Rolling with flange_a driving, flange_b.tau =
/// -ratio·(eta_mf1·flange_a.tau - tau_bf1); with flange_b driving, flange_b.tau =
/// -ratio·(flange_a.tau/eta_mf2 - tau_bf2). When the losses exceed the applied
/// torque the gear is stuck: w_a stays exactly zero and the torque loss tauLoss
/// is whatever holds it there (MSL's PartialFriction path parameter sa and mode
/// Backward -1, Stuck 0, Forward 1, Free 2 = ideal). lossPower = tauLoss·w_a
/// >= 0; with use_heat_port = 1 it leaves as heat through heat_port
/// (thermal::ConditionalHeatPort, MSL useHeatPort).
/// The modes are MSL LossyGear's own, not FrictionModes: the break-away
/// thresholds differ per direction and depend on flange_a.tau, and rolling
/// uses the load-dependent quadrant loss rather than a fixed sliding force.
struct PartialLossyGear : Component {
  // MSL's named integer constants for mode.
  enum Mode { Backward = -1, Stuck = 0, Forward = 1, Free = 2 };
  /// One lossTable row: |w_a|, eta_mf1, eta_mf2, tau_bf1, tau_bf2.
  using LossRow = std::array<double, 5>;

  Flange flange_a{*this, "flange_a"}, flange_b{*this, "flange_b"};
  Parameter ratio = parameter("ratio", 1.0, {.unit = "1", .description = "flange_a.phi/flange_b.phi"});
  // sa is a number: a torque when stuck, an acceleration when rolling (MSL's unit constants).
  Parameter unit_torque = parameter("unit_torque", 1.0, {.unit = "N.m", .description = "unit constant", .structural = true});
  Parameter unit_acceleration =
      parameter("unit_acceleration", 1.0, {.unit = "rad/s2", .description = "unit constant", .structural = true});
  // lossTable holds numbers: it is read at |w_a|/unit_speed and its torques are in unit_torque.
  Parameter unit_speed = parameter("unit_speed", 1.0, {.unit = "rad/s", .description = "unit constant", .structural = true});
  Variable phi_a = variable("phi_a", {.unit = "rad", .description = "flange_a angle from the support"});
  Variable phi_b = variable("phi_b", {.unit = "rad", .description = "flange_b angle from the support"});
  Variable phi_support = variable("phi_support", {.unit = "rad"});
  Variable w_a = variable("w_a", {.unit = "rad/s", .description = "flange_a speed relative to the support"});
  Variable a_a = variable("a_a", {.unit = "rad/s2"});
  Variable sa = variable("sa", {.unit = "1", .description = "path parameter: the torque loss when stuck (in unit_torque)"});
  Variable eta_mf1 = variable("eta_mf1", {.unit = "1", .description = "mesh efficiency, flange_a driving"});
  Variable eta_mf2 = variable("eta_mf2", {.unit = "1", .description = "mesh efficiency, flange_b driving"});
  Variable tau_bf1 = variable("tau_bf1", {.unit = "N.m", .description = "bearing friction at flange_a, flange_a driving"});
  Variable tau_bf2 = variable("tau_bf2", {.unit = "N.m", .description = "bearing friction at flange_a, flange_b driving"});
  Variable tau_bf_a = variable("tau_bf_a", {.unit = "N.m", .description = "bearing friction on the flange_a side"});
  Variable tau_eta = variable("tau_eta", {.unit = "N.m", .description = "torque that decides the driving side"});
  Variable tau_eta_p = variable("tau_eta_p", {.unit = "N.m", .description = "tau_eta assuming w_a > 0"});
  Variable tau_eta_m = variable("tau_eta_m", {.unit = "N.m", .description = "tau_eta assuming w_a < 0"});
  Variable quadrant1 = variable("quadrant1", {.unit = "N.m", .description = "loss, w_a > 0, flange_a driving"});
  Variable quadrant2 = variable("quadrant2", {.unit = "N.m", .description = "loss, w_a > 0, flange_b driving"});
  Variable quadrant3 = variable("quadrant3", {.unit = "N.m", .description = "loss, w_a < 0, flange_b driving"});
  Variable quadrant4 = variable("quadrant4", {.unit = "N.m", .description = "loss, w_a < 0, flange_a driving"});
  Variable tauLoss = variable("tauLoss", {.unit = "N.m", .description = "torque loss of mesh and bearings"});
  Variable tauLossMax = variable("tauLossMax", {.unit = "N.m", .description = "torque loss rolling forward"});
  Variable tauLossMin = variable("tauLossMin", {.unit = "N.m", .description = "torque loss rolling backward"});
  Variable tauLossMax_p = variable("tauLossMax_p", {.unit = "N.m", .description = "break-away loss forward (at w_a = 0+)"});
  Variable tauLossMin_m = variable("tauLossMin_m", {.unit = "N.m", .description = "break-away loss backward (at w_a = 0-)"});
  Discrete tau_etaPos = discrete("tau_etaPos", {.start = 1, .kind = DiscreteKind::boolean});
  Discrete startForward = discrete("startForward", {.kind = DiscreteKind::boolean});
  Discrete startBackward = discrete("startBackward", {.kind = DiscreteKind::boolean});
  Discrete locked = discrete("locked", {.kind = DiscreteKind::boolean});
  // MSL starts from Free (fixed): at rest, the first event iteration locks or starts it.
  Discrete mode = discrete("mode", {.start = Free,
                                    .kind = DiscreteKind::integer,
                                    .description = "-1 backward, 0 stuck, 1 forward, 2 free (ideal)"});
  thermal::ConditionalHeatPort heat{*this};

  explicit PartialLossyGear(std::string name) : Component(std::move(name)) {
    // A ratio of 0 locks flange_a and cuts flange_b off: a singular model.
    require(abs(ratio) > 0.0, "ratio must not be 0");
    equation(phi_a == flange_a.phi - phi_support);
    equation(phi_b == flange_b.phi - phi_support);
    equation(phi_a == ratio * phi_b);
    // No inertia: the torque balance with the loss referred to flange_a.
    equation(0.0 == flange_b.tau + ratio * (flange_a.tau - tauLoss));
    equation(w_a == der(phi_a));
    equation(a_a == der(w_a));
    const Expr tau_a = flange_a.tau;
    equation(quadrant1 == (1.0 - eta_mf1) * tau_a + tau_bf1);
    equation(quadrant2 == (1.0 - 1.0 / eta_mf2) * tau_a + tau_bf2);
    equation(quadrant4 == (1.0 - 1.0 / eta_mf2) * tau_a - tau_bf2);
    equation(quadrant3 == (1.0 - eta_mf1) * tau_a - tau_bf1);
    // The driving side is held between events (a Boolean of a relation, as in MSL).
    equation(tau_etaPos == (tau_eta >= 0.0));
    equation(tauLossMax == ifelse(tau_etaPos, quadrant1, quadrant2));
    equation(tauLossMin == ifelse(tau_etaPos, quadrant4, quadrant3));
    // Break-away tests, as MSL's (pre(mode) == Stuck and sa > tauLossMax_p) but
    // with the relation on a constant while not stuck: there sa is an
    // acceleration, and its crossings would only cause idle events.
    const Expr was_stuck = equal(pre(mode), Stuck);
    const Expr forward_margin = ifelse(was_stuck, sa - tauLossMax_p / unit_torque, -1.0);
    const Expr backward_margin = ifelse(was_stuck, sa - tauLossMin_m / unit_torque, 1.0);
    equation(startForward == (forward_margin > 0.0 || (initial() && w_a > 0.0)));
    equation(startBackward == (backward_margin < 0.0 || (initial() && w_a < 0.0)));
    // Stuck: a_a = 0 and sa is the loss torque; rolling: sa - tauLoss is the acceleration.
    equation(a_a / unit_acceleration == ifelse(locked, 0.0, sa - tauLoss / unit_torque));
    set_lossTable({{0.0, 1.0, 1.0, 0.0, 0.0}});
    heat.equations(*this, tauLoss * w_a);
  }

  /// The loss table, rows (|w_a|, eta_mf1, eta_mf2, tau_bf1, tau_bf2) with
  /// |w_a| increasing; linear between rows and beyond them (MSL's
  /// Vectors.interpolate), a constant for one row. Efficiencies must be in
  /// (0, 1]: above 1 the gear would make power. [0, 1, 1, 0, 0] alone is ideal.
  void set_lossTable(const std::vector<LossRow>& rows) {
    const std::string owner = "LossyGear '" + name() + "' lossTable";
    if (rows.empty()) throw ModelError(owner + ": the table is empty");
    for (std::size_t i = 0; i < rows.size(); ++i) {
      for (double v : rows[i])
        if (!std::isfinite(v)) throw ModelError(owner + ": row " + std::to_string(i) + " is not finite");
      if (i > 0 && !(rows[i][0] > rows[i - 1][0]))
        throw ModelError(owner + ": speeds |w_a| must increase (row " + std::to_string(i) + ")");
      for (std::size_t c : {1u, 2u})
        if (!(rows[i][c] > 0.0 && rows[i][c] <= 1.0))
          throw ModelError(owner + ": row " + std::to_string(i) + ": " + (c == 1 ? "eta_mf1" : "eta_mf2") + " = " +
                           std::to_string(rows[i][c]) + " must be in (0, 1]");
    }
    auto column = [&](const Expr& x, std::size_t c) {
      std::vector<std::pair<double, double>> points;
      for (const auto& row : rows) points.emplace_back(row[0], row[c]);
      return blocks::interpolate(x, points, owner, "speeds |w_a|");
    };
    const bool ideal = rows.size() == 1 && rows[0] == LossRow{0.0, 1.0, 1.0, 0.0, 0.0};
    // The losses at w_a = 0 decide break-away (MSL's protected parameters eta_mf1_0, ...).
    const double eta1_0 = at_zero(rows, 1), eta2_0 = at_zero(rows, 2);
    const double bf1_0 = std::fabs(at_zero(rows, 3)), bf2_0 = std::fabs(at_zero(rows, 4));
    // A table that starts above w_a = 0 is extrapolated there; break-away divides by eta_mf2_0.
    if (!(eta1_0 > 0.0 && eta1_0 <= 1.0 && eta2_0 > 0.0 && eta2_0 <= 1.0))
      throw ModelError(owner + ": the efficiencies extrapolated to w_a = 0 (" + std::to_string(eta1_0) + ", " +
                       std::to_string(eta2_0) + ") must be in (0, 1]");
    const double bf_a_0 = both_one(eta1_0, eta2_0) ? bf1_0 / 2.0 : (bf1_0 - bf2_0) / (eta1_0 - 1.0 / eta2_0);
    const Expr speed = no_event(abs(w_a)) / unit_speed;
    const Expr eta1 = column(speed, 1), eta2 = column(speed, 2);
    const Expr tau_a = flange_a.tau;
    const Expr rolling_forward = startForward || equal(pre(mode), Forward);
    set_equations(*this, table_equations_, {
        eta_mf1 == eta1,
        eta_mf2 == eta2,
        tau_bf1 == unit_torque * no_event(abs(column(speed, 3))),
        tau_bf2 == unit_torque * no_event(abs(column(speed, 4))),
        tau_bf_a == bearing_friction_a(eta1, eta2),
        tau_eta_p == tau_a - bf_a_0,
        tau_eta_m == tau_a + bf_a_0,
        // Continuous at tau_eta_p = 0 (Bertsch's fix), so no event is needed.
        tauLossMax_p == ifelse(no_event(tau_eta_p > 0.0), (1.0 - eta1_0) * tau_a + bf1_0,
                               (1.0 - 1.0 / eta2_0) * tau_a + bf2_0),
        tauLossMin_m == ifelse(no_event(tau_eta_m > 0.0), (1.0 - 1.0 / eta2_0) * tau_a - bf2_0,
                               (1.0 - eta1_0) * tau_a - bf1_0),
        tau_eta == (ideal ? Expr(tau_a)
                          : ifelse(locked, tau_a, ifelse(rolling_forward, tau_a - tau_bf_a, tau_a + tau_bf_a))),
        locked == (ideal ? Expr(0.0)
                         : !(equal(pre(mode), Forward) || startForward || equal(pre(mode), Backward) || startBackward)),
        tauLoss == (ideal ? Expr(0.0)
                          : ifelse(locked, sa * unit_torque, ifelse(rolling_forward, tauLossMax, tauLossMin))),
        mode == (ideal ? Expr(Free)
                       : ifelse(rolling_forward && w_a > 0.0, Forward,
                                ifelse((equal(pre(mode), Backward) || startBackward) && w_a < 0.0, Backward, Stuck))),
    });
  }

 private:
  static bool both_one(double eta1, double eta2) {
    constexpr double eps = 2.220446049250313e-16;  // Modelica.Constants.eps, as MSL's isEqual
    return std::fabs(eta1 - 1.0) <= eps && std::fabs(eta2 - 1.0) <= eps;
  }

  /// tau_bf_a from tau_bf1 = eta_mf1·tau_bf_a + tau_bf_b/ratio and tau_bf2 =
  /// tau_bf_a/eta_mf2 + tau_bf_b/ratio; with both efficiencies 1 the split is
  /// arbitrary and MSL takes half. Decided here for a constant table; else at
  /// run time, the denominator guarded (both branches are evaluated).
  Expr bearing_friction_a(const Expr& eta1, const Expr& eta2) const {
    if (eta1.is_const() && eta2.is_const()) {
      if (both_one(eta1.value(), eta2.value())) return tau_bf1 / 2.0;
      return (tau_bf1 - tau_bf2) / (eta1.value() - 1.0 / eta2.value());
    }
    constexpr double eps = 2.220446049250313e-16;
    const Expr ideal_mesh = no_event(abs(eta_mf1 - 1.0) <= eps && abs(eta_mf2 - 1.0) <= eps);
    return ifelse(ideal_mesh, tau_bf1 / 2.0, (tau_bf1 - tau_bf2) / ifelse(ideal_mesh, 1.0, eta_mf1 - 1.0 / eta_mf2));
  }

  /// Column c at |w_a| = 0, as blocks::interpolate reads it (the first
  /// segment continued below the first row).
  static double at_zero(const std::vector<LossRow>& rows, std::size_t c) {
    if (rows.size() == 1) return rows[0][c];
    std::size_t i = 0;
    while (i + 2 < rows.size() && !(0.0 < rows[i + 1][0])) ++i;
    const auto& r0 = rows[i];
    const auto& r1 = rows[i + 1];
    return r0[c] + (r1[c] - r0[c]) / (r1[0] - r0[0]) * (0.0 - r0[0]);
  }

  std::vector<std::size_t> table_equations_;
};

/// Lossy gear in a fixed housing (MSL LossyGear, useSupport = false).
struct LossyGear : PartialLossyGear {
  explicit LossyGear(std::string name) : PartialLossyGear(std::move(name)) { equation(phi_support == 0.0); }
};

/// Lossy gear whose housing is the `support` flange (MSL useSupport = true): it
/// turns with the support and passes the reaction torque -(flange_a.tau +
/// flange_b.tau) to it; w_a and the losses are relative to the support.
struct LossyGearWithSupport : PartialLossyGear {
  Flange support{*this, "support"};

  explicit LossyGearWithSupport(std::string name) : PartialLossyGear(std::move(name)) {
    equation(phi_support == support.phi);
    equation(support.tau == -(flange_a.tau + flange_b.tau));
  }
};

}  // namespace acausal::rotational
