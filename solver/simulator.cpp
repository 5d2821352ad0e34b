#include "solver/simulator.hpp"

#include <ida/ida.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "solver/evaluation.hpp"

namespace acausal {

Simulator::Simulator(std::shared_ptr<const CompiledModel> model) : model_(std::move(model)) {
  for (const auto& p : model_->dae.parameters) parameters_.push_back(p.value);
}

int Simulator::parameter_index(const std::string& name) const {
  auto it = model_->parameter_by_name.find(name);
  if (it == model_->parameter_by_name.end())
    throw ModelError("model '" + model_->dae.model_name + "' has no parameter '" + name + "'");
  return it->second;
}

void Simulator::set_parameter(const std::string& name, double value) {
  int p = parameter_index(name);
  check_parameter_value(name, value, model_->dae.parameters[p].attributes);
  parameters_[p] = value;
}

double Simulator::parameter(const std::string& name) const { return parameters_[parameter_index(name)]; }

std::vector<std::string> Simulator::parameter_names() const {
  std::vector<std::string> names;
  for (const auto& p : model_->dae.parameters) names.push_back(p.name);
  return names;
}

const CompileReport& Simulator::report() const { return model_->dae.report; }

namespace {

// IDAGetReturnFlagName returns a malloc'ed string.
std::string flag_name(int flag) {
  char* name = IDAGetReturnFlagName(flag);
  std::string result = name ? name : "unknown flag";
  std::free(name);
  return result;
}

// Owns the SUNDIALS objects of one run; frees them whatever happens.
struct Sundials {
  SUNContext context = nullptr;
  N_Vector y = nullptr, yp = nullptr, id = nullptr;
  SUNMatrix matrix = nullptr;
  SUNLinearSolver solver = nullptr;
  void* ida = nullptr;
  ~Sundials() {
    if (ida) IDAFree(&ida);
    if (solver) SUNLinSolFree(solver);
    if (matrix) SUNMatDestroy(matrix);
    if (id) N_VDestroy(id);
    if (yp) N_VDestroy(yp);
    if (y) N_VDestroy(y);
    if (context) SUNContext_Free(&context);
  }
};

}  // namespace

// Callback state: tapes with their own registers, so runs are independent.
struct Integration {
  const CompiledModel* model;
  Tape residual, jacobian;
  bool sparse = false;
  std::string last_message;

  void load(double t, double cj, const double* y, const double* yp, Tape& tape) const {
    double* in = tape.inputs();
    in[0] = t;
    in[1] = cj;
    std::memcpy(in + 2, y, sizeof(double) * model->n);
    std::memcpy(in + 2 + model->n, yp, sizeof(double) * model->n);
  }

  static int residual_fn(double t, N_Vector y, N_Vector yp, N_Vector rr, void* user) {
    auto* self = static_cast<Integration*>(user);
    self->load(t, 0.0, N_VGetArrayPointer(y), N_VGetArrayPointer(yp), self->residual);
    self->residual.run();
    double* r = N_VGetArrayPointer(rr);
    bool finite = true;
    for (int i = 0; i < self->model->n; ++i) {
      r[i] = self->residual.output(i);
      finite &= std::isfinite(r[i]);
    }
    return finite ? 0 : 1;  // recoverable: IDA retries with a smaller step
  }

  static int jacobian_fn(double t, double cj, N_Vector y, N_Vector yp, N_Vector, SUNMatrix J, void* user, N_Vector,
                         N_Vector, N_Vector) {
    auto* self = static_cast<Integration*>(user);
    const CompiledModel& m = *self->model;
    self->load(t, cj, N_VGetArrayPointer(y), N_VGetArrayPointer(yp), self->jacobian);
    self->jacobian.run();
    if (self->sparse) {
      sunindextype* colptr = SUNSparseMatrix_IndexPointers(J);
      sunindextype* rows = SUNSparseMatrix_IndexValues(J);
      double* data = SUNSparseMatrix_Data(J);
      for (int c = 0; c <= m.n; ++c) colptr[c] = m.column_start[c];
      for (std::size_t k = 0; k < m.row_index.size(); ++k) {
        rows[k] = m.row_index[k];
        data[k] = self->jacobian.output(k);
      }
    } else {
      SUNMatZero(J);
      for (int c = 0; c < m.n; ++c)
        for (long k = m.column_start[c]; k < m.column_start[c + 1]; ++k)
          SM_ELEMENT_D(J, m.row_index[k], c) = self->jacobian.output(k);
    }
    return 0;
  }

  static void error_fn(int, const char*, const char* function, char* message, void* user) {
    static_cast<Integration*>(user)->last_message = std::string(function) + ": " + message;
  }
};

Result Simulator::simulate(const SimulationOptions& options) const {
  const CompiledModel& m = *model_;
  const std::string& model_name = m.dae.model_name;
  if (!(options.t_end > options.t_start) || !(options.output_interval > 0) || !std::isfinite(options.t_end))
    throw ModelError("simulate(" + model_name + "): need t_end > t_start and output_interval > 0 (got t_start=" +
                     format_number(options.t_start) + ", t_end=" + format_number(options.t_end) +
                     ", output_interval=" + format_number(options.output_interval) + ")");
  if (!(options.rtol > 0) || !(options.atol > 0))
    throw ModelError("simulate(" + model_name + "): rtol and atol must be positive");

  auto leaf_value = [&](const Node* leaf) {
    return parameters_[m.dae.parameter_of.at(leaf)];
  };
  for (const auto& condition : m.dae.nonzero_conditions) {
    double v = evaluate(condition.value, leaf_value);
    if (v == 0.0 || !std::isfinite(v))
      throw ModelError("with the current parameters " + m.dae.print(condition.value) + " = " + format_number(v) +
                       ", but the compiled model divides by it (" + condition.reason + ")");
  }

  Result result;
  result.model_ = model_;
  result.parameters_ = parameters_;
  const int n = m.n;
  SolverStatistics& stats = result.statistics_;
  stats.unknowns = n;
  bool sparse = options.linear_solver == LinearSolver::klu ||
                (options.linear_solver == LinearSolver::automatic && n > options.dense_threshold);
  stats.linear_solver = sparse ? "klu" : "dense";

  Integration integ{&m, m.residual, m.jacobian, sparse, {}};
  for (Tape* tape : {&integ.residual, &integ.jacobian})
    std::copy(parameters_.begin(), parameters_.end(), tape->inputs() + 2 + 2 * n);

  Sundials s;
  auto check = [&](int flag, const char* what) {
    if (flag < 0)
      throw SimulationError("simulate(" + model_name + "): " + what + " failed: " + flag_name(flag) +
                                (integ.last_message.empty() ? "" : " (" + integ.last_message + ")"),
                            options.t_start, flag, integ.last_message, result);
  };
  if (SUNContext_Create(nullptr, &s.context) != 0) throw std::runtime_error("SUNContext_Create failed");
  s.y = N_VNew_Serial(n, s.context);
  s.yp = N_VNew_Serial(n, s.context);
  s.id = N_VNew_Serial(n, s.context);
  double* y = N_VGetArrayPointer(s.y);
  double* yp = N_VGetArrayPointer(s.yp);
  for (int k = 0; k < n; ++k) {
    y[k] = m.dae.variables[m.variable_of_slot[k]].start;
    yp[k] = 0.0;
    NV_Ith_S(s.id, k) = m.differential[k];
  }

  auto record = [&](double t) {
    result.time_.push_back(t);
    result.y_.insert(result.y_.end(), y, y + n);
    result.yp_.insert(result.yp_.end(), yp, yp + n);
  };
  auto statistics = [&] {
    long v = 0;
    IDAGetNumSteps(s.ida, &v), stats.steps = v;
    IDAGetNumResEvals(s.ida, &v), stats.residual_evaluations = v;
    IDAGetNumJacEvals(s.ida, &v), stats.jacobian_evaluations = v;
    IDAGetNumNonlinSolvIters(s.ida, &v), stats.nonlinear_iterations = v;
    IDAGetNumNonlinSolvConvFails(s.ida, &v), stats.nonlinear_convergence_failures = v;
    IDAGetNumErrTestFails(s.ida, &v), stats.error_test_failures = v;
  };

  auto t_init = std::chrono::steady_clock::now();
  s.ida = IDACreate(s.context);
  if (!s.ida) throw std::runtime_error("IDACreate failed");
  IDASetErrHandlerFn(s.ida, &Integration::error_fn, &integ);
  check(IDAInit(s.ida, &Integration::residual_fn, options.t_start, s.y, s.yp), "IDAInit");
  check(IDASetUserData(s.ida, &integ), "IDASetUserData");
  check(IDASStolerances(s.ida, options.rtol, options.atol), "IDASStolerances");
  check(IDASetId(s.ida, s.id), "IDASetId");
  check(IDASetMaxNumSteps(s.ida, options.max_steps), "IDASetMaxNumSteps");
  if (options.max_step > 0) check(IDASetMaxStep(s.ida, options.max_step), "IDASetMaxStep");
  check(IDASetStopTime(s.ida, options.t_end), "IDASetStopTime");
  if (sparse) {
    s.matrix = SUNSparseMatrix(n, n, static_cast<sunindextype>(m.row_index.size()), CSC_MAT, s.context);
    s.solver = SUNLinSol_KLU(s.y, s.matrix, s.context);
  } else {
    s.matrix = SUNDenseMatrix(n, n, s.context);
    s.solver = SUNLinSol_Dense(s.y, s.matrix, s.context);
  }
  if (!s.matrix || !s.solver) throw std::runtime_error("could not create the linear solver");
  check(IDASetLinearSolver(s.ida, s.solver, s.matrix), "IDASetLinearSolver");
  check(IDASetJacFn(s.ida, &Integration::jacobian_fn), "IDASetJacFn");

  // Consistent initial values: states stay at their start values; algebraic
  // unknowns and all derivatives are computed.
  double first_output = std::min(options.t_start + options.output_interval, options.t_end);
  if (n > 0 && m.initialization.custom) {
    initialize(m, options.t_start, parameters_, y, yp);
    check(IDAReInit(s.ida, options.t_start, s.y, s.yp), "IDAReInit");
  } else if (n > 0) {
    int flag = IDACalcIC(s.ida, IDA_YA_YDP_INIT, first_output);
    if (flag < 0) {
      statistics();
      throw SimulationError("simulate(" + model_name + "): could not find consistent initial values at t = " +
                                format_number(options.t_start) + ": " + flag_name(flag) +
                                (integ.last_message.empty() ? "" : " (" + integ.last_message + ")"),
                            options.t_start, flag, integ.last_message, result);
    }
    check(IDAGetConsistentIC(s.ida, s.y, s.yp), "IDAGetConsistentIC");
  }
  record(options.t_start);
  auto t_integrate = std::chrono::steady_clock::now();
  stats.initialization_seconds = std::chrono::duration<double>(t_integrate - t_init).count();

  const long n_outputs = static_cast<long>(std::ceil((options.t_end - options.t_start) / options.output_interval - 1e-9));
  for (long k = 1; k <= n_outputs; ++k) {
    double tout = std::min(options.t_start + k * options.output_interval, options.t_end);
    double t_reached = tout;
    if (n > 0) {
      int flag = IDASolve(s.ida, tout, &t_reached, s.y, s.yp, IDA_NORMAL);
      if (flag < 0) {
        statistics();
        double t_fail = t_reached;
        IDAGetCurrentTime(s.ida, &t_fail);
        stats.integration_seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t_integrate).count();
        throw SimulationError("simulate(" + model_name + "): the solver failed at t = " + format_number(t_fail) +
                                  ": " + flag_name(flag) +
                                  (integ.last_message.empty() ? "" : " (" + integ.last_message + ")"),
                              t_fail, flag, integ.last_message, result);
      }
    }
    record(tout);
  }
  if (n > 0) statistics();
  stats.integration_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_integrate).count();
  return result;
}

}  // namespace acausal
