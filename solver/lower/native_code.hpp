// Native code (optional): the compiled model's tapes as native code. Every tape is
// written as a C function, the system's C compiler builds them into a shared
// library and the tapes call its functions instead of interpreting. The
// library is cached by the hash of its source, so a model compiled again (in
// another process of a sweep, say) loads it without running the compiler. A
// cached library is loaded only after its bytes are checked against the
// SHA-256 recorded when it was built; a damaged or replaced one is rebuilt.
#pragma once

#include "solver/modeling/compile_options.hpp"

namespace acausal {

struct CompiledModel;


/// Throws ModelError when the compiler is missing or fails (its output and the
/// path of the source it was given are in the message), and when the cache
/// directory is not the user's own or others may write to it.
void generate_native_code(CompiledModel& model, const NativeCodeOptions& options = {});

}  // namespace acausal
