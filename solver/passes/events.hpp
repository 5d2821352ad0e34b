// Events. Relations (<, <=, >, >=) and abs, sign, min, max on values
// that change with time become modes: the residual reads a frozen 0/1 value
// that only changes at events, so IDA integrates smooth functions, and each
// mode has an indicator whose zero crossing is the event. Indicators linear in
// time alone (time >= startTime) are time events, hit exactly. Expressions
// under no_event() keep their literal form.
#pragma once

#include "solver/ir/dae.hpp"

namespace acausal {

void extract_events(DaeSystem& dae);
/// The report of the hybrid part: discrete variables, when-clauses, clocks
/// (nothing for a model without them).
void report_hybrid(DaeSystem& dae);

}  // namespace acausal
