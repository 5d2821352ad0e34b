// Evaluation: expressions compiled to a flat instruction tape.
//
// Each distinct node of the hash-consed DAG becomes one instruction writing one
// register, so shared subexpressions are computed once. Running the tape does
// no allocation, no virtual call and no lookup: inputs are written into the
// first registers, the instructions run in order, outputs are read back.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "solver/expr.hpp"

namespace acausal {

class Tape {
 public:
  Tape() = default;
  /// `input_register(leaf)` gives the input register (< n_inputs) of every Var,
  /// Der, Param and Time leaf the outputs contain, or -1 if it has none (an error).
  Tape(const std::vector<Expr>& outputs, int n_inputs, const std::function<int(const Node*)>& input_register);

  double* inputs() { return registers_.data(); }
  void run();
  double output(std::size_t i) const { return registers_[outputs_[i]]; }
  std::size_t n_outputs() const { return outputs_.size(); }
  std::size_t n_instructions() const { return code_.size(); }

 private:
  struct Instruction {
    Op op;
    std::uint32_t dst, a, b, c;
  };
  std::vector<Instruction> code_;
  std::vector<double> registers_;
  std::vector<std::uint32_t> outputs_;
};

}  // namespace acausal
