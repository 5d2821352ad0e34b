#include "solver/tape.hpp"

#include <cmath>
#include <stdexcept>

namespace acausal {

Tape::Tape(const std::vector<Expr>& outputs, int n_inputs, const std::function<int(const Node*)>& input_register) {
  NodeTable<std::uint32_t> reg;
  std::vector<const Node*> roots;
  roots.reserve(outputs.size());
  for (const auto& e : outputs) roots.push_back(e.node());
  std::uint32_t next = static_cast<std::uint32_t>(n_inputs);
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
      case Op::Var: case Op::Param: case Op::Time: case Op::Der:
        reg.set(n, leaf_register(n));
        return;
      default: {
        Instruction in{n->op, next, 0, 0, 0};
        if (n->arity() > 0) in.a = reg.get(n->arg[0]);
        if (n->arity() > 1) in.b = reg.get(n->arg[1]);
        if (n->arity() > 2) in.c = reg.get(n->arg[2]);
        code_.push_back(in);
        reg.set(n, next++);
      }
    }
  }, delayed);
  registers_.assign(next, 0.0);
  for (auto [r, v] : constant_registers) registers_[r] = v;
  for (const auto& e : outputs) outputs_.push_back(reg.get(e.node()));
}

void Tape::run() {
  double* r = registers_.data();
  for (const Instruction& in : code_) {
    const double a = r[in.a];
    const double b = r[in.b];
    double& out = r[in.dst];
    switch (in.op) {
      case Op::Neg: out = -a; break;
      case Op::Add: out = a + b; break;
      case Op::Sub: out = a - b; break;
      case Op::Mul: out = a * b; break;
      case Op::Div: out = a / b; break;
      case Op::Pow: out = b == 2.0 ? a * a : std::pow(a, b); break;
      case Op::Sqrt: out = std::sqrt(a); break;
      case Op::Exp: out = std::exp(a); break;
      case Op::Sin: out = std::sin(a); break;
      case Op::Cos: out = std::cos(a); break;
      case Op::Tanh: out = std::tanh(a); break;
      case Op::IfElse: out = a != 0.0 ? b : r[in.c]; break;
      default: out = apply(in.op, a, b, r[in.c]); break;
    }
  }
}

}  // namespace acausal
