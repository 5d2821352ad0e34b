#pragma once

#include <stdexcept>
#include <string>

namespace acausal {

/// A mistake in a model: bad parameter, bad connection, a model that is not
/// square or structurally singular. The message names components and variables.
class ModelError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A number for messages and printed expressions: at most `significant`
/// digits, as short as the value allows ("0.5", "1e-09").
std::string format_number(double value, int significant = 10);

}  // namespace acausal
