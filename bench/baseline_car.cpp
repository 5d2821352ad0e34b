#include "bench/baseline_car.hpp"

#include <idas/idas.h>
#include <nvector/nvector_serial.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace acausal::bench {

namespace {

// The library defaults of components/vehicle/{vehicle_body,wheel,differential}.hpp.
// Terms that are exactly zero for them are left out:
//  - the road grade 0: F_grade = m·g·sin(0) = 0 and cos(0) = 1;
//  - the ice patch with patch_start = patch_end = 0: its two tanh terms are the
//    same number, so μ_road = μ;
//  - the wheels' rolling resistance Crr = 0: τ_roll = 0;
//  - efficiency 1: η = 0.5·(1 + 1) + 0.5·(1 - 1)·tanh(...) = 1, and k_lsd = 0:
//    each rear wheel gets ratio·τ/2 (open differential; the input angle is not needed).
struct Car {
  // VehicleBody
  double m = 1500.0, L = 2.7, a = 1.2, b = 1.5, h_cg = 0.55, Cd = 0.3, A = 2.2, rho = 1.225, Crr = 0.015, g = 9.81,
         v_eps_body = 0.1;
  // Wheel (all four)
  double radius = 0.3, J = 1.0, mu = 0.8, slip_stiffness = 100.0, v_eps_wheel = 0.1;
  // Differential
  double ratio = 3.5;
  double torque = 300.0;

  // y = [s, v, ω_fl, ω_fr, ω_rl, ω_rr]; all differential.
  static constexpr int kSize = 6, kS = 0, kV = 1, kOmega = 2;

  // Everything the residual and the Jacobian share at (v, v', ω).
  struct Wheel {
    double F, dF_dS, dF_dN, dS_dw, dS_dv;
  };
  struct State {
    double th, dth, dFd_dv, F_drag, N_front, N_rear;
    Wheel wheel[4];
  };

  State evaluate(const double* y, const double* yp) const {
    State st;
    const double v = y[kV], a_x = yp[kV];
    st.th = std::tanh(v / v_eps_body);
    st.dth = (1.0 - st.th * st.th) / v_eps_body;
    const double kd = 0.5 * rho * Cd * A;
    st.F_drag = kd * v * v * st.th;
    st.dFd_dv = 2.0 * kd * v * st.th + kd * v * v * st.dth;
    const double delta_N = m * a_x * h_cg / L;
    st.N_front = m * g * b / L - delta_N - st.F_drag * h_cg / L;
    st.N_rear = m * g * a / L + delta_N + st.F_drag * h_cg / L;
    const double mu_eps = mu + 1e-12;  // the tanh law's guard against μ = 0
    for (int i = 0; i < 4; ++i) {
      // Two wheels share an axle's load equally (same c_z, one contact deflection).
      const double N = 0.5 * (i < 2 ? st.N_front : st.N_rear);
      // The practical slip κ = (ω·r - v)/|v|, |v| regularized below v_eps.
      const double rim = y[kOmega + i] * radius;
      const bool fast = std::fabs(v) >= v_eps_wheel;
      const double q = fast ? std::fabs(v) : 0.5 * (v * v / v_eps_wheel + v_eps_wheel);
      const double dq_dv = fast ? std::copysign(1.0, v) : v / v_eps_wheel;
      const double S = (rim - v) / q;
      const double T = std::tanh(slip_stiffness * S / mu_eps);
      Wheel& w = st.wheel[i];
      w.F = mu * N * T;
      w.dF_dS = mu * N * (1.0 - T * T) * slip_stiffness / mu_eps;
      w.dF_dN = mu * T;
      w.dS_dw = radius / q;
      w.dS_dv = -(1.0 + S * dq_dv) / q;
    }
    return st;
  }

  double drive(int i) const { return i < 2 ? 0.0 : 0.5 * ratio * torque; }

  static int residual(double, N_Vector yv, N_Vector ypv, N_Vector rv, void* user) {
    const Car& c = *static_cast<Car*>(user);
    const double* y = N_VGetArrayPointer(yv);
    const double* yp = N_VGetArrayPointer(ypv);
    double* r = N_VGetArrayPointer(rv);
    const State st = c.evaluate(y, yp);
    double F_total = 0;
    for (const Wheel& w : st.wheel) F_total += w.F;
    r[kS] = yp[kS] - y[kV];
    r[kV] = c.m * yp[kV] - (F_total - st.F_drag - c.Crr * st.N_front * st.th - c.Crr * st.N_rear * st.th);
    for (int i = 0; i < 4; ++i) r[kOmega + i] = c.J * yp[kOmega + i] - c.drive(i) + c.radius * st.wheel[i].F;
    return 0;
  }

  // dF/dy + cj·dF/dy'. The axle loads depend on v (drag) and on v' (load transfer).
  static int jacobian(double, double cj, N_Vector yv, N_Vector ypv, N_Vector, SUNMatrix Jm, void* user, N_Vector,
                      N_Vector, N_Vector) {
    const Car& c = *static_cast<Car*>(user);
    const double* y = N_VGetArrayPointer(yv);
    const double* yp = N_VGetArrayPointer(ypv);
    const State st = c.evaluate(y, yp);
    const double dNf_dv = -st.dFd_dv * c.h_cg / c.L, dNf_dvp = -c.m * c.h_cg / c.L;
    const double dNr_dv = -dNf_dv, dNr_dvp = -dNf_dvp;
    SUNMatZero(Jm);
    SM_ELEMENT_D(Jm, kS, kS) = cj;
    SM_ELEMENT_D(Jm, kS, kV) = -1.0;
    // The rolling resistance Crr·(N_front + N_rear)·tanh(v/v_eps): the load transfer cancels in the sum.
    double body_v = st.dFd_dv + c.Crr * (st.N_front + st.N_rear) * st.dth;
    double body_vp = c.m;
    for (int i = 0; i < 4; ++i) {
      const Wheel& w = st.wheel[i];
      const double dN_dv = 0.5 * (i < 2 ? dNf_dv : dNr_dv), dN_dvp = 0.5 * (i < 2 ? dNf_dvp : dNr_dvp);
      const double dF_dv = w.dF_dS * w.dS_dv + w.dF_dN * dN_dv, dF_dvp = w.dF_dN * dN_dvp;
      body_v -= dF_dv;
      body_vp -= dF_dvp;
      SM_ELEMENT_D(Jm, kV, kOmega + i) = -w.dF_dS * w.dS_dw;
      SM_ELEMENT_D(Jm, kOmega + i, kOmega + i) = c.radius * w.dF_dS * w.dS_dw + cj * c.J;
      SM_ELEMENT_D(Jm, kOmega + i, kV) = c.radius * (dF_dv + cj * dF_dvp);
    }
    SM_ELEMENT_D(Jm, kV, kV) = body_v + cj * body_vp;
    return 0;
  }
};

// Keeps IDA's last message for a failure report instead of printing it (as acausal does).
void keep_message(int, const char*, const char* function, char* message, void* user) {
  *static_cast<std::string*>(user) = std::string(function) + ": " + message;
}

// Owns the SUNDIALS objects of one run.
struct Sundials {
  SUNContext ctx = nullptr;
  N_Vector y = nullptr, yp = nullptr, id = nullptr;
  SUNMatrix A = nullptr;
  SUNLinearSolver LS = nullptr;
  void* ida = nullptr;
  std::string message;
  ~Sundials() {
    if (ida) IDAFree(&ida);
    if (LS) SUNLinSolFree(LS);
    if (A) SUNMatDestroy(A);
    if (id) N_VDestroy(id);
    if (yp) N_VDestroy(yp);
    if (y) N_VDestroy(y);
    if (ctx) SUNContext_Free(&ctx);
  }
  void check(int flag, const char* what) const {
    if (flag >= 0) return;
    double t = 0;
    if (ida) IDAGetCurrentTime(ida, &t);
    char* name = IDAGetReturnFlagName(flag);  // malloc'ed
    std::string text = std::string("baseline_car: ") + what + " failed: " + name + " at t = " + std::to_string(t) +
                       (message.empty() ? "" : " (" + message + ")");
    std::free(name);
    throw std::runtime_error(text);
  }
};

}  // namespace

CarBaselineResult run_baseline_car(const CarBaselineOptions& o) {
  Car car;
  car.torque = o.torque;
  const int n = Car::kSize;
  CarBaselineResult result;
  result.unknowns = n;
  auto t0 = std::chrono::steady_clock::now();
  Sundials s;
  if (SUNContext_Create(nullptr, &s.ctx) != 0) throw std::runtime_error("baseline_car: SUNContext_Create failed");
  s.y = N_VNew_Serial(n, s.ctx);
  s.yp = N_VNew_Serial(n, s.ctx);
  s.id = N_VNew_Serial(n, s.ctx);
  N_VConst(0.0, s.y);  // at rest
  N_VConst(0.0, s.yp);  // IDACalcIC finds y' (the rear wheels' ratio·τ/(2J)), as acausal does
  N_VConst(1.0, s.id);
  s.A = SUNDenseMatrix(n, n, s.ctx);
  s.LS = SUNLinSol_Dense(s.y, s.A, s.ctx);
  // The options of Simulator::simulate (solver/runtime/simulator.cpp) for a model without events or delays.
  s.ida = IDACreate(s.ctx);
  if (!s.ida) throw std::runtime_error("baseline_car: IDACreate failed");
  IDASetErrHandlerFn(s.ida, &keep_message, &s.message);
  s.check(IDAInit(s.ida, &Car::residual, 0.0, s.y, s.yp), "IDAInit");
  s.check(IDASetUserData(s.ida, &car), "IDASetUserData");
  s.check(IDASStolerances(s.ida, o.rtol, o.atol), "IDASStolerances");
  s.check(IDASetId(s.ida, s.id), "IDASetId");
  s.check(IDASetMaxNumSteps(s.ida, 100000), "IDASetMaxNumSteps");
  s.check(IDASetSuppressAlg(s.ida, SUNTRUE), "IDASetSuppressAlg");
  s.check(IDASetLinearSolver(s.ida, s.LS, s.A), "IDASetLinearSolver");
  s.check(IDASetJacFn(s.ida, &Car::jacobian), "IDASetJacFn");
  const double t_first = std::min(o.output_interval, o.t_end);
  s.check(IDASetStopTime(s.ida, t_first), "IDASetStopTime");
  s.check(IDACalcIC(s.ida, IDA_YA_YDP_INIT, t_first), "IDACalcIC");
  s.check(IDAGetConsistentIC(s.ida, s.y, s.yp), "IDAGetConsistentIC");

  const long outputs = static_cast<long>(std::ceil(o.t_end / o.output_interval - 1e-9));
  auto record = [&](double t) {
    const double* y = N_VGetArrayPointer(s.y);
    result.time.push_back(t);
    result.s.push_back(y[Car::kS]);
    result.v.push_back(y[Car::kV]);
    for (int i = 0; i < 4; ++i) result.omega[i].push_back(y[Car::kOmega + i]);
  };
  result.time.reserve(outputs + 1), result.s.reserve(outputs + 1), result.v.reserve(outputs + 1);
  for (auto& w : result.omega) w.reserve(outputs + 1);
  record(0.0);
  s.check(IDASetStopTime(s.ida, o.t_end), "IDASetStopTime");
  for (long k = 1; k <= outputs; ++k) {
    double tout = std::min(k * o.output_interval, o.t_end), tret = 0;
    s.check(IDASolve(s.ida, tout, &tret, s.y, s.yp, IDA_NORMAL), "IDASolve");
    record(tout);
  }
  IDAGetNumSteps(s.ida, &result.steps);
  IDAGetNumResEvals(s.ida, &result.residual_evals);
  IDAGetNumJacEvals(s.ida, &result.jacobian_evals);
  result.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return result;
}

}  // namespace acausal::bench
