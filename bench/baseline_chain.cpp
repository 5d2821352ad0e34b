#include "bench/baseline_chain.hpp"

#include <idas/idas.h>
#include <nvector/nvector_serial.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace acausal::bench {

namespace {

// y = [s_1, v_1, ..., s_N, v_N]; link i joins body i-1 (the wall for i = 1) to mass i.
struct Chain {
  BaselineOptions o;
  int n;

  static int residual(double, N_Vector yv, N_Vector ypv, N_Vector rv, void* user) {
    const Chain& c = *static_cast<Chain*>(user);
    const double* y = N_VGetArrayPointer(yv);
    const double* yp = N_VGetArrayPointer(ypv);
    double* r = N_VGetArrayPointer(rv);
    const int n = c.n;
    auto link = [&](int i) {  // force of link i on mass i
      double s_prev = i > 0 ? y[2 * (i - 1)] : 0.0, v_prev = i > 0 ? y[2 * (i - 1) + 1] : 0.0;
      return c.o.c * (s_prev - y[2 * i]) + c.o.d * (v_prev - y[2 * i + 1]);
    };
    double f_here = link(0);
    for (int i = 0; i < n; ++i) {
      double f_next = i + 1 < n ? link(i + 1) : -c.o.F;
      r[2 * i] = yp[2 * i] - y[2 * i + 1];
      r[2 * i + 1] = c.o.m * yp[2 * i + 1] - (f_here - f_next);
      f_here = f_next;
    }
    return 0;
  }

  // dF/dy + cj dF/dy'. Row 2i: ds_i' - v_i. Row 2i+1: m v_i' - (f_i - f_{i+1}).
  template <class Set>
  void entries(double cj, Set&& set) const {
    const double cc = o.c, dd = o.d;
    for (int i = 0; i < n; ++i) {
      int s = 2 * i, v = 2 * i + 1;
      // column s_i: row 2i (cj), row 2i+1 (2c or c for the last), row 2(i+1)+1 (-c)
      // column v_i: row 2i (-1), row 2i+1 (m cj + 2d or d), row 2(i+1)+1 (-d)
      // columns of s_{i-1}, v_{i-1} appear in row 2i+1 with -c, -d.
      bool last = i == n - 1;
      if (i > 0) {
        set(v, s - 2, -cc);
        set(v, v - 2, -dd);
      }
      set(s, s, cj);
      set(s, v, -1.0);
      set(v, s, last ? cc : 2 * cc);
      set(v, v, o.m * cj + (last ? dd : 2 * dd));
      if (!last) {
        set(v, s + 2, -cc);
        set(v, v + 2, -dd);
      }
    }
  }

  static int jacobian(double, double cj, N_Vector, N_Vector, N_Vector, SUNMatrix J, void* user, N_Vector, N_Vector,
                      N_Vector) {
    const Chain& c = *static_cast<Chain*>(user);
    if (SUNMatGetID(J) == SUNMATRIX_DENSE) {
      SUNMatZero(J);
      c.entries(cj, [&](int row, int col, double value) { SM_ELEMENT_D(J, row, col) = value; });
      return 0;
    }
    // CSC, filled column by column: count per column, then place.
    sunindextype* colptr = SUNSparseMatrix_IndexPointers(J);
    sunindextype* rows = SUNSparseMatrix_IndexValues(J);
    double* data = SUNSparseMatrix_Data(J);
    const int size = 2 * c.n;
    for (int k = 0; k <= size; ++k) colptr[k] = 0;
    c.entries(cj, [&](int, int col, double) { ++colptr[col + 1]; });
    for (int k = 0; k < size; ++k) colptr[k + 1] += colptr[k];
    // Within a column the rows come out in increasing order from entries(): place by a running cursor.
    std::vector<sunindextype>& cursor = c.cursor;
    cursor.assign(colptr, colptr + size);
    c.entries(cj, [&](int row, int col, double value) {
      rows[cursor[col]] = row;
      data[cursor[col]++] = value;
    });
    return 0;
  }

  mutable std::vector<sunindextype> cursor;
};

void check(int flag, const char* what, void* ida) {
  if (flag < 0) {
    double t = 0;
    if (ida) IDAGetCurrentTime(ida, &t);
    char* name = IDAGetReturnFlagName(flag);  // malloc'ed
    std::string message = std::string("baseline: ") + what + " failed: " + name + " at t = " + std::to_string(t);
    std::free(name);
    throw std::runtime_error(message);
  }
}

}  // namespace

BaselineResult run_baseline_chain(const BaselineOptions& o) {
  Chain chain{o, o.n_cells, {}};
  chain.cursor.reserve(2 * o.n_cells);
  const int size = 2 * o.n_cells;
  BaselineResult result;
  SUNContext ctx = nullptr;
  if (SUNContext_Create(nullptr, &ctx) != 0) throw std::runtime_error("baseline: SUNContext_Create failed");
  N_Vector y = N_VNew_Serial(size, ctx), yp = N_VNew_Serial(size, ctx), id = N_VNew_Serial(size, ctx);
  N_VConst(0.0, y);
  N_VConst(0.0, yp);
  N_VConst(1.0, id);
  NV_Ith_S(yp, size - 1) = o.F / o.m;  // consistent: only the last mass feels the force at rest
  SUNMatrix A = o.sparse ? SUNSparseMatrix(size, size, 8L * o.n_cells, CSC_MAT, ctx) : SUNDenseMatrix(size, size, ctx);
  SUNLinearSolver LS = o.sparse ? SUNLinSol_KLU(y, A, ctx) : SUNLinSol_Dense(y, A, ctx);
  void* ida = nullptr;
  try {
    auto t0 = std::chrono::steady_clock::now();
    ida = IDACreate(ctx);
    check(IDAInit(ida, &Chain::residual, 0.0, y, yp), "IDAInit", ida);
    check(IDASetUserData(ida, &chain), "IDASetUserData", ida);
    check(IDASStolerances(ida, o.rtol, o.atol), "IDASStolerances", ida);
    check(IDASetId(ida, id), "IDASetId", ida);
    check(IDASetMaxNumSteps(ida, 1000000), "IDASetMaxNumSteps", ida);
    check(IDASetStopTime(ida, o.t_end), "IDASetStopTime", ida);
    check(IDASetLinearSolver(ida, LS, A), "IDASetLinearSolver", ida);
    check(IDASetJacFn(ida, &Chain::jacobian), "IDASetJacFn", ida);
    result.time.push_back(0.0);
    result.last_position.push_back(0.0);
    const long outputs = static_cast<long>(std::ceil(o.t_end / o.output_interval - 1e-9));
    for (long k = 1; k <= outputs; ++k) {
      double tout = std::min(k * o.output_interval, o.t_end), tret = 0;
      check(IDASolve(ida, tout, &tret, y, yp, IDA_NORMAL), "IDASolve", ida);
      result.time.push_back(tout);
      result.last_position.push_back(NV_Ith_S(y, size - 2));
    }
    result.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    IDAGetNumSteps(ida, &result.steps);
    IDAGetNumResEvals(ida, &result.residual_evals);
    IDAGetNumJacEvals(ida, &result.jacobian_evals);
  } catch (...) {
    IDAFree(&ida);
    SUNLinSolFree(LS);
    SUNMatDestroy(A);
    N_VDestroy(y), N_VDestroy(yp), N_VDestroy(id);
    SUNContext_Free(&ctx);
    throw;
  }
  IDAFree(&ida);
  SUNLinSolFree(LS);
  SUNMatDestroy(A);
  N_VDestroy(y), N_VDestroy(yp), N_VDestroy(id);
  SUNContext_Free(&ctx);
  return result;
}

}  // namespace acausal::bench
