// Index reduction (before matching).
//
// Pantelides' algorithm finds the equations that must be differentiated so
// that every equation can be matched to a highest derivative; the selected
// equations are differentiated symbolically. Dummy derivatives
// (Mattsson–Söderlind) then turn as many derivatives into plain algebraic
// unknowns as there are differentiated equations, level by level, leaving an
// index-1 DAE whose states are the remaining differentiated variables.
// Derivatives of order two and more become variables of their own
// ("der(x)"), so the result is first order.
#pragma once

#include "solver/ir/dae.hpp"

namespace acausal {

/// Does nothing for index-0/1 models and for models that are not square (the
/// matching pass reports those).
void reduce_index(DaeSystem& dae);

}  // namespace acausal
