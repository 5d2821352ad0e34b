#include "solver/runtime/exact_outputs.hpp"

#include <Eigen/Dense>
#include <klu.h>

#include <cmath>
#include <limits>
#include <vector>

#include "solver/lower/evaluation.hpp"

namespace acausal {

namespace {
constexpr double eps = std::numeric_limits<double>::epsilon();
// Up to this size a dense LU and its inverse (a correction is then one
// matrix-vector product) beat a sparse factorization; above it KLU does.
constexpr int largest_dense = 40;
// Above this size the rounding-floor test (which needs the dense inverse) is skipped.
constexpr int largest_dense_inverse = 400;
}  // namespace

// The iteration matrix: dF/dy for algebraic slots, dF/dy' for states, in the
// integrator's sparsity. Above `largest_dense` unknowns KLU factors it (its
// ordering analyzed once per run, pivots chosen afresh each time): a few
// microseconds for the WLTC car's 64 unknowns, where a dense LU and its
// inverse took a hundred, half of that run's time.
struct ExactOutputs::Factorization {
  bool dense = true;
  Eigen::PartialPivLU<Eigen::MatrixXd> dense_lu;
  Eigen::MatrixXd dense_inverse;
  klu_common common;
  klu_symbolic* symbolic = nullptr;
  klu_numeric* numeric = nullptr;
  std::vector<int> column_start, row_index;
  std::vector<double> values;  // in the pattern's order
  bool valid = false;
  Eigen::VectorXd r, dz, start;  // kept from row to row: no allocation per row
  std::vector<double> d_dy, d_dyp;

  explicit Factorization(const CompiledModel& m)
      : dense(m.n <= largest_dense),
        column_start(m.column_start.begin(), m.column_start.end()),
        row_index(m.row_index.begin(), m.row_index.end()),
        values(m.row_index.size()) {
    klu_defaults(&common);
    common.tol = 1.0;  // partial pivoting by magnitude, as the dense LU
  }
  ~Factorization() {
    if (numeric) klu_free_numeric(&numeric, &common);
    if (symbolic) klu_free_symbolic(&symbolic, &common);
  }
  Factorization(const Factorization&) = delete;
  Factorization& operator=(const Factorization&) = delete;

  Eigen::MatrixXd matrix() const {
    const int n = static_cast<int>(column_start.size()) - 1;
    Eigen::MatrixXd a = Eigen::MatrixXd::Zero(n, n);
    for (int c = 0; c < n; ++c)
      for (int k = column_start[c]; k < column_start[c + 1]; ++k) a(row_index[k], c) = values[k];
    return a;
  }
  bool factor_values() {
    if (dense) {
      dense_lu.compute(matrix());
      // PartialPivLU does not report singularity: a zero or non-finite pivot shows it.
      const auto& lu = dense_lu.matrixLU();
      for (int i = 0; i < lu.rows(); ++i)
        if (!std::isfinite(lu(i, i)) || lu(i, i) == 0.0) return false;
      dense_inverse = dense_lu.inverse();
      return true;
    }
    const int n = static_cast<int>(column_start.size()) - 1;
    if (!symbolic) symbolic = klu_analyze(n, column_start.data(), row_index.data(), &common);
    if (!symbolic) return false;
    if (numeric) klu_free_numeric(&numeric, &common);
    numeric = klu_factor(column_start.data(), row_index.data(), values.data(), symbolic, &common);
    return numeric && common.status == KLU_OK;
  }
  void solve(Eigen::VectorXd& rhs) {
    if (dense)
      rhs = dense_inverse * rhs;
    else
      klu_solve(symbolic, numeric, static_cast<int>(rhs.size()), 1, rhs.data(), &common);
  }
};

ExactOutputs::ExactOutputs(const CompiledModel& m, double rtol, double atol)
    : model_(m), rtol_(rtol), atol_(atol), residual_(m.residual), jacobian_(m.jacobian),
      lu_(std::make_unique<Factorization>(m)) {
  lu_->r.resize(m.n);
  lu_->dz.resize(m.n);
  lu_->start.resize(m.n);
}

ExactOutputs::~ExactOutputs() = default;

void ExactOutputs::forget() { lu_->valid = false; }

bool ExactOutputs::factor(const double* y, const double* yp, const Loader& load) {
  const CompiledModel& m = model_;
  std::vector<double>& d_dy = lu_->d_dy;
  std::vector<double>& d_dyp = lu_->d_dyp;
  jacobian_parts(m, jacobian_, [&](double cj) { load(jacobian_, cj, y, yp); }, d_dy, d_dyp);
  ++factorizations_;
  Factorization& f = *lu_;
  f.valid = false;
  for (int c = 0; c < m.n; ++c)
    for (long k = m.column_start[c]; k < m.column_start[c + 1]; ++k) {
      f.values[k] = m.differential[c] != 0.0 ? d_dyp[k] : d_dy[k];
      if (!std::isfinite(f.values[k])) return false;
    }
  f.valid = f.factor_values();
  return f.valid;
}

// A value that should be zero but is a sum of large terms (the power flowing
// through a joint, tau_a·w_a + tau_b·w_b) moves by the rounding of those
// terms, not of itself: the residual of each equation is uncertain by eps
// times the sum of its terms' magnitudes (approximated by |dF/dy|·|y| + |dF/dy'|·|y'|), and
// the iterate by that uncertainty carried through the inverse matrix. A
// correction within tens of those roundings is the equations' floor.
bool ExactOutputs::at_rounding_floor(const double* y, const double* yp) const {
  const Factorization& f = *lu_;
  const CompiledModel& m = model_;
  const int n = m.n;
  if (!f.valid || n > largest_dense_inverse) return false;
  Eigen::VectorXd term_scale = Eigen::VectorXd::Zero(n);
  for (int c = 0; c < n; ++c) {
    const bool state = m.differential[c] != 0.0;
    for (long k = m.column_start[c]; k < m.column_start[c + 1]; ++k)
      term_scale[m.row_index[k]] += std::fabs(f.d_dy[k] * y[c]) + (state ? std::fabs(f.d_dyp[k] * yp[c]) : 0.0);
  }
  for (int i = 0; i < n; ++i) term_scale[i] = eps * std::max(term_scale[i], std::fabs(f.r[i]));
  // Rare (an iteration that stopped shrinking): a sparse factorization's inverse is formed here only.
  const Eigen::VectorXd floor =
      (f.dense ? f.dense_inverse : Eigen::MatrixXd(f.matrix().partialPivLu().inverse())).cwiseAbs() * term_scale;
  for (int i = 0; i < n; ++i)
    if (std::fabs(f.dz[i]) > 64 * floor[i]) return false;
  return true;
}

ExactOutputs::Outcome ExactOutputs::solve(double* y, double* yp, const Loader& load, double weighted_floor) {
  const CompiledModel& m = model_;
  const int n = m.n;
  Outcome outcome;
  if (n == 0) {
    outcome.exact = true;
    return outcome;
  }
  // z: the algebraic y and the states' y'.
  auto z = [&](int i) -> double& { return m.differential[i] != 0.0 ? yp[i] : y[i]; };
  Eigen::VectorXd& r = lu_->r;
  Eigen::VectorXd& dz = lu_->dz;
  Eigen::VectorXd& start = lu_->start;
  auto evaluate = [&] {
    load(residual_, 0.0, y, yp);
    residual_.run();
    for (int i = 0; i < n; ++i) {
      r[i] = residual_.output(i);
      if (!std::isfinite(r[i])) return i;
    }
    return -1;
  };
  for (int i = 0; i < n; ++i) start[i] = z(i);
  auto give_up = [&] {
    for (int i = 0; i < n; ++i) z(i) = start[i];
    return outcome;
  };

  if ((outcome.nonfinite_equation = evaluate()) >= 0) return outcome;
  if (r.lpNorm<Eigen::Infinity>() == 0.0) {
    outcome.exact = true;
    return outcome;
  }
  bool fresh = false;
  int fresh_corrections = 0;  // made with the matrix factored in this row
  double previous_step = std::numeric_limits<double>::infinity();
  for (int iteration = 0; iteration < 12; ++iteration) {
    if (!lu_->valid) {
      if (!factor(y, yp, load)) return give_up();
      fresh = true;
      fresh_corrections = 0;
    }
    dz = -r;
    lu_->solve(dz);
    // `size`: the correction against the rounding level of each value;
    // `step`: the same in the integrator's error weights.
    double size = 0.0, step = 0.0;
    for (int i = 0; i < n; ++i) {
      z(i) += dz[i];
      size = std::max(size, std::fabs(dz[i]) / (4 * eps * std::fabs(z(i)) + std::numeric_limits<double>::min()));
      step = std::max(step, std::fabs(dz[i]) / (rtol_ * std::fabs(z(i)) + model_.absolute_tolerance(i, atol_)));
    }
    outcome.iterations = iteration + 1;
    fresh_corrections += fresh;
    if (!std::isfinite(size)) {
      lu_->valid = false;
      if (fresh) return give_up();
      for (int i = 0; i < n; ++i) z(i) = start[i];
      evaluate();  // finite at the start, checked above
      continue;
    }
    // Newton's usual stopping test: the error left after this correction is
    // about rate/(1 - rate) of it. Accepted when that is within a thousand
    // roundings of each value (1e-13 relative), with no residual evaluated at
    // the accepted point; a correction at the rounding level needs no rate.
    // The first correction removes the interpolation error, so the rate it
    // shows says little about the next ones: the rate is read from the second on.
    const double rate = iteration >= 2 ? step / previous_step : 1.0;
    if (size <= 1.0 || (rate < 0.5 && rate / (1 - rate) * size <= 1e3) || step <= weighted_floor) {
      outcome.exact = true;
      return outcome;
    }
    // A trial point outside the equations' domain (a root of a negative) is
    // the iteration's failure, not the row's: the row keeps its values.
    if (evaluate() >= 0) return give_up();
    // A matrix from an earlier row converges linearly: refresh it when slow
    // (`size` cannot tell: a value that should be zero has no rounding level
    // of its own). With a fresh one (judged from its second correction on:
    // the first is measured against the old matrix's), a step that no longer
    // shrinks, well below the integration tolerance, is the rounding floor of
    // the equations (large terms that cancel, an ill-conditioned loop): the
    // values are as exact as floating point makes them.
    if (step > 0.1 * previous_step) {
      if (fresh && fresh_corrections >= 2) {
        outcome.exact = step < 0.1 || at_rounding_floor(y, yp);
        return outcome.exact ? outcome : give_up();
      }
      if (!fresh) lu_->valid = false;
    }
    previous_step = step;
  }
  return give_up();
}

}  // namespace acausal
