#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "components/electrical/conditional_heat_port.hpp"
#include "connectors/signal.hpp"
#include "solver/symbolic/table.hpp"

namespace acausal::electrical {

/// What CellStack and CellRCStack share (MSL Batteries.BaseClasses.BaseCellStack):
/// Ns identical cells in series times Np in parallel behind the pins p and n,
/// with an open-circuit voltage OCV(SOC), a self-discharge conductance across
/// it and a series resistance carrying the terminal current i (into p:
/// charging). Cell parameters carry MSL's CellData names and are per cell;
/// the stack scales them (voltages ×Ns, charge ×Np, resistances ×Ns/Np).
///
/// SOC counts charge: Np·Qnom·der(SOC) = i - i_selfDischarge. It is not
/// clamped (MSL's LimIntegrator clamps it and asserts): a run that takes SOC
/// past SOCmin or SOCmax (by more than SOCtolerance) ends there with an
/// error naming the stack, "battery exhausted" or "battery overcharged", at
/// the instant of the crossing; a controller that must not get there reads
/// the limit outputs below.
/// OCV = Ns·OCVmax·f(SOC), f the normalized OCV/OCVmax: by default MSL's
/// linear law from (SOCmin, OCVmin/OCVmax) to (SOCmax, 1), else the table
/// given to set_ocv_table(), linear between its points; both hold their end
/// values beyond them, as MSL's HoldLastPoint does.
///
/// The cells store E_chem = ∫OCV dQ (J; from SOCmin with the linear law, from
/// the table's first SOC with a table): a closed form of SOC for either law,
/// so the energy books see the battery store and return energy rather than
/// supply it like a fuel, and the losses (series resistance,
/// self-discharge, the RC pairs' resistors: LossPower) heat heat_port with
/// use_heat_port = 1 or are dissipated. The resistances grow with the device
/// temperature T_heatPort as R·(1 + alpha·(T_heatPort - T_ref)).
///
/// For a controller, the outputs I_dis_max and I_chg_max are the largest
/// discharge and charge currents (>= 0, A) that would put the terminals at
/// Ns·OCVmin and Ns·OCVmax at once, given the present OCV and RC voltages
/// (through the series resistance alone: the RC pairs do not react in an
/// instant); P_dis_max and P_chg_max are the terminal powers at those
/// currents. They say nothing of the cells' current rating.
struct BaseCellStack : ConditionalHeatPort {
  Parameter Ns = parameter("Ns", 1.0, {.unit = "1", .min = 1, .description = "number of cells in series"});
  Parameter Np = parameter("Np", 1.0, {.unit = "1", .min = 1, .description = "number of cells in parallel"});
  Parameter Qnom =
      parameter("Qnom", 18000.0, {.unit = "A.s", .min = 0, .description = "nominal (maximum) charge of a cell"});
  Parameter OCVmax =
      parameter("OCVmax", 4.2, {.unit = "V", .min = 0, .description = "open-circuit voltage of a cell at SOCmax"});
  Parameter OCVmin = parameter(
      "OCVmin", 2.5,
      {.unit = "V", .min = 0, .description = "cell OCV at SOCmin (linear law); the lowest cell voltage of the limits"});
  Parameter SOCmax = parameter("SOCmax", 1.0, {.unit = "1", .max = 1, .description = "maximum state of charge"});
  Parameter SOCmin = parameter("SOCmin", 0.0, {.unit = "1", .min = 0, .description = "minimum state of charge"});
  Parameter SOCtolerance = parameter(
      "SOCtolerance", 1e-9,
      {.unit = "1", .min = 0, .description = "how far SOC may pass SOCmin or SOCmax before the battery is exhausted "
                                             "or overcharged"});
  Parameter SOC0 = parameter("SOC0", 1.0, {.unit = "1", .description = "initial state of charge (MSL: SOC.start)"});
  Parameter Ri = parameter("Ri", 4.2 / 1200.0,
                           {.unit = "Ohm", .min = 0, .description = "total inner resistance of a cell at T_ref"});
  Parameter T_ref =
      parameter("T_ref", 293.15, {.unit = "K", .min = 0, .description = "reference temperature of the resistances"});
  Parameter alpha =
      parameter("alpha", 0.0, {.unit = "1/K", .description = "temperature coefficient of the resistances at T_ref"});
  Parameter Idis = parameter(
      "Idis", 0.0, {.unit = "A", .min = 0, .description = "self-discharge current of a cell at OCV = OCVmax"});

  RealOutput SOC{*this, "SOC", {.unit = "1", .start = 1.0, .description = "state of charge (coulomb counting)"}};
  Variable OCV = variable("OCV", {.unit = "V", .description = "open-circuit voltage of the stack"});
  Variable i_ocv = variable(
      "i_ocv", {.unit = "A", .description = "current that charges the cells: i less the self-discharge current"});
  Variable i_selfDischarge =
      variable("i_selfDischarge", {.unit = "A", .description = "self-discharge current, through the cells"});
  Variable R0_actual =
      variable("R0_actual", {.unit = "Ohm", .description = "series resistance of the stack at T_heatPort"});
  Variable power = variable("power", {.unit = "W", .description = "v·i, the power into the stack"});
  Variable E_chem = variable(
      "E_chem", {.unit = "J", .description = "energy stored in the cells' charge, ∫OCV dQ from a fixed SOC"});
  RealOutput I_dis_max{*this, "I_dis_max", {.unit = "A", .description = "largest discharge current now (>= 0)"}};
  RealOutput I_chg_max{*this, "I_chg_max", {.unit = "A", .description = "largest charge current now (>= 0)"}};
  RealOutput P_dis_max{*this, "P_dis_max",
                       {.unit = "W", .description = "terminal power delivered at I_dis_max (>= 0)"}};
  RealOutput P_chg_max{*this, "P_chg_max", {.unit = "W", .description = "terminal power taken at I_chg_max (>= 0)"}};

  explicit BaseCellStack(std::string name) : ConditionalHeatPort(std::move(name), 293.15) {
    require(OCVmax > OCVmin, "0 <= OCVmin < OCVmax");
    require(SOCmax > SOCmin, "0 <= SOCmin < SOCmax <= 1");
    // Qnom = 0 leaves der(SOC) undetermined.
    require(Qnom > 0, "the nominal charge Qnom must be positive");
    initial_value(SOC, SOC0);
    assertion(SOC > SOCmin - SOCtolerance, "battery exhausted: SOC fell below SOCmin");
    assertion(SOC < SOCmax + SOCtolerance, "battery overcharged: SOC rose above SOCmax");
    equation(Np * Qnom * der(SOC) == i_ocv);
    equation(i == i_ocv + i_selfDischarge);
    // MSL's conductance Np·Idis/(Ns·OCVmax) across the OCV: Np·Idis at full voltage.
    equation(i_selfDischarge == Np * Idis / (Ns * OCVmax) * OCV);
    equation(power == v * i);
    ocv_law_ = equation(OCV == Ns * OCVmax * linear_ocv());
    energy_law_ = equation(E_chem == Ns * Np * Qnom * OCVmax * linear_ocv_integral());
    stored_energy(E_chem);
  }

  /// The normalized OCV table, (SOC, OCV/OCVmax) points with SOC increasing,
  /// in [0, 1] both, linear between, held beyond (MSL's OCV_SOC with
  /// useLinearSOCDependency = false and LinearSegments). Call before compiling;
  /// OCVmin still sets the lower voltage of the limits.
  void set_ocv_table(const std::vector<std::pair<double, double>>& points) {
    if (points.size() < 2)
      throw ModelError(fmt::format("{} '{}': the OCV table needs at least two points, got {}", type_name(), path(),
                                   points.size()));
    Table1D f;
    for (std::size_t k = 0; k < points.size(); ++k) {
      const auto [soc, ratio] = points[k];
      if (!(soc >= 0.0 && soc <= 1.0) || !(ratio >= 0.0 && ratio <= 1.0))
        throw ModelError(fmt::format("{} '{}': OCV table point {} is (SOC {}, OCV/OCVmax {}); both must lie in [0, 1]",
                                     type_name(), path(), k + 1, soc, ratio));
      if (k > 0 && !(soc > points[k - 1].first))
        throw ModelError(fmt::format("{} '{}': the SOC of the OCV table must increase (point {}: {} after {})",
                                     type_name(), path(), k + 1, soc, points[k - 1].first));
      f.x.push_back(soc);
      f.y.push_back(ratio);
    }
    check_table(f, fmt::format("{} '{}' OCV table", type_name(), path()));
    replace_equation(ocv_law_, OCV == Ns * OCVmax * table(SOC, f));
    replace_equation(energy_law_, E_chem == Ns * Np * Qnom * OCVmax * table_integral(f));
  }

 protected:
  /// The terminal law, the losses and the limits, once the derived stack knows
  /// its series resistance per cell `R0_cell` (required positive, as
  /// `requirement` says), the voltage `v_pairs` across its RC pairs (stack
  /// level) and their loss `pairs_loss`.
  void terminal_equations(const Expr& R0_cell, const std::string& requirement, const Expr& v_pairs,
                          const Expr& pairs_loss) {
    // A zero series resistance would leave the limits nothing to divide by.
    require(R0_cell > 0, requirement);
    equation(R0_actual == Ns * R0_cell / Np * (1.0 + alpha * (T_heatPort - T_ref)));
    equation(v == OCV + v_pairs + R0_actual * i);
    equation(LossPower == R0_actual * i * i + i_selfDischarge * OCV + pairs_loss);
    // The terminal voltage at zero current, now; the limits are no_event: a
    // controller reads them, the model's switching does not depend on them.
    const Expr v_rest = OCV + v_pairs;
    equation(I_dis_max == no_event(max(0.0, (v_rest - Ns * OCVmin) / R0_actual)));
    equation(I_chg_max == no_event(max(0.0, (Ns * OCVmax - v_rest) / R0_actual)));
    equation(P_dis_max == Ns * OCVmin * I_dis_max);
    equation(P_chg_max == Ns * OCVmax * I_chg_max);
  }

 private:
  /// SOC clamped to [SOCmin, SOCmax] without events (the law's kinks at the
  /// ends are the table's, which make none either).
  Expr held_soc() const { return no_event(min(max(SOC, SOCmin), SOCmax)); }

  Expr linear_ocv() const {
    const Expr ratio_min = OCVmin / OCVmax;
    return ratio_min + (1.0 - ratio_min) * (held_soc() - SOCmin) / (SOCmax - SOCmin);
  }

  /// ∫ f dSOC from SOCmin: the quadratic up to the held SOC u, then the held
  /// value times the distance beyond it (negative below SOCmin).
  Expr linear_ocv_integral() const {
    const Expr ratio_min = OCVmin / OCVmax;
    const Expr u = held_soc(), d = u - SOCmin;
    return ratio_min * d + (1.0 - ratio_min) * d * d / (2.0 * (SOCmax - SOCmin)) + linear_ocv() * (SOC - u);
  }

  /// ∫ f dSOC from the table's first SOC for the piecewise linear f: on the
  /// segment from x_k, F_k + y_k·d + m_k·d²/2 with d = SOC - x_k. The segment's
  /// constants are tables of constant segments (no events, derivative 0),
  /// each starting at its x_k; a row before the first point and the last one
  /// carry slope 0, so F continues linearly with the held end values.
  Expr table_integral(const Table1D& f) const {
    const std::size_t n = f.x.size();
    std::vector<double> F(n, 0.0), slope(n, 0.0);
    for (std::size_t k = 0; k + 1 < n; ++k) {
      const double h = f.x[k + 1] - f.x[k];
      slope[k] = (f.y[k + 1] - f.y[k]) / h;
      F[k + 1] = F[k] + 0.5 * (f.y[k] + f.y[k + 1]) * h;
    }
    // Rows: the lead-in at x_0 - 1 (segment constants of x_0, slope 0), then one per point.
    auto column = [&](auto value_at) {
      Table1D c;
      c.smoothness = TableSmoothness::constant;
      c.extrapolation = TableExtrapolation::hold;
      c.x.push_back(f.x.front() - 1.0);
      c.y.push_back(value_at(std::size_t{0}, true));
      for (std::size_t k = 0; k < n; ++k) {
        c.x.push_back(f.x[k]);
        c.y.push_back(value_at(k, false));
      }
      return c;
    };
    const Table1D x_k = column([&](std::size_t k, bool) { return f.x[k]; });
    const Table1D F_k = column([&](std::size_t k, bool) { return F[k]; });
    const Table1D y_k = column([&](std::size_t k, bool) { return f.y[k]; });
    const Table1D m_k = column([&](std::size_t k, bool lead_in) { return lead_in ? 0.0 : slope[k]; });
    const Expr d = SOC - table(SOC, x_k);
    return table(SOC, F_k) + table(SOC, y_k) * d + 0.5 * table(SOC, m_k) * d * d;
  }

  std::size_t ocv_law_ = 0;
  std::size_t energy_law_ = 0;
};

}  // namespace acausal::electrical
