// Native code (optional): the compiled model's tapes as native code. Every tape is
// written as a C function, the system's C compiler builds them into a shared
// library and the tapes call its functions instead of interpreting. The
// library is cached by the hash of its source, so a model compiled again (in
// another process of a sweep, say) loads it without running the compiler.
#pragma once

#include "solver/modeling/compile_options.hpp"

namespace acausal {

struct CompiledModel;


/// Throws ModelError when the compiler is missing or fails (its output and the
/// path of the source it was given are in the message).
void generate_native_code(CompiledModel& model, const NativeCodeOptions& options = {});

}  // namespace acausal
