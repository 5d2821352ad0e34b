#pragma once

#include "connectors/signal.hpp"

namespace acausal::blocks {

/// MSL Math.RealToInteger: y is u rounded to the nearest whole number (halves
/// away from zero). Each crossing of a half-integer is a located event, so y
/// changes exactly where u crosses, as in Modelica's integer(). The crossing
/// decides the direction: a root located a rounding error short of the
/// half-integer still moves y by one (the nearest value of u there would not).
struct RealToInteger : Component {
  RealInput u{*this, "u"};
  IntegerOutput y{*this, "y"};
  explicit RealToInteger(std::string name) : Component(std::move(name)) {
    const Expr up = u > y + 0.5, down = u < y - 0.5;
    const Expr nearest = no_event(ifelse(u > 0.0, floor(u + 0.5), -floor(0.5 - u)));
    when({initial(), up, down}, {y == ifelse(up, no_event(max(y + 1.0, nearest)),
                                             ifelse(down, no_event(min(y - 1.0, nearest)), nearest))});
  }
};

/// MSL Math.IntegerToReal: y = u.
struct IntegerToReal : Component {
  IntegerInput u{*this, "u"};
  RealOutput y{*this, "y"};
  explicit IntegerToReal(std::string name) : Component(std::move(name)) { equation(y == u); }
};

/// MSL Math.BooleanToReal: y = realTrue if u, else realFalse.
struct BooleanToReal : Component {
  BooleanInput u{*this, "u"};
  RealOutput y{*this, "y"};
  Parameter realTrue = parameter("realTrue", 1.0);
  Parameter realFalse = parameter("realFalse", 0.0);
  explicit BooleanToReal(std::string name) : Component(std::move(name)) {
    equation(y == ifelse(u, realTrue, realFalse));
  }
};

/// MSL Math.BooleanToInteger: y = integerTrue if u, else integerFalse.
struct BooleanToInteger : Component {
  BooleanInput u{*this, "u"};
  IntegerOutput y{*this, "y"};
  Parameter integerTrue = parameter("integerTrue", 1.0);
  Parameter integerFalse = parameter("integerFalse", 0.0);
  explicit BooleanToInteger(std::string name) : Component(std::move(name)) {
    equation(y == ifelse(u, integerTrue, integerFalse));
  }
};

/// MSL Logical.GreaterThreshold: y = u > threshold (a located event).
struct GreaterThreshold : Component {
  RealInput u{*this, "u"};
  BooleanOutput y{*this, "y"};
  Parameter threshold = parameter("threshold", 0.0);
  explicit GreaterThreshold(std::string name) : Component(std::move(name)) { equation(y == (u > threshold)); }
};

/// MSL Logical.LessThreshold: y = u < threshold (a located event).
struct LessThreshold : Component {
  RealInput u{*this, "u"};
  BooleanOutput y{*this, "y"};
  Parameter threshold = parameter("threshold", 0.0);
  explicit LessThreshold(std::string name) : Component(std::move(name)) { equation(y == (u < threshold)); }
};

}  // namespace acausal::blocks
