#pragma once

#include <fmt/format.h>

#include <string>
#include <vector>

#include "solver/modeling/component.hpp"

namespace acausal::blocks {

/// For a source that acts at given instants (BooleanTable, RadioButtonSource):
/// declares parameters `name`_1 < `name`_2 < … (s) on `source` with `times` as
/// defaults, appends them to `instants` and returns how many of them time has
/// reached, a sum of time events. `owner` names the source in the error for
/// an empty list.
inline Expr instants_reached(Component& source, const std::string& owner, const std::string& name,
                             const std::vector<double>& times, std::vector<Parameter>& instants) {
  if (times.empty()) throw ModelError(fmt::format("{}: {} needs one instant at least", owner, name));
  Expr reached(0.0);
  for (std::size_t i = 1; i <= times.size(); ++i) {
    instants.push_back(source.parameter(fmt::format("{}_{}", name, i), times[i - 1], {.unit = "s"}));
    reached = reached + (time_symbol() >= instants.back());
    if (i > 1)
      source.require(instants[i - 1] > instants[i - 2],
                     fmt::format("the instants increase strictly ({0}_{1} > {0}_{2})", name, i, i - 1));
  }
  return reached;
}

}  // namespace acausal::blocks
