// What the expression core needs of tables: an Op::Table node names an entry
// (Node::symbol), and evaluating, differentiating or printing the node asks
// the table registry (table.cpp) through these three functions. Declared apart
// from table.hpp so that expr.cpp does not depend on the tables built on it.
#pragma once

#include <cstdint>
#include <string>

#include "solver/symbolic/expr.hpp"

namespace acausal {

/// The value of entry `entry` (Node::symbol of an Op::Table node) at its two arguments.
double table_evaluate(std::uint32_t entry, double a, double b);
/// The derivative of an Op::Table node with respect to its argument i (0 or 1), as an expression.
Expr table_partial(const Node* table_node, int i);
/// A short name of the entry for printing ("table3'", "table3.segment").
std::string table_entry_name(std::uint32_t entry);

}  // namespace acausal
