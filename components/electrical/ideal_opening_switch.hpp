#pragma once

#include "components/electrical/ideal_switch.hpp"

namespace acausal::electrical {

/// Ideal opening switch (MSL Ideal.IdealOpeningSwitch): open (Goff) while
/// control > 0.5, closed (p and n connected through Ron) otherwise.
struct IdealOpeningSwitch : IdealSwitch {
  explicit IdealOpeningSwitch(std::string name) : IdealSwitch(std::move(name)) { equation(off == (control > 0.5)); }
};

}  // namespace acausal::electrical
