#pragma once

#include "connectors/signal.hpp"

namespace acausal::blocks {

// MSL Interaction.Show: a tool animates these in its diagram; here they are
// the sinks an example connects a signal to, whose input is a column of the
// result (MSL's use_numberPort/use_activePort = true form).

/// Shows a Real signal (numberPort).
struct RealValue : Component {
  RealInput numberPort{*this, "numberPort"};
  explicit RealValue(std::string name) : Component(std::move(name)) {}
};

/// Shows an Integer signal (numberPort).
struct IntegerValue : Component {
  IntegerInput numberPort{*this, "numberPort"};
  explicit IntegerValue(std::string name) : Component(std::move(name)) {}
};

/// Shows a Boolean signal (activePort).
struct BooleanValue : Component {
  BooleanInput activePort{*this, "activePort"};
  explicit BooleanValue(std::string name) : Component(std::move(name)) {}
};

}  // namespace acausal::blocks
