#pragma once

#include <string>
#include <vector>

#include <fmt/format.h>

#include "components/electrical/batteries/base_cell_stack.hpp"

namespace acausal::electrical {

/// Battery stack whose cells answer a current step with transients (MSL
/// Batteries.BatteryStacks.CellRCStack): CellStack's cell with its inner
/// resistance Ri split into a series part R0 = Ri - Σ R_k and nRC RC pairs in
/// series, pair k a resistor R_k (temperature coefficient alpha_k at T_ref)
/// parallel to a capacitor C_k, time constant tau_k = R_k·C_k; all per cell,
/// the stack's pair is Ns·R_k/Np parallel to Np·C_k/Ns. The pair's voltage
/// v_RC_k starts at 0 (MSL: fixed), so a constant current I from rest gives
/// v - OCV = I·(R0 + Σ R_k·(1 - exp(-t/tau_k))) for constant resistances, and
/// in steady state the stack is CellStack with the same Ri. The number of
/// pairs is MSL's nRC, a constructor argument (1 from Python and by default);
/// the pairs' parameters are R_1, C_1, alpha_1, R_2, … The capacitors store
/// ½·C·v², their resistors' losses heat heat_port like the others.
struct CellRCStack : BaseCellStack {
  std::vector<Parameter> R, C, alpha_RC;
  std::vector<Variable> v_RC;

  explicit CellRCStack(std::string name, int nRC = 1) : BaseCellStack(std::move(name)) {
    if (nRC < 1)
      throw ModelError(fmt::format("CellRCStack '{}': nRC = {}; it needs at least one RC pair", path(), nRC));
    Expr v_pairs = 0.0, pairs_loss = 0.0, R_pairs = 0.0;
    for (int k = 1; k <= nRC; ++k) {
      const Parameter& Rk = R.emplace_back(parameter(
          fmt::format("R_{}", k), 0.2 * 4.2 / 1200.0,
          {.unit = "Ohm", .min = 0, .description = fmt::format("resistance of RC pair {} of a cell at T_ref", k)}));
      const Parameter& Ck = C.emplace_back(parameter(
          fmt::format("C_{}", k), 60.0 / (0.2 * 4.2 / 1200.0),
          {.unit = "F", .min = 0, .description = fmt::format("capacitance of RC pair {} of a cell", k)}));
      const Parameter& alphak = alpha_RC.emplace_back(parameter(
          fmt::format("alpha_{}", k), 0.0,
          {.unit = "1/K", .description = fmt::format("temperature coefficient of R_{} at T_ref", k)}));
      const Variable& vk = v_RC.emplace_back(
          variable(fmt::format("v_RC_{}", k),
                   {.unit = "V", .description = fmt::format("voltage across RC pair {} of the stack", k)}));
      // C_k = 0 leaves der(v_RC_k) undetermined; R_k = 0 shorts the pair to an unknown current.
      require(Rk > 0, fmt::format("the resistance R_{} of an RC pair must be positive", k));
      require(Ck > 0, fmt::format("the capacitance C_{} of an RC pair must be positive", k));
      const Expr R_stack = Ns * Rk / Np * (1.0 + alphak * (T_heatPort - T_ref));
      equation(i == Np * Ck / Ns * der(vk) + vk / R_stack);
      initial_value(vk, 0.0);
      stored_energy(0.5 * Np * Ck / Ns * vk * vk);
      v_pairs = v_pairs + vk;
      pairs_loss = pairs_loss + vk * vk / R_stack;
      R_pairs = R_pairs + Rk;
    }
    terminal_equations(Ri - R_pairs, "the series resistance R0 = Ri - sum of R_k must be positive", v_pairs,
                       pairs_loss);
  }
};

}  // namespace acausal::electrical
