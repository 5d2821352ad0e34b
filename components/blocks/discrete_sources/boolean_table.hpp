#pragma once

#include <fmt/format.h>

#include <vector>

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
    if (times.empty()) throw ModelError(fmt::format("BooleanTable '{}': the table needs one instant at least", path()));
    Expr switches(0.0);
    for (std::size_t i = 1; i <= times.size(); ++i) {
      table.push_back(parameter(fmt::format("table_{}", i), times[i - 1], {.unit = "s"}));
      switches = switches + (time_symbol() >= table.back());
      if (i > 1)
        require(table[i - 1] > table[i - 2],
                fmt::format("the instants increase strictly (table_{} > table_{})", i, i - 1));
    }
    equation(y == !equal(mod(switches, 2.0), startValue));
  }
};

}  // namespace acausal::blocks
