#pragma once

#include "components/electrical/ideal_semiconductor.hpp"

namespace acausal::electrical {

/// Ideal diode (MSL Ideal.IdealDiode): conducts (resistance Ron) once the
/// voltage exceeds Vknee, blocks (conductance Goff) once the current falls
/// below Goff·Vknee: off = s < 0, a state event at each switching instant.
/// Ron = Goff = 0 is the textbook ideal diode.
struct IdealDiode : IdealSemiconductor {
  explicit IdealDiode(std::string name) : IdealSemiconductor(std::move(name)) { equation(off == (s < 0.0)); }
};

}  // namespace acausal::electrical
