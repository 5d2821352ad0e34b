#include <catch2/catch.hpp>

#include <cmath>
#include <functional>

#include "solver/expr.hpp"

using namespace acausal;

TEST_CASE("structurally equal expressions are one node", "[expr]") {
  Expr x = make_variable_symbol("x"), y = make_variable_symbol("y");
  CHECK((x * y + sin(x)).same(sin(x) + y * x));  // commutative operands are ordered canonically
  CHECK((x * y).same(y * x));
  CHECK_FALSE((x - y).same(y - x));
  CHECK_FALSE(make_variable_symbol("x").same(x));  // a new symbol is a new variable, whatever its name
}

TEST_CASE("constant folding and cheap identities", "[expr]") {
  Expr x = make_variable_symbol("x");
  CHECK((Expr(2.0) * 3.0 + 1.0).is_const(7.0));
  CHECK((x + 0.0).same(x));
  CHECK((0.0 + x).same(x));
  CHECK((x * 1.0).same(x));
  CHECK((x * 0.0).is_const(0.0));
  CHECK((x - x).is_const(0.0));
  CHECK((x / x).is_const(1.0));
  CHECK((-(-x)).same(x));
  CHECK((x + (-x * 2.0)).same(x - x * 2.0));
  CHECK(pow(x, 1.0).same(x));
  CHECK(pow(x, 0.0).is_const(1.0));
  CHECK(sqrt(Expr(16.0)).is_const(4.0));
  CHECK(ifelse(Expr(1.0) > 0.0, x, 2.0 * x).same(x));
  CHECK(ifelse(x > 0.0, x, x).same(x));
}

TEST_CASE("printing shows precedence with minimal parentheses", "[expr]") {
  Expr a = make_variable_symbol("a"), b = make_variable_symbol("b"), c = make_variable_symbol("c");
  CHECK((a * (b + c)).str() == "a * (b + c)");
  CHECK((a - (b - c)).str() == "a - (b - c)");
  CHECK((a / (b * c)).str() == "a / (b * c)");
  CHECK(der(a).str() == "der(a)");
  CHECK(atan2(a, b).str() == "atan2(a, b)");
}

namespace {
double at(const Expr& e, const Expr& x, double xv, const Expr& y, double yv) {
  return evaluate(e, [&](const Node* n) { return n == x.node() ? xv : n == y.node() ? yv : 0.0; });
}
}  // namespace

TEST_CASE("symbolic derivatives match central finite differences", "[expr]") {
  Expr x = make_variable_symbol("x"), y = make_variable_symbol("y");
  std::vector<Expr> cases = {
      x * y + sin(x),      x / (1.0 + y * y), pow(x, 3.0),        pow(x, y),         sqrt(x + y),
      exp(x * y),          log(x + 2.0),      cos(x) * tan(y),    asin(x / 4.0),     acos(x / 4.0),
      atan(x * y),         sinh(x) - cosh(y), tanh(x / y),        abs(x - y),        atan2(y, x),
      min(x, y) * max(x, y), ifelse(x > y, x * x, y * y),
  };
  const double x0 = 0.7, y0 = 1.3, h = 1e-6;
  for (const Expr& e : cases) {
    INFO(e.str());
    double dx = (at(e, x, x0 + h, y, y0) - at(e, x, x0 - h, y, y0)) / (2 * h);
    double dy = (at(e, x, x0, y, y0 + h) - at(e, x, x0, y, y0 - h)) / (2 * h);
    CHECK(at(diff(e, x), x, x0, y, y0) == Approx(dx).epsilon(1e-6).margin(1e-8));
    CHECK(at(diff(e, y), x, x0, y, y0) == Approx(dy).epsilon(1e-6).margin(1e-8));
  }
}

TEST_CASE("der applies the chain rule; parameters and constants are constant in time", "[expr]") {
  Expr x = make_variable_symbol("x"), p = make_parameter_symbol("p");
  CHECK(der(x).op() == Op::Der);
  CHECK(der(p * x).same(p * der(x)));
  CHECK(der(Expr(3.0) + p).is_const(0.0));
  CHECK(der(time_symbol() * 2.0).is_const(2.0));
  CHECK(der(der(x)).arg(0).same(der(x)));
  CHECK(der(sin(x)).same(cos(x) * der(x)));
}

TEST_CASE("rewriting replaces variables and differentiates replaced derivatives", "[expr]") {
  Expr x = make_variable_symbol("x"), y = make_variable_symbol("y");
  Rewriter r([&](const Node* n) { return n == x.node() ? (2.0 * y).node() : nullptr; });
  CHECK(r(x + der(x)).same(2.0 * y + 2.0 * der(y)));
}

TEST_CASE("deep expressions do not overflow the stack", "[expr]") {
  Expr x = make_variable_symbol("x");
  Expr e = x;
  for (int i = 0; i < 200000; ++i) e = e * 1.000001 + x;
  double v = evaluate(e, [](const Node*) { return 1e-3; });
  CHECK(std::isfinite(v));
  CHECK_FALSE(diff(e, x).is_const(0.0));
}
