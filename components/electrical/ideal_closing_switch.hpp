#pragma once

#include "components/electrical/ideal_switch.hpp"

namespace acausal::electrical {

/// Ideal closing switch (MSL Ideal.IdealClosingSwitch): closed (p and n
/// connected through Ron) while control > 0.5, open (Goff) otherwise.
struct IdealClosingSwitch : IdealSwitch {
  explicit IdealClosingSwitch(std::string name) : IdealSwitch(std::move(name)) { equation(off == !(control > 0.5)); }
};

}  // namespace acausal::electrical
