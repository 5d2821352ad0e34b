// Rules of the FMI 2.0 standard that a model description can be checked against without running the FMU.
#pragma once

#include <string>
#include <vector>

#include "fmi/check/model_description.hpp"

namespace acausal::fmi::check {

// One broken rule: `rule` is a short stable name (e.g. "start-required") a script can filter on; `message`
// names the variable or element at fault and what the standard asks instead.
struct Finding {
  std::string rule;
  std::string message;
};

// Judges a parsed description against the standard's rules. Rule names:
//   fmi-version, guid-present, interface-present, model-identifier, default-experiment,
//   unique-name, unique-value-reference, causality-variability, continuous-real, independent-variable,
//   variability-initial, start-required, start-forbidden, declared-type, unit-defined, display-unit-defined, nominal,
//   structure-index, output-listed, derivative-index.
// An empty result means every rule holds.
std::vector<Finding> check_description(const ModelDescription& description);

}  // namespace acausal::fmi::check
