// What a compiled model says about one of its parameters (Simulator::parameters, Result::parameters).
#pragma once

#include <string>

namespace acausal {

/// A parameter of a compiled model: its name, a value and its declaration.
struct ParameterInfo {
  std::string name;
  double value = 0.0;
  std::string unit;
  double min = 0.0, max = 0.0;
  std::string description;
  bool structural = false;
  bool input = false;  // an input of the model
};

}  // namespace acausal
