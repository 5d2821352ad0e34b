#pragma once

#include <fmt/format.h>

#include <vector>

#include "components/blocks/discrete_sources/instants.hpp"
#include "components/blocks/logical/pre.hpp"

namespace acausal::blocks {

/// MSL Sources.BooleanTable: y starts at startValue and changes to its
/// opposite at each of the instants table_1 < table_2 < … (time events); after
/// the last it holds (MSL's default extrapolation). The number of instants is
/// a build option; their values are parameters.
struct BooleanTable : Component {
  BooleanOutput y{*this, "y"};
  Parameter startValue = parameter("startValue", 0.0, boolean_parameter("y before table_1"));
  std::vector<Parameter> table;

  explicit BooleanTable(std::string name, const std::vector<double>& times = {0.0, 1.0}) : Component(std::move(name)) {
    const Expr switches = instants_reached(*this, fmt::format("BooleanTable '{}'", path()), "table", times, table);
    equation(y == !equal(mod(switches, 2.0), startValue));
  }
};

}  // namespace acausal::blocks
