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

/// Formats a number for messages (shortest round-trip-ish form).
std::string format_number(double value);

}  // namespace acausal
