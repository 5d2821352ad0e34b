#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace acausal {

/// A mistake in a model: bad parameter, bad connection, a model that is not
/// square or structurally singular. The message names components and variables.
/// The message is printable text whatever it quotes: bytes that are not
/// UTF-8 (a file's contents) and NUL bytes are written as \xNN, so the whole
/// message reaches the user (a NUL cut it, an invalid byte emptied it in Python).
class ModelError : public std::runtime_error {
 public:
  explicit ModelError(const std::string& message);
  explicit ModelError(const char* message) : ModelError(std::string(message)) {}
};

/// `text` with every byte that is NUL or not part of valid UTF-8 written as \xNN.
std::string printable_utf8(const std::string& text);

/// A name that the model does not have (a variable read from a result, a
/// parameter set on a simulator, a start value). The message suggests the
/// closest names it does have.
class UnknownNameError : public ModelError {
 public:
  /// "<where> has no <kind> '<name>'; did you mean 'a' or 'b'?" and `more`.
  UnknownNameError(const std::string& where, const std::string& kind, const std::string& name,
                   const std::vector<std::string>& known, const std::string& more = "");
  const std::string& name() const { return name_; }
  const std::vector<std::string>& suggestions() const { return suggestions_; }

 private:
  UnknownNameError(const std::string& where, const std::string& kind, const std::string& name,
                   std::vector<std::string> suggestions, const std::string& more, bool);

  std::string name_;
  std::vector<std::string> suggestions_;
};

/// The names of `known` closest to `name` by edit distance (at most `count`,
/// none further than a third of the name's length), closest first.
std::vector<std::string> closest_names(const std::string& name, const std::vector<std::string>& known,
                                       std::size_t count = 3);

/// A number for messages and printed expressions: at most `significant`
/// digits, as short as the value allows ("0.5", "1e-09").
std::string format_number(double value, int significant = 10);

}  // namespace acausal
