#pragma once

#include <numbers>
#include <string>

#include "connectors/signal.hpp"

namespace acausal::blocks {

/// What MSL's useConstantAmplitude and useConstantFrequency choose: whether
/// the amplitude and the frequency are the parameters constantAmplitude and
/// constantFrequency instead of the inputs `amplitude` and `f`.
struct VariableFrequencyOptions {
  bool useConstantAmplitude = false;
  bool useConstantFrequency = false;
};

/// The shared part of MSL's SineVariableFrequencyAndAmplitude and
/// CosineVariableFrequencyAndAmplitude: the phase is integrated from the
/// frequency, der(phi) = 2π·f, and y = offset + amplitude·wave(phi). phi
/// starts at 0 (its start value; Model::set_start sets another). An input
/// replaced by its constant (VariableFrequencyOptions, a constructor argument:
/// the number of equations depends on it) equals that parameter and may not be
/// connected; from Python both are inputs (MSL's default).
struct PartialVariableFrequencyAndAmplitude : Component {
  RealOutput y{*this, "y"};
  RealInput amplitude{*this, "amplitude"};
  RealInput f{*this, "f", {.unit = "Hz"}};
  Parameter constantAmplitude =
      parameter("constantAmplitude", 1.0, {.description = "the amplitude with useConstantAmplitude"});
  Parameter constantFrequency = parameter(
      "constantFrequency", 1.0, {.unit = "Hz", .description = "the frequency with useConstantFrequency"});
  Parameter offset = parameter("offset", 0.0, {.description = "offset of the wave"});
  Variable phi = variable("phi", {.unit = "rad", .description = "phase of the wave"});
  const bool useConstantAmplitude, useConstantFrequency;

 protected:
  PartialVariableFrequencyAndAmplitude(std::string name, VariableFrequencyOptions options, Expr (*wave)(const Expr&))
      : Component(std::move(name)),
        useConstantAmplitude(options.useConstantAmplitude),
        useConstantFrequency(options.useConstantFrequency) {
    if (useConstantAmplitude) {
      equation(amplitude == constantAmplitude);
      conditional_connector(amplitude, Expr(0.0), "useConstantAmplitude = false (VariableFrequencyOptions)");
    }
    if (useConstantFrequency) {
      equation(f == constantFrequency);
      conditional_connector(f, Expr(0.0), "useConstantFrequency = false (VariableFrequencyOptions)");
    }
    equation(der(phi) == 2.0 * std::numbers::pi * f);
    equation(y == offset + amplitude * wave(phi));
    initial_value(phi, 0.0);
  }
};

}  // namespace acausal::blocks
