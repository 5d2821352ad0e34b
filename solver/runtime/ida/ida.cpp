// SUNDIALS IDA for a run: its memory, its options and the callbacks it calls.
#include "solver/runtime/ida/session_run.hpp"

#include <cstdlib>

namespace acausal {

// IDAGetReturnFlagName returns a malloc'ed string.
std::string flag_name(int flag) {
  char* name = IDAGetReturnFlagName(flag);
  std::string result = name ? name : "unknown flag";
  std::free(name);
  return result;
}

Sundials::~Sundials() {
  if (ida) IDAFree(&ida);
  if (solver) SUNLinSolFree(solver);
  if (matrix) SUNMatDestroy(matrix);
  if (ypp) N_VDestroy(ypp);
  if (dkyp) N_VDestroy(dkyp);
  if (dky) N_VDestroy(dky);
  if (atol) N_VDestroy(atol);
  if (id) N_VDestroy(id);
  if (yp) N_VDestroy(yp);
  if (y) N_VDestroy(y);
  if (context) SUNContext_Free(&context);
}

int Integration::sensitivity_fn(int, double t, N_Vector y, N_Vector yp, N_Vector, N_Vector* yS, N_Vector* ypS,
                          N_Vector* rrS, void* user, N_Vector, N_Vector, N_Vector) {
  auto* self = static_cast<Integration*>(user);
  if (self->interrupted()) return -1;
  return self->sensitivities->residual(t, y, yp, yS, ypS, rrS);
}

int Integration::root_fn(double t, N_Vector y, N_Vector yp, double* g, void* user) {
  auto* self = static_cast<Integration*>(user);
  self->load_relations(t, N_VGetArrayPointer(y), N_VGetArrayPointer(yp), self->indicators);
  self->indicators.run();
  for (std::size_t i = 0; i < self->indicators.n_outputs(); ++i)
    g[i] = self->indicators.output(i) + self->root_offset[i];
  return 0;
}

int Integration::residual_fn(double t, N_Vector y, N_Vector yp, N_Vector rr, void* user) {
  auto* self = static_cast<Integration*>(user);
  if (self->interrupted()) return -1;  // unrecoverable: IDA returns at once
  self->load(t, 0.0, N_VGetArrayPointer(y), N_VGetArrayPointer(yp), self->residual);
  self->residual.run();
  double* r = N_VGetArrayPointer(rr);
  bool finite = true;
  for (int i = 0; i < self->model->n; ++i) {
    r[i] = self->residual.output(i);
    if (!std::isfinite(r[i]) && finite) {
      finite = false;
      self->nonfinite_equation = i;
      self->nonfinite_time = t;
    }
  }
  return finite ? 0 : 1;  // recoverable: IDA retries with a smaller step
}

int Integration::jacobian_fn(double t, double cj, N_Vector y, N_Vector yp, N_Vector, SUNMatrix J, void* user, N_Vector,
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

void Integration::error_fn(int, const char*, const char* function, char* message, void* user) {
  static_cast<Integration*>(user)->last_message = std::string(function) + ": " + message;
}

// y and y' from the start values; id marks the differential unknowns.
void SessionRun::create_vectors() {
  if (SUNContext_Create(nullptr, &s.context) != 0) throw std::runtime_error("SUNContext_Create failed");
  s.y = N_VNew_Serial(n, s.context);
  s.yp = N_VNew_Serial(n, s.context);
  s.id = N_VNew_Serial(n, s.context);
  y = N_VGetArrayPointer(s.y);
  yp = N_VGetArrayPointer(s.yp);
  for (int k = 0; k < n; ++k) {
    y[k] = m.dae.variables[m.variable_of_slot[k]].start;
    yp[k] = 0.0;
    NV_Ith_S(s.id, k) = m.differential[k];
  }
}

// IDA with the run's tolerances and limits, the dense or KLU linear solver with
// the symbolic Jacobian, root functions, and IDAS for sensitivities.
void SessionRun::create_integrator() {
  s.ida = IDACreate(s.context);
  if (!s.ida) throw std::runtime_error("IDACreate failed");
  IDASetErrHandlerFn(s.ida, &Integration::error_fn, &integ);
  check(IDAInit(s.ida, &Integration::residual_fn, options.t_start, s.y, s.yp), "IDAInit");
  check(IDASetUserData(s.ida, &integ), "IDASetUserData");
  s.atol = N_VNew_Serial(n, s.context);
  for (int k = 0; k < n; ++k) NV_Ith_S(s.atol, k) = m.absolute_tolerance(k, options.atol);
  check(IDASVtolerances(s.ida, options.rtol, s.atol), "IDASVtolerances");
  check(IDASetId(s.ida, s.id), "IDASetId");
  check(IDASetMaxNumSteps(s.ida, options.max_steps), "IDASetMaxNumSteps");
  check(IDASetSuppressAlg(s.ida, SUNTRUE), "IDASetSuppressAlg");
  // A step must not need a delayed value from beyond the recorded past.
  double max_step = options.max_step;
  if (double shortest = delays.shortest_recorded_delay(); shortest > 0 && (max_step <= 0 || shortest < max_step))
    max_step = shortest;
  if (max_step > 0) check(IDASetMaxStep(s.ida, max_step), "IDASetMaxStep");
  if (options.initial_step > 0) check(IDASetInitStep(s.ida, options.initial_step), "IDASetInitStep");
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
  if (!m.state_event_modes.empty())
    check(IDARootInit(s.ida, static_cast<int>(m.state_event_modes.size()), &Integration::root_fn), "IDARootInit");
  if (!sensitivity_parameters.empty()) {
    sensitivities = std::make_unique<ForwardSensitivities>(m, sensitivity_parameters, s.context, where);
    for (Tape* tape : sensitivities->tapes()) {
      std::copy(parameters.begin(), parameters.end(), tape->inputs() + m.parameter_register());
      tapes.push_back(tape);
    }
    sensitivities->attach(s.ida, &Integration::sensitivity_fn, parameters);
    integ.sensitivities = sensitivities.get();
    s.ypp = N_VNew_Serial(n, s.context);
  }
}

}  // namespace acausal
