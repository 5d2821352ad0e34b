// The top-level model: a component tree plus start values, compiled into a Simulator.
#pragma once

#include <string>

#include "solver/modeling/component.hpp"
#include "solver/modeling/compile_options.hpp"

namespace acausal {

class Simulator;  // solver/runtime/simulator.hpp


class Model : public Component {
 public:
  explicit Model(std::string name) : Component(std::move(name)) {}
  std::string type_name() const override { return "Model"; }

  /// Runs the compiler's passes in order (solver/pipeline/pipeline.cpp lists
  /// them) and returns the compiled model. Throws ModelError with diagnostics.
  Simulator compile(const CompileOptions& options = {}) const;
};

}  // namespace acausal
