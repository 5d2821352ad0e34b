#pragma once

#include "components/electrical/batteries/base_cell_stack.hpp"

namespace acausal::electrical {

/// Battery stack of Ns × Np identical cells (MSL Batteries.BatteryStacks.CellStack,
/// Ns = Np = 1 for a single cell): open-circuit voltage OCV(SOC), self-discharge
/// and the inner resistance Ri of a cell, v = OCV + Ns·Ri/Np·(1 +
/// alpha·(T_heatPort - T_ref))·i with i into p charging. SOC counts charge, OCV
/// follows MSL's linear law or set_ocv_table(), the cells store ∫OCV dQ and
/// the losses heat heat_port (see BaseCellStack). For the transients of a
/// real cell after a current step, CellRCStack adds RC pairs.
struct CellStack : BaseCellStack {
  explicit CellStack(std::string name) : BaseCellStack(std::move(name)) {
    terminal_equations(Ri, "the inner resistance Ri must be positive", 0.0, 0.0);
  }
};

}  // namespace acausal::electrical
