#pragma once

#include "solver/modeling/component.hpp"

namespace acausal::blocks {

/// How a block with states starts (MSL Modelica.Blocks.Types.Init), the value
/// of its structural `initType` parameter:
/// NoInit: no initial equation (the states start from their start values
/// unless the model fixes them otherwise); SteadyState: the states'
/// derivatives are zero; InitialState: the states equal their *_start
/// parameters; InitialOutput: the output equals y_start, other states steady.
/// A start value the user fixes on a state (Model::set_start) replaces the
/// block's own initial value for it.
enum Init { NoInit, SteadyState, InitialState, InitialOutput };

/// The attributes of an initType parameter: a structural choice by name.
inline ParameterAttributes init_type_attributes() {
  return {.description = "how the block starts (NoInit, SteadyState, InitialState, InitialOutput)",
          .choices = {"NoInit", "SteadyState", "InitialState", "InitialOutput"}};
}

}  // namespace acausal::blocks
