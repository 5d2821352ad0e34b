#include "solver/lower/tape.hpp"

#include "solver/symbolic/table_entries.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

namespace acausal {

Tape::Tape(const std::vector<Expr>& outputs, int n_inputs, const std::function<int(const Node*)>& input_register) {
  NodeTable<std::uint32_t> reg;
  std::vector<const Node*> roots;
  roots.reserve(outputs.size());
  for (const auto& e : outputs) roots.push_back(e.node());
  n_inputs_ = static_cast<std::uint32_t>(n_inputs);
  std::uint32_t next = n_inputs_;
  std::vector<std::pair<std::uint32_t, double>> constant_registers;
  auto leaf_register = [&](const Node* n) {
    int r = input_register(n);
    if (r < 0 || r >= n_inputs) throw std::logic_error("tape: leaf '" + Expr(n).str() + "' has no input register");
    return static_cast<std::uint32_t>(r);
  };
  // A delayed value is an input: its argument is computed elsewhere, at past instants.
  auto delayed = [&](const Node* n) {
    if (!is_delay(n->op)) return false;
    if (!reg.contains(n)) reg.set(n, leaf_register(n));
    return true;
  };
  for_each_postorder(roots, [&](const Node* n) {
    switch (n->op) {
      case Op::Const:
        constant_registers.emplace_back(next, n->value);
        reg.set(n, next++);
        return;
      case Op::Var: case Op::Param: case Op::Time: case Op::Der: case Op::Discrete:
        reg.set(n, leaf_register(n));
        return;
      default: {
        Instruction in{n->op, next, 0, 0, 0};
        if (n->arity() > 0) in.a = reg.get(n->arg[0]);
        if (n->arity() > 1) in.b = reg.get(n->arg[1]);
        if (n->arity() > 2) in.c = reg.get(n->arg[2]);
        if (n->op == Op::Table) {
          in.c = n->symbol;  // the entry, not a register
          tables_.emplace_back(n);
        }
        code_.push_back(in);
        reg.set(n, next++);
      }
    }
  }, delayed);
  code_.push_back({Op::Const, 0, 0, 0, 0});  // the end: interpret() stops here without counting
  registers_.assign(next, 0.0);
  for (auto [r, v] : constant_registers) registers_[r] = v;
  for (const auto& e : outputs) outputs_.push_back(reg.get(e.node()));
}

// Threaded dispatch: each operation ends with its own jump to the next one,
// so the processor predicts each operation's successor separately; a single
// switch shares one indirect branch among all of them (with the end marker,
// 26 % fewer instructions for the launch car of bench/car_bench). Labels as
// values are a GCC and Clang extension: CMakeLists.txt exempts this file from -Wpedantic.
void Tape::interpret() {
  double* r = registers_.data();
  if (code_.empty()) return;  // a default-constructed tape
  const Instruction* in = code_.data();
  // One entry per Op, in the enum's order; Const marks the end, other leaves never become instructions.
#define L(label) && label
  static const void* const handlers[] = {
      L(done), L(leaf), L(leaf), L(leaf), L(leaf),                                           // Const .. Der
      L(neg), L(add), L(sub), L(mul), L(div), L(pow),                                       // arithmetic
      L(sqrt_), L(exp_), L(other), L(sin_), L(cos_), L(other), L(other), L(other), L(other),   // Sqrt .. Atan
      L(other), L(other), L(tanh_),                                                      // Sinh, Cosh, Tanh
      L(abs_), L(other), L(other), L(min_), L(max_), L(other),                              // Abs .. Floor
      L(lt), L(le), L(gt), L(ge), L(and_), L(or_), L(not_), L(ifelse), L(copy), L(other), L(other),  // Lt .. DelayRate
      L(leaf), L(table)};                                                               // Discrete, Table
#undef L
  static_assert(sizeof(handlers) / sizeof(handlers[0]) == static_cast<std::size_t>(Op::Table) + 1);
#define ACAUSAL_NEXT \
  ++in;              \
  goto* handlers[static_cast<int>(in->op)]
  goto* handlers[static_cast<int>(in->op)];
neg: r[in->dst] = -r[in->a]; ACAUSAL_NEXT;
add: r[in->dst] = r[in->a] + r[in->b]; ACAUSAL_NEXT;
sub: r[in->dst] = r[in->a] - r[in->b]; ACAUSAL_NEXT;
mul: r[in->dst] = r[in->a] * r[in->b]; ACAUSAL_NEXT;
div: r[in->dst] = r[in->a] / r[in->b]; ACAUSAL_NEXT;
pow: {
  const double a = r[in->a], b = r[in->b];
  r[in->dst] = b == 2.0 ? a * a : std::pow(a, b);
  ACAUSAL_NEXT;
}
sqrt_: r[in->dst] = std::sqrt(r[in->a]); ACAUSAL_NEXT;
exp_: r[in->dst] = std::exp(r[in->a]); ACAUSAL_NEXT;
sin_: r[in->dst] = std::sin(r[in->a]); ACAUSAL_NEXT;
cos_: r[in->dst] = std::cos(r[in->a]); ACAUSAL_NEXT;
tanh_: r[in->dst] = std::tanh(r[in->a]); ACAUSAL_NEXT;
abs_: r[in->dst] = std::fabs(r[in->a]); ACAUSAL_NEXT;
min_: r[in->dst] = std::fmin(r[in->a], r[in->b]); ACAUSAL_NEXT;
max_: r[in->dst] = std::fmax(r[in->a], r[in->b]); ACAUSAL_NEXT;
lt: r[in->dst] = r[in->a] < r[in->b] ? 1.0 : 0.0; ACAUSAL_NEXT;
le: r[in->dst] = r[in->a] <= r[in->b] ? 1.0 : 0.0; ACAUSAL_NEXT;
gt: r[in->dst] = r[in->a] > r[in->b] ? 1.0 : 0.0; ACAUSAL_NEXT;
ge: r[in->dst] = r[in->a] >= r[in->b] ? 1.0 : 0.0; ACAUSAL_NEXT;
and_: r[in->dst] = (r[in->a] != 0.0 && r[in->b] != 0.0) ? 1.0 : 0.0; ACAUSAL_NEXT;
or_: r[in->dst] = (r[in->a] != 0.0 || r[in->b] != 0.0) ? 1.0 : 0.0; ACAUSAL_NEXT;
not_: r[in->dst] = r[in->a] == 0.0 ? 1.0 : 0.0; ACAUSAL_NEXT;
ifelse: r[in->dst] = r[in->a] != 0.0 ? r[in->b] : r[in->c]; ACAUSAL_NEXT;
copy: r[in->dst] = r[in->a]; ACAUSAL_NEXT;
table: r[in->dst] = table_evaluate(in->c, r[in->a], r[in->b]); ACAUSAL_NEXT;
other: r[in->dst] = apply(in->op, r[in->a], r[in->b], r[in->c]); ACAUSAL_NEXT;
done: return;
leaf: throw std::logic_error("tape: a leaf became an instruction");
#undef ACAUSAL_NEXT
}

namespace {

// C for one operator applied to operands already written as C, as apply() computes it.
std::string c_operation(Op op, const std::string& a, const std::string& b, const std::string& c) {
  switch (op) {
    case Op::Neg: return fmt::format("-{}", a);
    case Op::Add: return fmt::format("{} + {}", a, b);
    case Op::Sub: return fmt::format("{} - {}", a, b);
    case Op::Mul: return fmt::format("{} * {}", a, b);
    case Op::Div: return fmt::format("{} / {}", a, b);
    case Op::Pow: return fmt::format("{1} == 2.0 ? {0} * {0} : pow({0}, {1})", a, b);
    case Op::Abs: return fmt::format("fabs({})", a);
    case Op::Sign: return fmt::format("{0} > 0 ? 1.0 : ({0} < 0 ? -1.0 : 0.0)", a);
    case Op::Min: return fmt::format("fmin({}, {})", a, b);
    case Op::Max: return fmt::format("fmax({}, {})", a, b);
    case Op::Atan2: return fmt::format("atan2({}, {})", a, b);
    case Op::Lt: return fmt::format("{} < {} ? 1.0 : 0.0", a, b);
    case Op::Le: return fmt::format("{} <= {} ? 1.0 : 0.0", a, b);
    case Op::Gt: return fmt::format("{} > {} ? 1.0 : 0.0", a, b);
    case Op::Ge: return fmt::format("{} >= {} ? 1.0 : 0.0", a, b);
    case Op::And: return fmt::format("({} != 0.0 && {} != 0.0) ? 1.0 : 0.0", a, b);
    case Op::Or: return fmt::format("({} != 0.0 || {} != 0.0) ? 1.0 : 0.0", a, b);
    case Op::Not: return fmt::format("{} == 0.0 ? 1.0 : 0.0", a);
    case Op::IfElse: return fmt::format("{} != 0.0 ? {} : {}", a, b, c);
    case Op::NoEvent: case Op::Delay: return a;
    case Op::DelayRate: return "0.0";
    case Op::Sqrt: case Op::Exp: case Op::Log: case Op::Sin: case Op::Cos: case Op::Tan: case Op::Asin:
    case Op::Acos: case Op::Atan: case Op::Sinh: case Op::Cosh: case Op::Tanh: case Op::Floor:
      return fmt::format("{}({})", op_name(op), a);
    default: throw std::logic_error(std::string("tape: no C form for ") + op_name(op));
  }
}

}  // namespace

void Tape::write_c(std::string& c, std::string_view name) const {
  std::vector<bool> computed(registers_.size(), false);
  for (const Instruction& in : code_)
    if (in.op != Op::Const) computed[in.dst] = true;
  // Inputs are read from the register array, constants become literals (hex
  // floats: exact), computed registers are locals stored only if they are outputs.
  auto operand = [&](std::uint32_t k) -> std::string {
    if (k < n_inputs_) return fmt::format("r[{}]", k);
    if (computed[k]) return fmt::format("x{}", k);
    const double v = registers_[k];
    if (std::isnan(v)) return "NAN";
    if (std::isinf(v)) return v > 0 ? "INFINITY" : "(-INFINITY)";
    return fmt::format("({:a})", v);
  };
  auto out = std::back_inserter(c);
  fmt::format_to(out, "void {}(double* restrict r) {{\n", name);
  for (const Instruction& in : code_) {
    if (in.op == Op::Const) break;  // the end
    const int n = arity(in.op);
    const std::string a = n > 0 ? operand(in.a) : "", b = n > 1 ? operand(in.b) : "", cc = n > 2 ? operand(in.c) : "";
    if (in.op == Op::Table) {  // through the host's evaluator (native_code.cpp sets the pointer)
      fmt::format_to(out, "  const double x{} = acausal_table({}u, {}, {});\n", in.dst, in.c, a, b);
      continue;
    }
    fmt::format_to(out, "  const double x{} = {};\n", in.dst, c_operation(in.op, a, b, cc));
  }
  std::vector<bool> stored(registers_.size(), false);
  for (std::uint32_t k : outputs_) {
    if (!computed[k] || stored[k]) continue;
    stored[k] = true;
    fmt::format_to(out, "  r[{0}] = x{0};\n", k);
  }
  c += "}\n";
}

void Tape::use_native(NativeFunction function, std::shared_ptr<const void> library) {
  native_ = function;
  library_ = std::move(library);
}

}  // namespace acausal
