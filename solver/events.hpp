// Pass 5: events. Relations (<, <=, >, >=) and abs, sign, min, max on values
// that change with time become modes: the residual reads a frozen 0/1 value
// that only changes at events, so IDA integrates smooth functions, and each
// mode has an indicator whose zero crossing is the event. Indicators linear in
// time alone (time >= startTime) are time events, hit exactly. Expressions
// under no_event() keep their literal form.
#pragma once

#include "solver/dae.hpp"

namespace acausal {

void extract_events(DaeSystem& dae);

}  // namespace acausal
