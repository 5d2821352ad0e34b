#pragma once

#include "components/blocks/sources/partial_variable_frequency.hpp"

namespace acausal::blocks {

/// MSL Blocks.Sources.SineVariableFrequencyAndAmplitude: a sine whose phase
/// is integrated from the frequency, der(phi) = 2π·f,
/// y = offset + amplitude·sin(phi) (frequency and amplitude modulation);
/// inputs `amplitude` and `f` [Hz], or the parameters constantAmplitude and
/// constantFrequency (VariableFrequencyOptions).
struct SineVariableFrequencyAndAmplitude : PartialVariableFrequencyAndAmplitude {
  explicit SineVariableFrequencyAndAmplitude(std::string name, VariableFrequencyOptions options = {})
      : PartialVariableFrequencyAndAmplitude(std::move(name), options, [](const Expr& phase) { return sin(phase); }) {}
};

}  // namespace acausal::blocks
