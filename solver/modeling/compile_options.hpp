// What Model::compile() is asked to do beyond the passes every model runs.
#pragma once

#include <string>

namespace acausal {

struct NativeCodeOptions {
  /// The C compiler; empty: $ACAUSAL_CC, else `cc`. A program name (looked up
  /// in PATH) optionally followed by arguments, all separated by whitespace,
  /// e.g. "clang -march=native". It is run directly, never by a shell: no
  /// quoting, expansion or `;` (a path containing spaces cannot be named).
  std::string compiler;
  /// Where built libraries are kept; empty: $ACAUSAL_CACHE_DIR, else
  /// $XDG_CACHE_HOME/acausal, else $HOME/.cache/acausal, else a fresh private
  /// directory (mkdtemp, 0700) for this process only, removed when it exits.
  /// Directories it creates are owner-only (0700); an existing one must belong
  /// to the user and be writable by nobody else, or compile() refuses it.
  std::string cache_directory;
};

/// What a dimensional contradiction between declared units is: a warning in
/// the compile report (CompileReport::warnings, kind "unit"), or a ModelError
/// listing every one with its equation.
enum class UnitCheck { warn, error };

struct CompileOptions {
  /// Run the residual, Jacobian, event and output tapes as machine code built
  /// by the system's C compiler (cached; see solver/lower/native_code.hpp) instead of
  /// interpreting them. Same results bit for bit; costs a compiler run the
  /// first time a model is compiled.
  bool native_code = false;
  NativeCodeOptions native;
  UnitCheck units = UnitCheck::warn;
};

}  // namespace acausal
