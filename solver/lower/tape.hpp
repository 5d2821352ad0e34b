// Evaluation: expressions compiled to a flat instruction tape.
//
// Each distinct node of the hash-consed DAG becomes one instruction writing one
// register, so shared subexpressions are computed once. Running the tape does
// no allocation, no virtual call and no lookup: inputs are written into the
// first registers, the instructions run in order, outputs are read back.
//
// A tape can also be written as a C function over the same registers, compiled
// by the system's C compiler and loaded (solver/lower/native_code.*); run() then calls
// that function, with the same results bit for bit.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "solver/symbolic/expr.hpp"

namespace acausal {

class Tape {
 public:
  Tape() = default;
  /// `input_register(leaf)` gives the input register (< n_inputs) of every Var,
  /// Der, Param and Time leaf the outputs contain, or -1 if it has none (an error).
  Tape(const std::vector<Expr>& outputs, int n_inputs, const std::function<int(const Node*)>& input_register);

  double* inputs() { return registers_.data(); }
  void run() {
    if (native_) return native_(registers_.data());
    interpret();
  }
  double output(std::size_t i) const { return registers_[outputs_[i]]; }
  std::size_t n_outputs() const { return outputs_.size(); }
  std::size_t n_instructions() const { return code_.empty() ? 0 : code_.size() - 1; }

  /// Native form: `void <name>(double* r)` in C99 computing what run() computes
  /// (the same operations in the same order, so the same roundings), appended to `c`.
  void write_c(std::string& c, std::string_view name) const;
  using NativeFunction = void (*)(double*);
  /// Runs `function` instead of interpreting; `library` keeps its code loaded
  /// for as long as this tape or a copy of it lives.
  void use_native(NativeFunction function, std::shared_ptr<const void> library);
  bool is_native() const { return native_ != nullptr; }

 private:
  void interpret();

  struct Instruction {
    Op op;
    std::uint32_t dst, a, b, c;
  };
  std::vector<Instruction> code_;
  std::vector<double> registers_;
  std::vector<std::uint32_t> outputs_;
  std::uint32_t n_inputs_ = 0;
  NativeFunction native_ = nullptr;
  std::shared_ptr<const void> library_;
  std::vector<NodeRef> tables_;  // its Op::Table nodes: their table entries stay registered while it lives
};

}  // namespace acausal
