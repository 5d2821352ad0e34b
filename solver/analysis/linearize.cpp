#include "solver/analysis/linearize.hpp"

#include <fmt/format.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <numbers>

#include "solver/lower/evaluation.hpp"

namespace acausal {

namespace {

Eigen::MatrixXd to_eigen(const DenseMatrix& a) {
  Eigen::MatrixXd out(a.rows, a.cols);
  for (int r = 0; r < a.rows; ++r)
    for (int c = 0; c < a.cols; ++c) out(r, c) = a(r, c);
  return out;
}

DenseMatrix from_eigen(const Eigen::MatrixXd& a) {
  DenseMatrix out(static_cast<int>(a.rows()), static_cast<int>(a.cols()));
  for (int r = 0; r < out.rows; ++r)
    for (int c = 0; c < out.cols; ++c) out(r, c) = a(r, c);
  return out;
}

}  // namespace

LinearModel linearize(const Result& run, double t, std::vector<std::string> inputs,
                      std::vector<std::string> outputs) {
  if (!run.model()) throw ModelError("linearize: the result is empty");
  Simulator sim(run.model());
  return linearize(sim, run.point(t), std::move(inputs), std::move(outputs));
}

LinearModel linearize(const Simulator& sim, const OperatingPoint& point, std::vector<std::string> inputs,
                      std::vector<std::string> outputs) {
  const CompiledModel& m = sim.compiled();
  const int n = m.n;
  const std::string where = "linearize(" + m.dae.model_name + ")";
  LinearModel linear;
  linear.time = point.time;
  std::vector<int> state_slots;
  for (int s = 0; s < n; ++s)
    if (m.differential[s] != 0.0) {
      state_slots.push_back(s);
      linear.states.push_back(m.dae.variables[m.variable_of_slot[s]].name);
    }
  if (inputs.empty()) inputs = sim.inputs();
  if (outputs.empty()) outputs = sim.outputs().empty() ? linear.states : sim.outputs();
  linear.inputs = inputs;
  linear.outputs = outputs;
  const int nx = static_cast<int>(state_slots.size()), nu = static_cast<int>(inputs.size()),
            ny = static_cast<int>(outputs.size());

  std::vector<const Node*> input_symbols;
  std::vector<int> input_parameters;
  for (const auto& name : inputs) {
    auto it = m.parameter_by_name.find(name);
    if (it == m.parameter_by_name.end())
      throw UnknownNameError(where, "input or parameter", name, sim.parameter_names());
    const DaeParameter& p = m.dae.parameters[it->second];
    if (p.attributes.structural || !p.attributes.choices.empty())
      throw ModelError(where + ": " + name + " is structural (folded into the equations at compile()): it cannot be "
                       "an input of the linear model");
    input_symbols.push_back(p.symbol);
    input_parameters.push_back(it->second);
  }
  std::vector<Expr> output_values;
  for (const auto& name : outputs) {
    auto it = m.variable_by_name.find(name);
    if (it == m.variable_by_name.end()) throw UnknownNameError(where, "output variable", name, m.variable_names());
    output_values.push_back(m.value_of(it->second));
  }

  // dF/dy and dF/dy' of the integrator's residual, dense.
  Tape jacobian = m.jacobian;
  std::vector<double> d_dy, d_dyp;
  jacobian_parts(m, jacobian, [&](double cj) { load_point(m, point, cj, jacobian); }, d_dy, d_dyp);
  Eigen::MatrixXd Fy = Eigen::MatrixXd::Zero(n, n), Fyp = Eigen::MatrixXd::Zero(n, n);
  for (int c = 0; c < n; ++c)
    for (long k = m.column_start[c]; k < m.column_start[c + 1]; ++k) {
      Fy(m.row_index[k], c) = d_dy[k];
      Fyp(m.row_index[k], c) = d_dyp[k];
    }

  // The symbolic partials the integrator does not need: residuals by the inputs,
  // outputs by everything they read. One tape evaluates them all.
  std::vector<Expr> partials = residual_parameter_partials(m, input_parameters);
  struct OutputTerm {
    int output, slot;
    bool derivative;
  };
  std::vector<OutputTerm> terms;
  for (int k = 0; k < ny; ++k) {
    for (const Node* p : input_symbols) partials.push_back(diff(output_values[k], Expr(p)));
    for (const auto& [leaf, d] : gradient(output_values[k])) {
      if (leaf->op == Op::Der && leaf->arg[0]->op != Op::Var)
        throw ModelError(where + ": output " + outputs[k] + " reads a second derivative, which the linear model "
                         "does not describe");
      const int slot = m.slot_of_variable[m.dae.variable_index(leaf)];
      if (leaf->op == Op::Der && m.differential[slot] == 0.0)
        throw ModelError(where + ": output " + outputs[k] + " reads der(" +
                         m.dae.variables[m.variable_of_slot[slot]].name +
                         "), the derivative of an algebraic unknown, which the linear model does not describe");
      terms.push_back({k, slot, leaf->op == Op::Der});
      partials.push_back(d);
    }
  }
  Tape tape = m.observer(partials);
  load_point(m, point, 0.0, tape);
  tape.run();
  std::size_t next = 0;
  Eigen::MatrixXd Fu(n, nu);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < nu; ++j) Fu(i, j) = tape.output(next++);
  Eigen::MatrixXd Gu(ny, nu), Gy = Eigen::MatrixXd::Zero(ny, n), Gyp = Eigen::MatrixXd::Zero(ny, n);
  for (int k = 0, term = 0; k < ny; ++k) {
    for (int j = 0; j < nu; ++j) Gu(k, j) = tape.output(next++);
    for (; term < static_cast<int>(terms.size()) && terms[term].output == k; ++term)
      (terms[term].derivative ? Gyp : Gy)(k, terms[term].slot) += tape.output(next++);
  }

  // F_y'·δy' + F_y·δy + F_u·δu = 0 with δy = (δx, δz): the unknowns of the
  // index-1 system are δx' (states) and δz (algebraic); M is nonsingular there.
  Eigen::MatrixXd M(n, n), R(n, nx + nu);
  for (int s = 0; s < n; ++s) M.col(s) = m.differential[s] != 0.0 ? Fyp.col(s) : Fy.col(s);
  for (int i = 0; i < nx; ++i) R.col(i) = Fy.col(state_slots[i]);
  R.rightCols(nu) = Fu;
  Eigen::FullPivLU<Eigen::MatrixXd> lu(M);
  if (!lu.isInvertible())
    throw ModelError(fmt::format("{}: at t = {} the derivatives and algebraic unknowns are not determined by the "
                                 "states (the Jacobian has rank {} of {}); linearize at a regular point",
                                 where, format_number(point.time), lu.rank(), n));
  const Eigen::MatrixXd W = -lu.solve(R);  // row s: δx'_s for a state slot, δz_s for an algebraic one

  Eigen::MatrixXd A(nx, nx), B(nx, nu);
  for (int i = 0; i < nx; ++i) {
    A.row(i) = W.row(state_slots[i]).leftCols(nx);
    B.row(i) = W.row(state_slots[i]).rightCols(nu);
  }
  // δy of every slot and δy' of the states, as functions of (δx, δu).
  Eigen::MatrixXd dy = Eigen::MatrixXd::Zero(n, nx + nu), dyp = Eigen::MatrixXd::Zero(n, nx + nu);
  for (int s = 0; s < n; ++s) {
    if (m.differential[s] != 0.0) dyp.row(s) = W.row(s);
    else dy.row(s) = W.row(s);
  }
  for (int i = 0; i < nx; ++i) dy(state_slots[i], i) = 1.0;
  Eigen::MatrixXd CD = Gy * dy + Gyp * dyp;
  CD.rightCols(nu) += Gu;
  linear.A = from_eigen(A);
  linear.B = from_eigen(B);
  linear.C = from_eigen(CD.leftCols(nx));
  linear.D = from_eigen(CD.rightCols(nu));
  return linear;
}

std::vector<double> values_at(const Simulator& sim, const OperatingPoint& point, const std::vector<std::string>& names) {
  const CompiledModel& m = sim.compiled();
  std::vector<Expr> values;
  for (const auto& name : names) {
    if (auto v = m.variable_by_name.find(name); v != m.variable_by_name.end()) {
      values.push_back(m.value_of(v->second));
    } else if (auto p = m.parameter_by_name.find(name); p != m.parameter_by_name.end()) {
      values.push_back(Expr(m.dae.parameters[p->second].symbol));
    } else {
      std::vector<std::string> known = sim.parameter_names();
      for (auto& variable : m.variable_names()) known.push_back(std::move(variable));
      throw UnknownNameError("model '" + m.dae.model_name + "'", "variable or parameter", name, known);
    }
  }
  Tape tape = m.observer(values);
  load_point(m, point, 0.0, tape);
  tape.run();
  std::vector<double> out(values.size());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = tape.output(i);
  return out;
}

const char* to_string(ModeKind kind) {
  switch (kind) {
    case ModeKind::zero: return "zero";
    case ModeKind::real: return "real";
    case ModeKind::oscillating: return "oscillating";
  }
  return "?";
}

std::vector<LinearMode> modes(const LinearModel& linear, int dominant_states, ModeTolerance tolerance) {
  std::vector<LinearMode> out;
  const int nx = linear.A.rows;
  if (nx == 0) return out;
  Eigen::EigenSolver<Eigen::MatrixXd> solver(to_eigen(linear.A));
  if (solver.info() != Eigen::Success) throw ModelError("modes: the eigenvalues of A did not converge");
  const Eigen::MatrixXcd V = solver.eigenvectors();
  const Eigen::MatrixXcd W = V.inverse();  // rows: left eigenvectors
  double largest = 0.0;
  for (int i = 0; i < nx; ++i) largest = std::max(largest, std::abs(solver.eigenvalues()(i)));
  const double tol = std::max(tolerance.relative * largest, tolerance.absolute);
  for (int i = 0; i < nx; ++i) {
    const std::complex<double> computed = solver.eigenvalues()(i);
    LinearMode mode;
    mode.computed = computed;
    if (std::abs(computed) <= tol) {
      mode.kind = ModeKind::zero;  // each member of a split pair is a zero of its own
      mode.eigenvalue = 0.0;
    } else if (std::abs(computed.imag()) <= tol) {
      mode.kind = ModeKind::real;  // each member of a pair with a round-off imaginary part is a real pole
      mode.eigenvalue = std::abs(computed.real()) <= tol ? 0.0 : computed.real();
    } else {
      if (computed.imag() < 0) continue;  // its conjugate stands for the pair
      mode.kind = ModeKind::oscillating;
      mode.eigenvalue = {std::abs(computed.real()) <= tol ? 0.0 : computed.real(), computed.imag()};
    }
    const std::complex<double> lambda = mode.eigenvalue;
    mode.unstable = lambda.real() > 0;
    mode.natural_frequency = std::abs(lambda);
    mode.frequency_hz = mode.natural_frequency / (2 * std::numbers::pi);
    mode.damping_ratio = mode.kind == ModeKind::zero ? NAN : -lambda.real() / mode.natural_frequency;
    mode.time_constant = mode.kind == ModeKind::zero ? NAN : lambda.real() != 0.0 ? -1.0 / lambda.real() : INFINITY;
    std::vector<std::pair<std::string, double>> participation;
    double total = 0.0;
    for (int k = 0; k < nx; ++k) {
      const double p = std::abs(V(k, i) * W(i, k));
      participation.emplace_back(linear.states[k], p);
      total += p;
    }
    std::sort(participation.begin(), participation.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    for (int k = 0; k < nx && k < dominant_states; ++k)
      mode.dominant_states.emplace_back(participation[k].first, total > 0 ? participation[k].second / total : 0.0);
    out.push_back(std::move(mode));
  }
  std::sort(out.begin(), out.end(), [](const LinearMode& a, const LinearMode& b) {
    return a.natural_frequency < b.natural_frequency;
  });
  return out;
}

}  // namespace acausal
