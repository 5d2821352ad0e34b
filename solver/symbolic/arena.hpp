// The arena behind expressions (expr.cpp and arena.cpp only): interning,
// symbols, and the compiler's derived symbols.
#pragma once

#include <cstdint>
#include <string>

#include "solver/symbolic/expr.hpp"

namespace acausal::arena {

/// The node with these fields, made if the arena has none yet.
const Node* intern(Op op, std::uint32_t symbol, double value, const Node* a, const Node* b, const Node* c);
/// A new symbol number, printed as `name`.
std::uint32_t new_symbol(const std::string& name);
const std::string& symbol_name(std::uint32_t symbol);
/// The symbol of kind `kind` for (of, role), made on first request; it lives as long as `of`.
const Node* derived(Op kind, const Node* of, const std::string& role, const std::string& name);
/// Nodes in the arena now.
std::size_t count();
/// Keeps n from ever being collected (the shared constants 0 and 1).
const Node* pin(const Node* n);

}  // namespace acausal::arena
