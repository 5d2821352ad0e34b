#pragma once

#include <fmt/format.h>

#include <vector>

#include "components/blocks/discrete_sources/instants.hpp"
#include "components/blocks/logical/pre.hpp"

namespace acausal::blocks {

/// MSL Sources.RadioButtonSource: a button pressed at the instants
/// buttonTimeTable_1 < buttonTimeTable_2 < … (time events) sets `on`, and a
/// rising input reset1 … reset_nReset clears it. As in MSL a reset acts one
/// event iteration after it rises (through pre), so that two buttons may
/// reset each other (start.on into stop.reset1 and back) without an
/// algebraic loop: pressing one releases the other at the same instant. A
/// press and a reset acting in the same iteration: the press wins. The
/// numbers of instants and of resets are build options (MSL's default is
/// one reset; an unconnected reset is an error, connect a BooleanConstant);
/// the instants are parameters.
struct RadioButtonSource : Component {
  BooleanOutput on{*this, "on"};
  std::vector<BooleanInput*> reset;
  std::vector<Parameter> buttonTimeTable;
  Discrete presses = discrete("presses", {.kind = DiscreteKind::integer, .description = "buttons pressed so far"});
  std::vector<Discrete> pre_reset;

  explicit RadioButtonSource(std::string name, const std::vector<double>& times = {0.0, 1.0}, int nReset = 1)
      : Component(std::move(name)), reset(connector_array<BooleanInput>(*this, "reset", nReset)) {
    const Expr pressed =
        instants_reached(*this, fmt::format("RadioButtonSource '{}'", path()), "buttonTimeTable", times, buttonTimeTable);
    equation(presses == pressed);
    std::vector<Expr> conditions{change(presses)};
    for (int k = 0; k < nReset; ++k) {
      pre_reset.push_back(discrete(fmt::format("pre_reset{}", k + 1), {.kind = DiscreteKind::boolean}));
      equation(pre_reset.back() == pre(*reset[k]));
      conditions.push_back(pre_reset.back());
    }
    when(conditions, {on == change(presses)});
  }
};

}  // namespace acausal::blocks
