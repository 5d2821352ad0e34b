// Differentiation (der, diff, gradient) and substitution (Rewriter) of
// expressions: the transformations that rebuild a DAG bottom-up through the
// constructors of expr.cpp, so folding and interning apply to their results.
#include "solver/symbolic/expr.hpp"

#include <functional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "solver/symbolic/table_entries.hpp"

namespace acausal {

namespace {

Expr rebuild(const Node* n, const NodeMemo& memo) {
  auto child = [&](int i) { return Expr(memo.get(n->arg[i])); };
  switch (n->arity()) {
    case 1:
      if (n->op == Op::Der) {
        // A replaced variable is differentiated by the chain rule.
        const Node* x = memo.get(n->arg[0]);
        return x->op == Op::Var || x->op == Op::Der ? make(Op::Der, Expr(x)) : der(Expr(x));
      }
      return make(n->op, child(0));
    default: {
      const Expr args[3] = {n->arity() > 0 ? child(0) : Expr(), n->arity() > 1 ? child(1) : Expr(),
                            n->arity() > 2 ? child(2) : Expr()};
      return remake(n, args);
    }
  }
}

// The partial derivative of n with respect to its argument i, times d: the
// chain rule's one term, written directly (d / b rather than (1 / b) * d) so
// no intermediate node is made. Shared by forward (der, diff) and reverse
// (gradient) differentiation.
Expr chain(const Node* n, int i, const Expr& d) {
  const Expr a(n->arg[0]);
  const Expr self(n);
  switch (n->op) {
    case Op::Neg: return -d;
    case Op::Add: return d;
    case Op::Sub: return i == 0 ? d : -d;
    case Op::Mul: return Expr(n->arg[1 - i]) * d;
    case Op::Div: return i == 0 ? d / Expr(n->arg[1]) : -(self / Expr(n->arg[1]) * d);
    case Op::Pow: return i == 0 ? Expr(n->arg[1]) * pow(a, Expr(n->arg[1]) - 1.0) * d : self * log(a) * d;
    case Op::Sqrt: return d / (2.0 * self);
    case Op::Exp: return self * d;
    case Op::Log: return d / a;
    case Op::Sin: return cos(a) * d;
    case Op::Cos: return -(sin(a) * d);
    case Op::Tan: return (1.0 + self * self) * d;
    case Op::Asin: return d / sqrt(1.0 - a * a);
    case Op::Acos: return -(d / sqrt(1.0 - a * a));
    case Op::Atan: return d / (1.0 + a * a);
    case Op::Sinh: return cosh(a) * d;
    case Op::Cosh: return sinh(a) * d;
    case Op::Tanh: return (1.0 - self * self) * d;
    case Op::Abs: return sign(a) * d;
    case Op::Atan2: {
      const Expr b(n->arg[1]);
      return (i == 0 ? b : -a) * d / (a * a + b * b);
    }
    case Op::Min: return i == 0 ? ifelse(a < Expr(n->arg[1]), d, 0.0) : ifelse(a < Expr(n->arg[1]), 0.0, d);
    case Op::Max: return i == 0 ? ifelse(a > Expr(n->arg[1]), d, 0.0) : ifelse(a > Expr(n->arg[1]), 0.0, d);
    case Op::IfElse: return i == 0 ? Expr(0.0) : i == 1 ? ifelse(a, d, 0.0) : ifelse(a, 0.0, d);
    case Op::NoEvent: return d;
    case Op::Table: return table_partial(n, i) * d;
    // A delayed value does not move with the current unknowns.
    case Op::Delay: case Op::DelayRate:
    case Op::Sign: case Op::Floor: case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge: case Op::And:
    case Op::Or: case Op::Not: return Expr(0.0);
    default: throw std::logic_error(std::string("no derivative rule for ") + op_name(n->op));
  }
}

// d(node) from the children's derivatives. Branches stay branches (min, max,
// ifelse choose a derivative rather than weigh both); with respect to time a
// delayed value changes as its argument did (the delay time is constant).
Expr derivative_rule(const Node* n, const std::function<Expr(int)>& d, bool time_derivative) {
  switch (n->op) {
    case Op::Min: return ifelse(Expr(n->arg[0]) < Expr(n->arg[1]), d(0), d(1));
    case Op::Max: return ifelse(Expr(n->arg[0]) > Expr(n->arg[1]), d(0), d(1));
    case Op::IfElse: return ifelse(Expr(n->arg[0]), d(1), d(2));
    case Op::NoEvent: return no_event(d(0));
    case Op::Delay: case Op::DelayRate:
      if (!time_derivative || is_parametric(d(0))) return Expr(0.0);
      return make(Op::DelayRate, d(0), Expr(n->arg[1]));
    default: break;
  }
  Expr sum(0.0);
  for (int i = 0; i < n->arity(); ++i) {
    Expr di = d(i);
    if (!di.is_const(0)) sum = sum + chain(n, i, di);
  }
  return sum;
}

// Differentiates with a rule for leaves (Var, Der, Param, Time, Const).
Expr differentiate(const Expr& e, const std::function<Expr(const Node*)>& leaf_derivative, bool time_derivative) {
  NodeMemo dmemo;
  for_each_postorder(e.node(), [&](const Node* n) {
    Expr result;
    if (n->arity() == 0 || n->op == Op::Der) {
      result = leaf_derivative(n);
    } else {
      result = derivative_rule(n, [&](int i) { return Expr(dmemo.get(n->arg[i])); }, time_derivative);
    }
    dmemo.set(n, result.node());
  });
  return Expr(dmemo.get(e.node()));
}

}  // namespace

Expr der(const Expr& e) {
  return differentiate(e, [](const Node* n) -> Expr {
    switch (n->op) {
      case Op::Var: case Op::Der: return make(Op::Der, Expr(n));
      case Op::Time: return Expr(1.0);
      default: return Expr(0.0);
    }
  }, true);
}

Expr diff(const Expr& e, const Expr& wrt) {
  return differentiate(e, [&](const Node* n) { return Expr(n == wrt.node() ? 1.0 : 0.0); }, false);
}

std::vector<std::pair<const Node*, Expr>> gradient(const Expr& e) {
  std::vector<const Node*> order;  // arguments before the nodes that use them
  auto record = [&](const Node* n) { order.push_back(n); };
  if (delays_exist())
    for_each_postorder(e.node(), record, [](const Node* n) { return is_delay(n->op); });
  else
    for_each_postorder(e.node(), record);
  // Reverse accumulation: each node passes its adjoint times the partial on to its arguments.
  NodeMemo adjoint;
  adjoint.set(e.node(), Expr(1.0).node());
  std::vector<std::pair<const Node*, Expr>> out;
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const Node* n = *it;
    const Node* bar = adjoint.get(n);
    if (!bar) continue;
    if (n->op == Op::Var || n->op == Op::Der) {
      out.emplace_back(n, Expr(bar));
      continue;
    }
    for (int i = 0; i < n->arity(); ++i) {
      Expr contribution = chain(n, i, Expr(bar));
      if (contribution.is_const(0)) continue;
      const Node* before = adjoint.get(n->arg[i]);
      adjoint.set(n->arg[i], (before ? Expr(before) + contribution : contribution).node());
    }
  }
  std::reverse(out.begin(), out.end());
  return out;
}

Expr Rewriter::operator()(const Expr& e) {
  if (const Node* done = memo_.get(e.node())) return Expr(done);
  for_each_postorder(e.node(), [&](const Node* n) {
    if (n->arity() == 0 || n->op == Op::Der) {
      const Node* replaced = leaf_(n);
      if (replaced && on_cycle_) {
        if (std::find(resolving_.begin(), resolving_.end(), n) != resolving_.end()) on_cycle_(n);
        resolving_.push_back(n);
        replaced = (*this)(Expr(replaced)).node();
        resolving_.pop_back();
      }
      if (replaced) {
        memo_.set(n, replaced);
        return;
      }
      if (n->arity() == 0) {
        memo_.set(n, n);
        return;
      }
    }
    bool unchanged = true;
    for (int i = 0; i < n->arity(); ++i) unchanged &= memo_.get(n->arg[i]) == n->arg[i];
    memo_.set(n, unchanged ? n : rebuild(n, memo_).node());  // most of a model is untouched
  }, [&](const Node* n) { return memo_.get(n) != nullptr; });
  return Expr(memo_.get(e.node()));
}

}  // namespace acausal
