// Symbolic expressions: an immutable, hash-consed DAG.
//
// Structurally equal subexpressions are the same node, so equality is pointer
// equality, common subexpressions are shared for free, and every pass that
// walks expressions can memoize on node addresses. Nodes live in a process-wide
// arena; an Expr is a cheap, copyable, counted handle. Nodes that no handle
// reaches are freed by collect_expressions(), which compile() runs when it is
// safe (see there): passes may hold raw `const Node*` while they run, and data
// that outlives a pass holds its nodes through Expr or NodeRef.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

namespace acausal {

enum class Op : std::uint8_t {
  // leaves
  Const, Var, Param, Time, Der,
  // arithmetic
  Neg, Add, Sub, Mul, Div, Pow,
  // smooth functions of one argument
  Sqrt, Exp, Log, Sin, Cos, Tan, Asin, Acos, Atan, Sinh, Cosh, Tanh,
  // non-smooth functions (event generating)
  Abs, Sign, Atan2, Min, Max,
  // the largest whole number <= x: for values that change only at events (see floor())
  Floor,
  // conditions (1.0 = true, 0.0 = false)
  Lt, Le, Gt, Ge, And, Or, Not,
  IfElse,
  // identity that marks its argument as event-free (Modelica's noEvent)
  NoEvent,
  // delay(u, T): u as it was T seconds ago; its value does not depend on the current unknowns
  Delay,
  // the rate of a delayed signal, d/dt delay(v, T) = delay_rate(der(v), T): delay(der(v), T)
  // from start + T on, 0 before (where delay(v, T) holds v(start))
  DelayRate,
  // a discrete value (Modelica's discrete-time variables, pre(), initial(),
  // sample()): changes only at events, so it is read like a parameter in
  // between, from its own input register
  Discrete,
  // an interpolation table (solver/symbolic/table.hpp) of its two arguments; Node::symbol names the entry
  Table,
};

/// Delay or DelayRate: a value read from the past.
inline bool is_delay(Op op) { return op == Op::Delay || op == Op::DelayRate; }

struct Node {
  Op op;
  std::uint32_t id;      // slot in the arena, reused once the node is freed: indexes NodeTable
  std::uint32_t serial;  // creation order: commutative operands are ordered by it (then by id, once it wraps)
  std::uint32_t symbol;  // Var / Param / Discrete: symbol number; Table: entry
  /// The Expr and NodeRef handles that hold this node: the collector's roots.
  mutable std::atomic<std::uint32_t> handles{0};
  double value;          // Const
  const Node* arg[3];

  int arity() const;
  bool is_leaf() const { return arity() == 0 && op != Op::Der; }
  /// The canonical order of a commutative operator's operands: older first.
  bool before(const Node& other) const { return serial != other.serial ? serial < other.serial : id < other.id; }
};

/// Number of arguments an operator takes (Der takes one: the variable or derivative it differentiates).
int arity(Op op);
const char* op_name(Op op);

/// A counted `const Node*` for data that outlives a pass (a compiled model's
/// symbols and definitions, process-wide registries): it converts to and from
/// the raw pointer and keeps its node from being collected.
class NodeRef {
 public:
  NodeRef(const Node* node = nullptr) noexcept : node_(node) { retain(); }  // NOLINT: a drop-in for const Node*
  NodeRef(const NodeRef& other) noexcept : node_(other.node_) { retain(); }
  NodeRef(NodeRef&& other) noexcept : node_(other.node_) { other.node_ = nullptr; }
  NodeRef& operator=(const NodeRef& other) noexcept {
    other.retain();
    release();
    node_ = other.node_;
    return *this;
  }
  NodeRef& operator=(NodeRef&& other) noexcept {
    if (this != &other) {
      release();
      node_ = other.node_;
      other.node_ = nullptr;
    }
    return *this;
  }
  ~NodeRef() { release(); }

  const Node* get() const noexcept { return node_; }
  operator const Node*() const noexcept { return node_; }  // NOLINT
  const Node* operator->() const noexcept { return node_; }

 private:
  void retain() const noexcept {
    if (node_) node_->handles.fetch_add(1, std::memory_order_relaxed);
  }
  void release() const noexcept {
    if (node_) node_->handles.fetch_sub(1, std::memory_order_relaxed);
  }
  const Node* node_;
};

class Expr {
 public:
  Expr();  // the constant 0
  Expr(double value);  // NOLINT: numbers mix freely with expressions
  Expr(int value) : Expr(static_cast<double>(value)) {}  // NOLINT
  explicit Expr(const Node* node) : node_(node) {}

  const Node* node() const { return node_.get(); }
  Op op() const { return node_->op; }
  bool is_const() const { return node_->op == Op::Const; }
  bool is_const(double v) const { return is_const() && node_->value == v; }
  double value() const { return node_->value; }
  bool same(const Expr& other) const { return node_ == other.node_; }
  Expr arg(int i) const { return Expr(node_->arg[i]); }

  /// Printed with the symbols' local names; see to_string() for other namings.
  std::string str() const;

 private:
  NodeRef node_;
};

/// A new, unique symbol. `name` is only used for printing.
Expr make_variable_symbol(const std::string& name);
Expr make_parameter_symbol(const std::string& name);
const std::string& symbol_name(const Node* symbol);
Expr time_symbol();
/// A leaf for a value that changes only at events (see Component::discrete).
Expr make_discrete_symbol(const std::string& name);
/// The symbol the compiler makes for `role` of `of` (a variable's derivative,
/// a discrete's readout, the n-th event mode with `of` null), of kind Var,
/// Param or Discrete: one symbol per (of, role) for the whole process, so
/// compiling a model again builds the same, already interned expressions
/// instead of new ones. `name` is only used for printing.
Expr derived_symbol(Op kind, const Node* of, const std::string& role, const std::string& name);
/// How many distinct nodes are interned now (live, or unreached but not yet collected).
std::size_t interned_node_count();

/// Frees every node that no Expr or NodeRef reaches, with the entries of the
/// process-wide maps keyed by them (derived symbols, pre() leaves, tables), and
/// returns how many nodes it freed. Only sound while no other thread uses
/// expressions and the caller holds no raw `const Node*` it does not also hold
/// a handle to; compile() calls it on entry when both hold (see
/// collect_expressions_if_due) and enough nodes were made since the last time.
std::size_t collect_expressions();
/// collect_expressions() if only this thread has ever made nodes (of the
/// threads still running) and the arena grew by at least as many nodes as
/// survived the last collection (at least 65536), or always when the
/// environment sets ACAUSAL_COLLECT=always (the sanitizer build's tests do, so
/// a raw pointer held across a collection is reported as a use after free).
void collect_expressions_if_due();

/// Builds a node, folding constants and applying cheap identities.
Expr make(Op op, const Expr& a);
/// A table node: entry `entry` (solver/symbolic/table.hpp) of a and b.
Expr make_table(std::uint32_t entry, const Expr& a, const Expr& b);
/// Node n's operation (and table entry) on new arguments, args[0 .. n->arity()).
Expr remake(const Node* n, const Expr* args);
Expr make(Op op, const Expr& a, const Expr& b);
Expr make(Op op, const Expr& a, const Expr& b, const Expr& c);

/// An equation lhs = rhs; `a == b` on expressions builds one.
struct Equation {
  Expr lhs, rhs;
  Expr residual() const;
};

Equation operator==(const Expr& a, const Expr& b);
Expr operator-(const Expr& a);
Expr operator+(const Expr& a, const Expr& b);
Expr operator-(const Expr& a, const Expr& b);
Expr operator*(const Expr& a, const Expr& b);
Expr operator/(const Expr& a, const Expr& b);
Expr operator<(const Expr& a, const Expr& b);
Expr operator<=(const Expr& a, const Expr& b);
Expr operator>(const Expr& a, const Expr& b);
Expr operator>=(const Expr& a, const Expr& b);
Expr operator&&(const Expr& a, const Expr& b);
Expr operator||(const Expr& a, const Expr& b);
Expr operator!(const Expr& a);

Expr pow(const Expr& a, const Expr& b);
Expr sqrt(const Expr& a);
Expr exp(const Expr& a);
Expr log(const Expr& a);
Expr sin(const Expr& a);
Expr cos(const Expr& a);
Expr tan(const Expr& a);
Expr asin(const Expr& a);
Expr acos(const Expr& a);
Expr atan(const Expr& a);
Expr sinh(const Expr& a);
Expr cosh(const Expr& a);
Expr tanh(const Expr& a);
Expr abs(const Expr& a);
Expr sign(const Expr& a);
Expr atan2(const Expr& y, const Expr& x);
Expr min(const Expr& a, const Expr& b);
Expr max(const Expr& a, const Expr& b);
/// The largest whole number not greater than a (Modelica's floor), derivative 0.
/// It generates no events, so it is for discrete definitions and when-clause
/// actions, where values change only at events; in a continuous equation whose
/// argument varies with time it is a ModelError. On parameters and discretes it
/// may appear anywhere.
Expr floor(const Expr& a);
/// Modelica's mod(a, b) = a - floor(a / b)·b: in [0, b) for b > 0. Exact for
/// whole numbers with |a| + |b| <= 2^53 (a / b then never rounds across a whole
/// number), so integer arithmetic such as a random generator's can be done in doubles.
Expr mod(const Expr& a, const Expr& b);
Expr ifelse(const Expr& condition, const Expr& if_true, const Expr& if_false);
/// The value of e, evaluated literally: the relations and abs/sign/min/max
/// written in e do not generate events (for expressions smooth enough without
/// them). A variable read in e keeps the events of its own equation.
Expr no_event(const Expr& e);
/// Modelica's delay(u, T): the value u had at time - T (u at the start time
/// before start + T). T must be a positive parameter expression. The compiler
/// treats it as an input: it adds no dependence on the current unknowns.
Expr delay(const Expr& u, const Expr& delay_time);
/// True once any delay() node exists (passes skip looking for them otherwise).
bool delays_exist();
/// True if the expression has a delay() node anywhere.
bool contains_delay(const Node* e);

/// Time derivative. der(x) of a variable is the derivative symbol; of any other
/// expression it is expanded by the chain rule (parameters are constant).
Expr der(const Expr& e);

/// Partial derivative with respect to a leaf (a Var or a Der node), all other
/// leaves held constant.
Expr diff(const Expr& e, const Expr& wrt);

/// The partial derivatives of e with respect to each unknown leaf it depends
/// on (Var and Der nodes, not those inside delay()), in one reverse sweep: a
/// Jacobian row for about the price of one diff(). Leaves whose partial is
/// identically zero are left out.
std::vector<std::pair<const Node*, Expr>> gradient(const Expr& e);

/// Evaluates an op on numbers; shared by constant folding, the evaluator and the tape.
double apply(Op op, double a, double b = 0.0, double c = 0.0);

// --- traversal and rewriting (iterative: expression depth is unbounded) ---

/// Calls visit(node) once per distinct node reachable from roots, children
/// first. Nodes for which `done` returns true are neither visited nor entered
/// (memoized rewrites use it to stay linear over many overlapping expressions).
void for_each_postorder(const std::vector<const Node*>& roots,
                        const std::function<void(const Node*)>& visit,
                        const std::function<bool(const Node*)>& done = nullptr);
void for_each_postorder(const Node* root, const std::function<void(const Node*)>& visit,
                        const std::function<bool(const Node*)>& done = nullptr);

namespace detail {
/// The marks of a collection, for the process-wide maps keyed by nodes.
class Marks {
 public:
  virtual ~Marks() = default;
  virtual bool live(const Node* n) const = 0;
  /// Marks n and what it reads live; true when n was not live before.
  virtual bool keep(const Node* n) = 0;
  /// The live nodes, each once.
  virtual void for_each_live(const std::function<void(const Node*)>& visit) const = 0;
};
/// A process-wide map keyed by nodes. keep() applies the map's rule of what a
/// live entry keeps alive (returning true when it marked anything, so the
/// collector repeats until nothing changes); sweep() drops the entries whose
/// nodes died. Registered once, for the life of the process.
class WeakNodeMap {
 public:
  virtual ~WeakNodeMap() = default;
  virtual bool keep(Marks& marks) = 0;
  virtual void sweep(const Marks& marks) = 0;
};
void register_weak_node_map(WeakNodeMap* map);

// Storage behind NodeTable, reused across instances through a per-thread pool.
struct NodeTableStorage {
  struct Entry {
    std::uint32_t stamp;
    std::uint64_t value;
  };
  std::vector<Entry> entries;
  std::uint32_t generation = 0;
  void clear_stamps() {
    for (auto& e : entries) e.stamp = 0;
  }
};
NodeTableStorage* acquire_node_table();
void release_node_table();
}  // namespace detail

/// A map from nodes to small values, indexed by node id: no hashing, and the
/// storage of finished tables is reused, so a table local to one traversal
/// costs nothing to create. Instances must be destroyed in reverse order of
/// construction (scoped locals and members of scoped objects are).
template <class T>
class NodeTable {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= sizeof(std::uint64_t));

 public:
  NodeTable() : s_(detail::acquire_node_table()) {}
  ~NodeTable() { detail::release_node_table(); }
  NodeTable(const NodeTable&) = delete;
  NodeTable& operator=(const NodeTable&) = delete;

  bool contains(const Node* n) const { return n->id < s_->entries.size() && s_->entries[n->id].stamp == s_->generation; }
  /// The value stored for n, or T{} when there is none.
  T get(const Node* n) const {
    T out{};
    if (contains(n)) std::memcpy(&out, &s_->entries[n->id].value, sizeof(T));
    return out;
  }
  void set(const Node* n, T value) {
    if (n->id >= s_->entries.size()) s_->entries.resize(std::max<std::size_t>(n->id + 1, 2 * s_->entries.size()), {0, 0});
    auto& e = s_->entries[n->id];
    e.stamp = s_->generation;
    e.value = 0;
    std::memcpy(&e.value, &value, sizeof(T));
  }

 private:
  detail::NodeTableStorage* s_;
};

/// The memo of rewriting and differentiation: node -> node (nullptr when absent).
using NodeMemo = NodeTable<const Node*>;

/// Rebuilds expressions bottom-up, replacing leaves (and Der nodes) by
/// `leaf(node)`; returning nullptr keeps the leaf. The memo is reusable across
/// calls with the same replacement.
///
/// A recursive rewriter (constructed with `on_cycle`) also rewrites each
/// replacement, so chains of definitions resolve whatever order they were made
/// in; `on_cycle(leaf)` must throw when a leaf's replacement leads back to it.
class Rewriter {
 public:
  using LeafMap = std::function<const Node*(const Node*)>;
  explicit Rewriter(LeafMap leaf) : leaf_(std::move(leaf)) {}
  Rewriter(LeafMap leaf, std::function<void(const Node*)> on_cycle)
      : leaf_(std::move(leaf)), on_cycle_(std::move(on_cycle)) {}
  Expr operator()(const Expr& e);

 private:
  LeafMap leaf_;
  std::function<void(const Node*)> on_cycle_;
  std::vector<const Node*> resolving_;  // leaves whose replacement is being rewritten
  NodeMemo memo_;
};

/// Evaluates an expression given the value of each leaf.
double evaluate(const Expr& e, const std::function<double(const Node*)>& leaf);

/// True if the expression contains no Var, Der or Time leaf.
bool is_parametric(const Expr& e);

/// The Var and Der leaves of an expression (not those inside delay(), whose
/// value depends on the past only).
std::vector<const Node*> unknown_leaves(const Expr& e);

/// Prints with a caller-supplied naming of Var/Param/Der leaves. A shared
/// subexpression is printed at each use, so a deep DAG (a random generator's
/// nested mod()) can print exponentially long: past max_chars the text is cut
/// and ends in "...".
std::string to_string(const Expr& e, const std::function<std::string(const Node*)>& name,
                      std::size_t max_chars = std::string::npos);

}  // namespace acausal
