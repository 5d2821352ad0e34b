#include "solver/symbolic/expr.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

#include <fmt/format.h>

#include "solver/symbolic/arena.hpp"
#include "solver/symbolic/errors.hpp"
#include "solver/symbolic/table_entries.hpp"

namespace acausal {

namespace {

const Node* leaf_node(Op op, std::uint32_t symbol, double value) {
  return arena::intern(op, symbol, value, nullptr, nullptr, nullptr);
}

const Node* node(Op op, const Node* a, const Node* b = nullptr, const Node* c = nullptr) {
  return arena::intern(op, 0, 0.0, a, b, c);
}

bool commutative(Op op) {
  return op == Op::Add || op == Op::Mul || op == Op::Min || op == Op::Max || op == Op::And ||
         op == Op::Or;
}

}  // namespace

int arity(Op op) {
  switch (op) {
    case Op::Const: case Op::Var: case Op::Param: case Op::Time: case Op::Discrete: return 0;
    case Op::Der: case Op::Neg: case Op::Sqrt: case Op::Exp: case Op::Log: case Op::Sin:
    case Op::Cos: case Op::Tan: case Op::Asin: case Op::Acos: case Op::Atan: case Op::Sinh:
    case Op::Cosh: case Op::Tanh: case Op::Abs: case Op::Sign: case Op::Floor: case Op::Not: case Op::NoEvent:
      return 1;
    case Op::IfElse: return 3;
    default: return 2;
  }
}

int Node::arity() const { return acausal::arity(op); }

const char* op_name(Op op) {
  switch (op) {
    case Op::Const: return "const"; case Op::Var: return "var"; case Op::Param: return "param";
    case Op::Time: return "time"; case Op::Der: return "der"; case Op::Neg: return "-";
    case Op::Add: return "+"; case Op::Sub: return "-"; case Op::Mul: return "*";
    case Op::Div: return "/"; case Op::Pow: return "pow"; case Op::Sqrt: return "sqrt";
    case Op::Exp: return "exp"; case Op::Log: return "log"; case Op::Sin: return "sin";
    case Op::Cos: return "cos"; case Op::Tan: return "tan"; case Op::Asin: return "asin";
    case Op::Acos: return "acos"; case Op::Atan: return "atan"; case Op::Sinh: return "sinh";
    case Op::Cosh: return "cosh"; case Op::Tanh: return "tanh"; case Op::Abs: return "abs";
    case Op::Sign: return "sign"; case Op::Atan2: return "atan2"; case Op::Min: return "min";
    case Op::Max: return "max"; case Op::Lt: return "<"; case Op::Le: return "<=";
    case Op::Gt: return ">"; case Op::Ge: return ">="; case Op::And: return "and";
    case Op::Or: return "or"; case Op::Not: return "not"; case Op::IfElse: return "ifelse";
    case Op::NoEvent: return "noEvent"; case Op::Delay: return "delay"; case Op::Discrete: return "discrete";
    case Op::DelayRate: return "delay_rate"; case Op::Floor: return "floor"; case Op::Table: return "table";
  }
  return "?";
}

double apply(Op op, double a, double b, double c) {
  switch (op) {
    case Op::Neg: return -a;
    case Op::Add: return a + b;
    case Op::Sub: return a - b;
    case Op::Mul: return a * b;
    case Op::Div: return a / b;
    case Op::Pow: return b == 2.0 ? a * a : std::pow(a, b);
    case Op::Sqrt: return std::sqrt(a);
    case Op::Exp: return std::exp(a);
    case Op::Log: return std::log(a);
    case Op::Sin: return std::sin(a);
    case Op::Cos: return std::cos(a);
    case Op::Tan: return std::tan(a);
    case Op::Asin: return std::asin(a);
    case Op::Acos: return std::acos(a);
    case Op::Atan: return std::atan(a);
    case Op::Sinh: return std::sinh(a);
    case Op::Cosh: return std::cosh(a);
    case Op::Tanh: return std::tanh(a);
    case Op::Abs: return std::fabs(a);
    case Op::Sign: return a > 0 ? 1.0 : (a < 0 ? -1.0 : 0.0);
    case Op::Floor: return std::floor(a);
    case Op::Atan2: return std::atan2(a, b);
    case Op::Min: return std::fmin(a, b);
    case Op::Max: return std::fmax(a, b);
    case Op::Lt: return a < b ? 1.0 : 0.0;
    case Op::Le: return a <= b ? 1.0 : 0.0;
    case Op::Gt: return a > b ? 1.0 : 0.0;
    case Op::Ge: return a >= b ? 1.0 : 0.0;
    case Op::And: return (a != 0.0 && b != 0.0) ? 1.0 : 0.0;
    case Op::Or: return (a != 0.0 || b != 0.0) ? 1.0 : 0.0;
    case Op::Not: return a == 0.0 ? 1.0 : 0.0;
    case Op::IfElse: return a != 0.0 ? b : c;
    case Op::NoEvent: return a;
    case Op::Delay: return a;  // only ever folded for constants, which delay leaves unchanged
    case Op::DelayRate: return 0.0;
    default: throw std::logic_error(std::string("apply: not an operator: ") + op_name(op));
  }
}

namespace {
// 0 and 1 are built by most folding rules; they skip the interner's lock and table.
const Node* zero_node() {
  static const Node* zero = arena::pin(leaf_node(Op::Const, 0, 0.0));
  return zero;
}
const Node* one_node() {
  static const Node* one = arena::pin(leaf_node(Op::Const, 0, 1.0));
  return one;
}
}  // namespace

Expr::Expr() : node_(zero_node()) {}
Expr::Expr(double value)
    : node_(value == 0.0 ? zero_node() : value == 1.0 ? one_node() : leaf_node(Op::Const, 0, value)) {}

Expr make_variable_symbol(const std::string& name) {
  return Expr(leaf_node(Op::Var, arena::new_symbol(name), 0.0));
}
Expr make_parameter_symbol(const std::string& name) {
  return Expr(leaf_node(Op::Param, arena::new_symbol(name), 0.0));
}
const std::string& symbol_name(const Node* symbol) { return arena::symbol_name(symbol->symbol); }
Expr make_discrete_symbol(const std::string& name) {
  return Expr(leaf_node(Op::Discrete, arena::new_symbol(name), 0.0));
}
Expr time_symbol() { return Expr(leaf_node(Op::Time, 0, 0.0)); }

std::size_t interned_node_count() { return arena::count(); }

Expr derived_symbol(Op kind, const Node* of, const std::string& role, const std::string& name) {
  if (kind != Op::Var && kind != Op::Param && kind != Op::Discrete)
    throw std::logic_error("derived_symbol: a symbol is a Var, Param or Discrete");
  return Expr(arena::derived(kind, of, role, name));
}

Expr make(Op op, const Expr& a) {
  if (op == Op::Der) {
    if (a.op() != Op::Var && a.op() != Op::Der)
      throw std::logic_error("der node must wrap a variable; use der() for expressions");
    return Expr(node(op, a.node()));
  }
  if (a.is_const()) return Expr(apply(op, a.value()));
  if (op == Op::Neg) {
    if (a.op() == Op::Neg) return a.arg(0);
    if (a.op() == Op::Sub) return make(Op::Sub, a.arg(1), a.arg(0));
  }
  if (op == Op::Not && a.op() == Op::Not) return a.arg(0);
  return Expr(node(op, a.node()));
}

Expr make_table(std::uint32_t entry, const Expr& a, const Expr& b) {
  if (a.is_const() && b.is_const()) return Expr(table_evaluate(entry, a.value(), b.value()));
  return Expr(arena::intern(Op::Table, entry, 0.0, a.node(), b.node(), nullptr));
}

Expr remake(const Node* n, const Expr* args) {
  switch (n->arity()) {
    case 1: return make(n->op, args[0]);
    case 2: return n->op == Op::Table ? make_table(n->symbol, args[0], args[1]) : make(n->op, args[0], args[1]);
    case 3: return make(n->op, args[0], args[1], args[2]);
    default: return Expr(n);
  }
}

Expr make(Op op, const Expr& a, const Expr& b) {
  if (op == Op::Table) throw std::logic_error("table nodes are made by make_table");
  if (a.is_const() && b.is_const()) return Expr(apply(op, a.value(), b.value()));
  switch (op) {
    // An argument that substitution made constant is its own past.
    case Op::Delay:
      if (a.is_const()) return a;
      break;
    case Op::DelayRate:
      if (a.is_const()) return Expr(0.0);
      break;
    case Op::Add:
      if (a.is_const(0)) return b;
      if (b.is_const(0)) return a;
      if (b.op() == Op::Neg) return make(Op::Sub, a, b.arg(0));
      if (a.op() == Op::Neg) return make(Op::Sub, b, a.arg(0));
      break;
    case Op::Sub:
      if (b.is_const(0)) return a;
      if (a.is_const(0)) return make(Op::Neg, b);
      if (a.same(b)) return Expr(0.0);
      if (b.op() == Op::Neg) return make(Op::Add, a, b.arg(0));
      break;
    case Op::Mul:
      if (a.is_const(0) || b.is_const(0)) return Expr(0.0);
      if (a.is_const(1)) return b;
      if (b.is_const(1)) return a;
      if (a.is_const(-1)) return make(Op::Neg, b);
      if (b.is_const(-1)) return make(Op::Neg, a);
      if (a.op() == Op::Neg && b.op() == Op::Neg) return make(Op::Mul, a.arg(0), b.arg(0));
      if (a.op() == Op::Neg) return make(Op::Neg, make(Op::Mul, a.arg(0), b));
      if (b.op() == Op::Neg) return make(Op::Neg, make(Op::Mul, a, b.arg(0)));
      break;
    case Op::Div:
      if (b.is_const(1)) return a;
      if (a.is_const(0)) return Expr(0.0);
      if (b.is_const(-1)) return make(Op::Neg, a);
      if (a.same(b)) return Expr(1.0);
      if (a.op() == Op::Neg) return make(Op::Neg, make(Op::Div, a.arg(0), b));
      break;
    case Op::Pow:
      if (b.is_const(0)) return Expr(1.0);
      if (b.is_const(1)) return a;
      break;
    case Op::Min: case Op::Max:
      if (a.same(b)) return a;
      break;
    default:
      break;
  }
  const Node* x = a.node();
  const Node* y = b.node();
  if (commutative(op) && y->before(*x)) std::swap(x, y);
  return Expr(node(op, x, y));
}

Expr make(Op op, const Expr& a, const Expr& b, const Expr& c) {
  if (op != Op::IfElse) throw std::logic_error("make: only ifelse takes three arguments");
  if (a.is_const()) return a.value() != 0.0 ? b : c;
  if (b.same(c)) return b;
  return Expr(node(op, a.node(), b.node(), c.node()));
}

Expr Equation::residual() const { return lhs - rhs; }

Equation operator==(const Expr& a, const Expr& b) { return Equation{a, b}; }
Expr operator-(const Expr& a) { return make(Op::Neg, a); }
Expr operator+(const Expr& a, const Expr& b) { return make(Op::Add, a, b); }
Expr operator-(const Expr& a, const Expr& b) { return make(Op::Sub, a, b); }
Expr operator*(const Expr& a, const Expr& b) { return make(Op::Mul, a, b); }
Expr operator/(const Expr& a, const Expr& b) { return make(Op::Div, a, b); }
Expr operator<(const Expr& a, const Expr& b) { return make(Op::Lt, a, b); }
Expr operator<=(const Expr& a, const Expr& b) { return make(Op::Le, a, b); }
Expr operator>(const Expr& a, const Expr& b) { return make(Op::Gt, a, b); }
Expr operator>=(const Expr& a, const Expr& b) { return make(Op::Ge, a, b); }
Expr operator&&(const Expr& a, const Expr& b) { return make(Op::And, a, b); }
Expr operator||(const Expr& a, const Expr& b) { return make(Op::Or, a, b); }
Expr operator!(const Expr& a) { return make(Op::Not, a); }

Expr pow(const Expr& a, const Expr& b) { return make(Op::Pow, a, b); }
Expr sqrt(const Expr& a) { return make(Op::Sqrt, a); }
Expr exp(const Expr& a) { return make(Op::Exp, a); }
Expr log(const Expr& a) { return make(Op::Log, a); }
Expr sin(const Expr& a) { return make(Op::Sin, a); }
Expr cos(const Expr& a) { return make(Op::Cos, a); }
Expr tan(const Expr& a) { return make(Op::Tan, a); }
Expr asin(const Expr& a) { return make(Op::Asin, a); }
Expr acos(const Expr& a) { return make(Op::Acos, a); }
Expr atan(const Expr& a) { return make(Op::Atan, a); }
Expr sinh(const Expr& a) { return make(Op::Sinh, a); }
Expr cosh(const Expr& a) { return make(Op::Cosh, a); }
Expr tanh(const Expr& a) { return make(Op::Tanh, a); }
Expr abs(const Expr& a) { return make(Op::Abs, a); }
Expr sign(const Expr& a) { return make(Op::Sign, a); }
Expr floor(const Expr& a) { return make(Op::Floor, a); }
Expr mod(const Expr& a, const Expr& b) { return a - floor(a / b) * b; }
Expr atan2(const Expr& y, const Expr& x) { return make(Op::Atan2, y, x); }
Expr min(const Expr& a, const Expr& b) { return make(Op::Min, a, b); }
Expr max(const Expr& a, const Expr& b) { return make(Op::Max, a, b); }
Expr ifelse(const Expr& c, const Expr& a, const Expr& b) { return make(Op::IfElse, c, a, b); }
// Each relation (and abs, sign, min, max) written inside is wrapped on its
// own, not the whole expression: a variable read inside keeps the events of
// the equation that defines it when the compiler later substitutes that
// definition (noEvent(x) quiets what is written there, not what x stands for).
Expr no_event(const Expr& e) {
  std::unordered_map<const Node*, Expr> done;
  for_each_postorder(
      e.node(),
      [&](const Node* n) {
        if (n->arity() == 0 || n->op == Op::Der) {
          done.emplace(n, Expr(n));
          return;
        }
        Expr args[3];
        for (int i = 0; i < n->arity(); ++i) args[i] = done.at(n->arg[i]);
        Expr rebuilt = remake(n, args);
        switch (n->op) {
          case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge: case Op::Abs: case Op::Sign: case Op::Min: case Op::Max:
            rebuilt = make(Op::NoEvent, rebuilt);
            break;
          default:
            break;
        }
        done.emplace(n, rebuilt);
      },
      [&](const Node* n) {
        if (done.contains(n)) return true;
        // Already quiet, or evaluated literally at past instants anyway.
        if (n->op != Op::NoEvent && n->op != Op::Delay && n->op != Op::DelayRate) return false;
        done.emplace(n, Expr(n));
        return true;
      });
  return done.at(e.node());
}

namespace {
// Traversals that must not look inside delay() pay for the check only once one exists.
bool any_delay = false;
}  // namespace

bool delays_exist() { return any_delay; }

bool contains_delay(const Node* e) {
  if (!any_delay) return false;
  bool found = false;
  for_each_postorder(e, [&](const Node* n) { found |= is_delay(n->op); });
  return found;
}

Expr delay(const Expr& u, const Expr& delay_time) {
  if (!is_parametric(delay_time))
    throw std::invalid_argument("delay(" + u.str() + ", " + delay_time.str() +
                                "): the delay time must be a parameter expression");
  if (is_parametric(u)) return u;  // a constant delayed is itself
  any_delay = true;
  return make(Op::Delay, u, delay_time);
}

namespace {
// Visited marks by node id with a generation counter: no hashing and no
// allocation per traversal. Traversals may nest (a visitor may traverse), so
// each takes its own generation and its own mark vector from a small pool.
struct VisitMarks {
  std::vector<std::uint32_t> stamp;
  std::vector<std::pair<const Node*, int>> stack;
  std::uint32_t generation = 0;
  void clear_stamps() { std::fill(stamp.begin(), stamp.end(), 0); }
};

// Stamped storage taken from a per-thread pool in LIFO order (the marks of a
// traversal, the storage of a NodeTable): a new generation makes it empty.
template <class Storage>
struct Pool {
  std::vector<std::unique_ptr<Storage>> items;
  std::size_t in_use = 0;

  Storage* acquire() {
    if (in_use == items.size()) items.push_back(std::make_unique<Storage>());
    Storage* s = items[in_use++].get();
    if (++s->generation == 0) {  // wrapped: clear old stamps
      s->clear_stamps();
      s->generation = 1;
    }
    return s;
  }
  void release() { --in_use; }
};

thread_local Pool<VisitMarks> mark_pool;
thread_local Pool<detail::NodeTableStorage> table_pool;
}  // namespace

detail::NodeTableStorage* detail::acquire_node_table() { return table_pool.acquire(); }
void detail::release_node_table() { table_pool.release(); }

namespace {
void postorder(const Node* const* roots, std::size_t n_roots, const std::function<void(const Node*)>& visit,
               const std::function<bool(const Node*)>& done) {
  VisitMarks& marks = *mark_pool.acquire();
  struct Release {
    ~Release() { mark_pool.release(); }
  } release;
  const std::uint32_t gen = marks.generation;
  auto seen = [&](const Node* n) {
    if (n->id >= marks.stamp.size()) marks.stamp.resize(std::max<std::size_t>(n->id + 1, marks.stamp.size() * 2), 0);
    if (marks.stamp[n->id] == gen) return true;
    if (done && done(n)) {
      marks.stamp[n->id] = gen;
      return true;
    }
    return false;
  };
  auto& stack = marks.stack;
  stack.clear();
  for (std::size_t k = 0; k < n_roots; ++k) {
    const Node* root = roots[k];
    if (seen(root)) continue;
    stack.emplace_back(root, 0);
    while (!stack.empty()) {
      auto& [n, next] = stack.back();
      if (next < n->arity()) {
        const Node* child = n->arg[next++];
        if (!seen(child)) stack.emplace_back(child, 0);
        continue;
      }
      const Node* finished = n;
      stack.pop_back();
      if (!seen(finished)) {
        marks.stamp[finished->id] = gen;
        visit(finished);
      }
    }
  }
}
}  // namespace

void for_each_postorder(const std::vector<const Node*>& roots, const std::function<void(const Node*)>& visit,
                        const std::function<bool(const Node*)>& done) {
  postorder(roots.data(), roots.size(), visit, done);
}

void for_each_postorder(const Node* root, const std::function<void(const Node*)>& visit,
                        const std::function<bool(const Node*)>& done) {
  postorder(&root, 1, visit, done);
}


double evaluate(const Expr& e, const std::function<double(const Node*)>& leaf) {
  std::unordered_map<const Node*, double> v;
  for_each_postorder(e.node(), [&](const Node* n) {
    switch (n->op) {
      case Op::Const: v[n] = n->value; break;
      case Op::Var: case Op::Param: case Op::Time: case Op::Der: case Op::Discrete: v[n] = leaf(n); break;
      default: {
        double x[3] = {0, 0, 0};
        for (int i = 0; i < n->arity(); ++i) x[i] = v.at(n->arg[i]);
        v[n] = n->op == Op::Table ? table_evaluate(n->symbol, x[0], x[1]) : apply(n->op, x[0], x[1], x[2]);
      }
    }
  });
  return v.at(e.node());
}

bool is_parametric(const Expr& e) {
  bool parametric = true;
  for_each_postorder(e.node(), [&](const Node* n) {
    if (n->op == Op::Var || n->op == Op::Der || n->op == Op::Time || n->op == Op::Discrete) parametric = false;
  });
  return parametric;
}

std::vector<const Node*> unknown_leaves(const Expr& e) {
  std::vector<const Node*> out;
  auto collect = [&](const Node* n) {
    if (n->op == Op::Var || n->op == Op::Der) out.push_back(n);
  };
  if (any_delay)
    for_each_postorder(e.node(), collect, [](const Node* n) { return is_delay(n->op); });
  else
    for_each_postorder(e.node(), collect);
  return out;
}

namespace {

int precedence(Op op) {
  switch (op) {
    case Op::Or: return 1;
    case Op::And: return 2;
    case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge: return 3;
    case Op::Add: case Op::Sub: return 4;
    case Op::Mul: case Op::Div: return 5;
    case Op::Neg: case Op::Not: return 6;
    default: return 9;
  }
}

// Stops descending past `limit` characters: the caller cuts the text there.
void print(std::ostringstream& out, const Node* n, const std::function<std::string(const Node*)>& name,
           std::streamoff limit) {
  if (out.tellp() > limit) return;
  auto child = [&](const Node* c, int parent_prec, bool right) {
    int p = precedence(c->op);
    bool paren = p < parent_prec || (right && p == parent_prec && p < 9) ||
                 (c->op == Op::Const && c->value < 0 && parent_prec > 4);
    if (paren) out << '(';
    print(out, c, name, limit);
    if (paren) out << ')';
  };
  switch (n->op) {
    case Op::Const: out << format_number(n->value, 12); return;
    case Op::Var: case Op::Param: case Op::Discrete: out << name(n); return;
    case Op::Time: out << "time"; return;
    case Op::Der: out << "der("; print(out, n->arg[0], name, limit); out << ')'; return;
    case Op::Neg: out << '-'; child(n->arg[0], 6, false); return;
    case Op::Not: out << "not "; child(n->arg[0], 6, false); return;
    case Op::Add: case Op::Sub: case Op::Mul: case Op::Div: case Op::Lt: case Op::Le:
    case Op::Gt: case Op::Ge: case Op::And: case Op::Or: {
      int p = precedence(n->op);
      child(n->arg[0], p, false);
      out << ' ' << op_name(n->op) << ' ';
      child(n->arg[1], p, true);
      return;
    }
    default: {
      out << (n->op == Op::Table ? table_entry_name(n->symbol) : std::string(op_name(n->op))) << '(';
      for (int i = 0; i < n->arity(); ++i) {
        if (i) out << ", ";
        print(out, n->arg[i], name, limit);
      }
      out << ')';
    }
  }
}

}  // namespace

std::string to_string(const Expr& e, const std::function<std::string(const Node*)>& name, std::size_t max_chars) {
  std::ostringstream out;
  const std::size_t limit = std::min<std::size_t>(max_chars, std::numeric_limits<std::streamoff>::max());
  print(out, e.node(), name, static_cast<std::streamoff>(limit));
  std::string text = out.str();
  if (text.size() > limit) text = text.substr(0, limit) + "...";
  return text;
}

std::string Expr::str() const {
  return to_string(*this, [](const Node* n) { return symbol_name(n); });
}

}  // namespace acausal
