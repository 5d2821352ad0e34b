// What Model::compile() is asked to do beyond the passes every model runs.
#pragma once

#include <string>

namespace acausal {

struct NativeCodeOptions {
  /// The C compiler; empty: $ACAUSAL_CC, else `cc`.
  std::string compiler;
  /// Where built libraries are kept; empty: $ACAUSAL_CACHE_DIR, else
  /// $XDG_CACHE_HOME/acausal, else ~/.cache/acausal, else the temporary directory.
  std::string cache_directory;
};

struct CompileOptions {
  /// Run the residual, Jacobian, event and output tapes as machine code built
  /// by the system's C compiler (cached; see solver/lower/native_code.hpp) instead of
  /// interpreting them. Same results bit for bit; costs a compiler run the
  /// first time a model is compiled.
  bool native_code = false;
  NativeCodeOptions native;
};

}  // namespace acausal
