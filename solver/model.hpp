// The top-level model: a component tree plus start values, compiled into a Simulator.
#pragma once

#include <string>

#include "solver/component.hpp"
#include "solver/native_code.hpp"
#include "solver/simulator.hpp"

namespace acausal {

struct CompileOptions {
  /// Run the residual, Jacobian, event and output tapes as machine code built
  /// by the system's C compiler (cached; see solver/native_code.hpp) instead of
  /// interpreting them. Same results bit for bit; costs a compiler run the
  /// first time a model is compiled.
  bool native_code = false;
  NativeCodeOptions native;
};

class Model : public Component {
 public:
  explicit Model(std::string name) : Component(std::move(name)) {}
  std::string type_name() const override { return "Model"; }

  /// Runs the compiler passes (flatten, alias elimination, matching, sorting,
  /// evaluation). Throws ModelError with diagnostics.
  Simulator compile(const CompileOptions& options = {}) const;
};

}  // namespace acausal
