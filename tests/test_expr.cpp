#include <catch2/catch.hpp>

#include <cmath>
#include <functional>

#include "solver/symbolic/expr.hpp"

namespace test_expr {

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

TEST_CASE("gradient gives every partial of one expression in one sweep, matching finite differences", "[expr]") {
  Expr x = make_variable_symbol("x"), y = make_variable_symbol("y");
  const double x0 = 0.7, y0 = 1.3, h = 1e-6;
  std::vector<Expr> cases = {
      x * y + sin(x),      x / (1.0 + y * y), pow(x, y),       sqrt(x + y) * exp(x * y), log(x + 2.0) / y,
      acos(x / 4.0) * y,   atan2(y, x),       tanh(x / y),     abs(x - y) + min(x, y) * max(x, y),
      ifelse(x > y, x * x, y * y) + no_event(x * sign(y)),
  };
  for (const Expr& e : cases) {
    INFO(e.str());
    auto partials = gradient(e);
    REQUIRE(partials.size() == 2);
    for (const auto& [leaf, d] : partials) {
      bool is_x = leaf == x.node();
      REQUIRE((is_x || leaf == y.node()));
      double numeric = is_x ? (at(e, x, x0 + h, y, y0) - at(e, x, x0 - h, y, y0)) / (2 * h)
                            : (at(e, x, x0, y, y0 + h) - at(e, x, x0, y, y0 - h)) / (2 * h);
      CHECK(at(d, x, x0, y, y0) == Approx(numeric).epsilon(1e-6).margin(1e-8));
    }
  }
}

TEST_CASE("gradient lists the leaves an expression depends on: der(x), not the x inside it", "[expr]") {
  Expr x = make_variable_symbol("x"), v = make_variable_symbol("v"), p = make_parameter_symbol("p");
  auto partials = gradient(p * der(x) - v + 0.0 * x);
  REQUIRE(partials.size() == 2);
  for (const auto& [leaf, d] : partials) {
    if (leaf->op == Op::Der) {
      CHECK(leaf == der(x).node());
      CHECK(d.same(p));
    } else {
      CHECK(leaf == v.node());
      CHECK(d.is_const(-1.0));
    }
  }
  CHECK(gradient(x - x + p).empty());
  // Shared subexpressions add their contributions: d/dx (s + s*s) with s = x*y is y + 2*s*y.
  Expr y = make_variable_symbol("y"), s = x * y;
  auto shared = gradient(s + s * s);
  REQUIRE(shared.size() == 2);
  double dx = evaluate(shared[0].first == x.node() ? shared[0].second : shared[1].second,
                       [&](const Node* n) { return n == x.node() ? 2.0 : 3.0; });
  CHECK(dx == Approx(3.0 + 2.0 * 6.0 * 3.0));
}

TEST_CASE("node tables nest and start empty each time", "[expr]") {
  Expr x = make_variable_symbol("x"), y = make_variable_symbol("y");
  NodeTable<std::uint32_t> outer;
  outer.set(x.node(), 7);
  {
    NodeTable<std::uint32_t> inner;
    CHECK_FALSE(inner.contains(x.node()));
    inner.set(y.node(), 3);
    CHECK(inner.get(y.node()) == 3);
    CHECK(outer.get(x.node()) == 7);
  }
  NodeTable<std::uint32_t> again;  // reuses the inner table's storage
  CHECK_FALSE(again.contains(y.node()));
  CHECK(again.get(y.node()) == 0);
  CHECK(outer.contains(x.node()));
  CHECK_FALSE(outer.contains(y.node()));
}

TEST_CASE("der applies the chain rule, parameters and constants are constant in time", "[expr]") {
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
  auto partials = gradient(e);
  REQUIRE(partials.size() == 1);
  CHECK(std::isfinite(evaluate(partials[0].second, [](const Node*) { return 1e-3; })));
}

}  // namespace test_expr
