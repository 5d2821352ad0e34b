// The event clock. A model whose continuous part leaves nothing to integrate
// (a network of Boolean and Integer blocks, a table driving a counter) still
// needs time to advance from event to event and its time relations located.
// The integrator provides both, so such a model gets one hidden state,
// `$event_clock`, with der($event_clock) = 0: constant, cheap, never limiting a
// step. Models with unknowns are left as they are.
#pragma once

#include "solver/ir/dae.hpp"

namespace acausal {

/// The name of the hidden state (left out of Result::names()).
inline constexpr const char* event_clock_name = "$event_clock";

void add_event_clock(DaeSystem& dae);

}  // namespace acausal
