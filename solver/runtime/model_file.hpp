// A compiled model as a file: what an exported FMU carries so that its shared
// object, in another process and without the component library, runs exactly
// the model the exporter compiled.
//
// The file holds the DAE as the compiler left it (after sorting, events and
// the hybrid pass): variables, parameters with their current values,
// equations, definitions, modes, discretes, when-clauses, tables, as an
// expression DAG written once per shared node. Reading it rebuilds the DAE
// with fresh symbols and lowers it again (the evaluation pass), which is
// deterministic: the tapes are those of the original compile.
//
// Format: text, first line `acausal-compiled-model <version>`; numbers in
// C99 hexadecimal floating point (exact), strings as <length>:<bytes> (any
// byte survives). Not meant to be written by hand.
#pragma once

#include <istream>
#include <ostream>

#include "solver/runtime/simulator.hpp"

namespace acausal {

/// The file's first line: this word and the format's version.
inline constexpr const char* kCompiledModelMagic = "acausal-compiled-model";
inline constexpr long kCompiledModelVersion = 1;

/// Writes the simulator's compiled model, its parameters at their current values.
void write_compiled_model(const Simulator& simulator, std::ostream& out);
/// Reads a compiled model written by write_compiled_model; throws ModelError
/// naming what is wrong for a file that is not one (or of another version).
Simulator read_compiled_model(std::istream& in);

}  // namespace acausal
