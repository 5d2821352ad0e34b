// Forward parameter sensitivities (IDAS). For each parameter p_j the
// sensitivity s_j = dy/dp_j of the integrator's unknowns obeys the residual's
// derivative along p_j,
//     F_y·s_j + F_y'·s_j' + F_p_j = 0,
// a linear DAE integrated by IDAS beside the model with the same step sizes and
// matrix. F_y and F_y' come from the model's Jacobian tape; F_p is
// differentiated symbolically. At an event whose time depends on p (a root,
// a time event at a parameter's time) the states' sensitivities jump by
// (y'⁻ - y'⁺)·dτ/dp; after every event and at the start the algebraic part
// is made consistent by one linear solve, as the index-1 DAE determines it.
#pragma once

#include <idas/idas.h>
#include <nvector/nvector_serial.h>

#include <string>
#include <vector>

#include "solver/lower/tape.hpp"

namespace acausal {

struct CompiledModel;

class ForwardSensitivities {
 public:
  /// parameters: indices into the model's parameters. Throws ModelError when the
  /// model has something whose sensitivity this version does not track (a
  /// reinit(), a Real discrete that follows the solution, a delay()), naming it.
  ForwardSensitivities(const CompiledModel& m, std::vector<int> parameters, SUNContext context,
                       const std::string& where);
  ~ForwardSensitivities();
  ForwardSensitivities(const ForwardSensitivities&) = delete;
  ForwardSensitivities& operator=(const ForwardSensitivities&) = delete;

  int count() const { return static_cast<int>(parameters_.size()); }
  /// The tapes that read the model's parameters and frozen values (the session keeps them current).
  std::vector<Tape*> tapes() { return {&jacobian_, &partials_, &event_partials_}; }

  /// Turns IDAS's forward sensitivities on (staggered corrector, error control
  /// on the sensitivities scaled by |p|).
  /// `residual_fn` forwards to residual() (IDAS hands it the run's user data).
  void attach(void* ida, IDASensResFn residual_fn, const std::vector<double>& parameter_values);
  /// Before IDACalcIC: IDAS would compute its own initial sensitivities.
  void suspend(void* ida);
  /// Hands the current sensitivities to IDAS (after IDAReInit); turns them on again.
  void reinit(void* ida);
  /// The sensitivities the integrator reached at t (after a step).
  void fetch(void* ida, double t);

  /// With the states' sensitivities as they stand, the algebraic unknowns' and
  /// the states' derivatives' sensitivities that satisfy the sensitivity residual at (t, y, y').
  void make_consistent(double t, const double* y, const double* yp);
  /// Sets the states' sensitivities (the rest is then made consistent): the
  /// initialization's own when it solved initial equations.
  void set_states(const std::vector<std::vector<double>>& dy_dp);

  /// dτ/dp of a root of state-event indicator `indicator` at (t, y, y', y'').
  std::vector<double> root_time_partials(int indicator, double t, const double* y, const double* yp,
                                         const double* ypp);
  /// d(event time)/dp of each parameter for time-event mode k (of the model's modes), symbolic.
  const std::vector<Expr>& event_time_partials(int k) const { return event_time_partials_[k]; }
  /// The states' sensitivities across an event at a time τ(p): s⁺ = s⁻ + (y'⁻ - y'⁺)·dτ/dp.
  void jump(const double* yp_before, const double* yp_after, const std::vector<double>& dtau_dp);

  /// s_j and s_j' of every slot, j-th parameter.
  const double* values(int j) const { return N_VGetArrayPointer(yS_[j]); }
  const double* derivatives(int j) const { return N_VGetArrayPointer(ypS_[j]); }

  /// IDAS's sensitivity residual callback (reached through the run's user data).
  int residual(double t, N_Vector y, N_Vector yp, N_Vector* yS, N_Vector* ypS, N_Vector* rrS);

 private:
  void evaluate_jacobian_parts(double t, const double* y, const double* yp);

  const CompiledModel& m_;
  std::vector<int> parameters_;
  std::vector<double> scale_;
  Tape jacobian_;
  Tape partials_;  // the nonzero dF_i/dp_j
  std::vector<std::pair<int, int>> partial_entries_;  // (row, parameter) per output of partials_
  Tape event_partials_;  // per indicator: its partials by the slots' y and y', by time, by each parameter
  struct IndicatorTerms {
    int first_output = 0;
    std::vector<std::pair<int, bool>> leaves;  // (slot, is a derivative) per gradient output
  };
  std::vector<IndicatorTerms> indicator_terms_;
  std::vector<std::vector<Expr>> event_time_partials_;  // per mode; empty unless a time event
  std::vector<double> d_dy_, d_dyp_;  // F_y and F_y' at the point last evaluated
  std::vector<double> point_;         // (t, y, y') of that point
  N_Vector* yS_ = nullptr;
  N_Vector* ypS_ = nullptr;
};

}  // namespace acausal
