#pragma once

#include "components/blocks/sources/partial_variable_frequency.hpp"

namespace acausal::blocks {

/// MSL Blocks.Sources.CosineVariableFrequencyAndAmplitude: a cosine whose
/// phase is integrated from the frequency, der(phi) = 2π·f,
/// y = offset + amplitude·cos(phi); inputs `amplitude` and `f` [Hz], or the
/// parameters constantAmplitude and constantFrequency (VariableFrequencyOptions).
struct CosineVariableFrequencyAndAmplitude : PartialVariableFrequencyAndAmplitude {
  explicit CosineVariableFrequencyAndAmplitude(std::string name, VariableFrequencyOptions options = {})
      : PartialVariableFrequencyAndAmplitude(std::move(name), options, [](const Expr& phase) { return cos(phase); }) {}
};

}  // namespace acausal::blocks
