// The Model Exchange master (model_exchange_stepper.hpp) and the checker's
// Model Exchange run built on it.
#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "fmi/check/model_exchange_stepper.hpp"
#include "fmi/check/run_support.hpp"
#include "fmi/check/runner.hpp"
#include "fmi/check/unpacked_fmu.hpp"

namespace acausal::fmi::check {

// The functions only Model Exchange calls.
struct ModelExchangeFunctions {
  explicit ModelExchangeFunctions(const UnpackedFmu& fmu)
      : enter_event_mode(required_function<fmi2EnterEventModeTYPE>(fmu, "fmi2EnterEventMode")),
        new_discrete_states(required_function<fmi2NewDiscreteStatesTYPE>(fmu, "fmi2NewDiscreteStates")),
        enter_continuous_time_mode(
            required_function<fmi2EnterContinuousTimeModeTYPE>(fmu, "fmi2EnterContinuousTimeMode")),
        completed_integrator_step(
            required_function<fmi2CompletedIntegratorStepTYPE>(fmu, "fmi2CompletedIntegratorStep")),
        set_time(required_function<fmi2SetTimeTYPE>(fmu, "fmi2SetTime")),
        set_continuous_states(required_function<fmi2SetContinuousStatesTYPE>(fmu, "fmi2SetContinuousStates")),
        get_derivatives(required_function<fmi2GetDerivativesTYPE>(fmu, "fmi2GetDerivatives")),
        get_event_indicators(required_function<fmi2GetEventIndicatorsTYPE>(fmu, "fmi2GetEventIndicators")),
        get_continuous_states(required_function<fmi2GetContinuousStatesTYPE>(fmu, "fmi2GetContinuousStates")),
        get_nominals(required_function<fmi2GetNominalsOfContinuousStatesTYPE>(fmu,
                                                                              "fmi2GetNominalsOfContinuousStates")) {}
  fmi2EnterEventModeTYPE* enter_event_mode;
  fmi2NewDiscreteStatesTYPE* new_discrete_states;
  fmi2EnterContinuousTimeModeTYPE* enter_continuous_time_mode;
  fmi2CompletedIntegratorStepTYPE* completed_integrator_step;
  fmi2SetTimeTYPE* set_time;
  fmi2SetContinuousStatesTYPE* set_continuous_states;
  fmi2GetDerivativesTYPE* get_derivatives;
  fmi2GetEventIndicatorsTYPE* get_event_indicators;
  fmi2GetContinuousStatesTYPE* get_continuous_states;
  fmi2GetNominalsOfContinuousStatesTYPE* get_nominals;
};

// Owns the CVODE objects of one run.
struct CvodeMemory {
  SUNContext context = nullptr;
  N_Vector x = nullptr, atol = nullptr;
  SUNMatrix matrix = nullptr;
  SUNLinearSolver solver = nullptr;
  void* memory = nullptr;
  CvodeMemory() = default;
  CvodeMemory(const CvodeMemory&) = delete;
  CvodeMemory& operator=(const CvodeMemory&) = delete;
  ~CvodeMemory() {
    if (memory) CVodeFree(&memory);
    if (solver) SUNLinSolFree(solver);
    if (matrix) SUNMatDestroy(matrix);
    if (atol) N_VDestroy(atol);
    if (x) N_VDestroy(x);
    if (context) SUNContext_Free(&context);
  }
};

class ModelExchangeStepper::Run {
 public:
  Run(const UnpackedFmu& fmu, const std::string& name, bool debug_logging, std::vector<std::string>& log)
      : common_(fmu),
        f_(fmu),
        instance_(common_, fmu.description(), fmu.resource_uri(), name, fmi2ModelExchange, debug_logging, log),
        component_(instance_.component()),
        nx_(fmu.description().derivatives.size()),
        nz_(fmu.description().number_of_event_indicators) {}

  Instance& instance() { return instance_; }

  void initialize(double start, std::optional<double> tolerance, std::optional<double> stop) {
    rtol_ = tolerance.value_or(1e-6);
    require(common_.setup_experiment(component_, tolerance ? fmi2True : fmi2False, tolerance.value_or(0.0), start,
                                     stop ? fmi2True : fmi2False, stop.value_or(0.0)),
            "fmi2SetupExperiment");
    require(common_.enter_initialization_mode(component_), "fmi2EnterInitializationMode");
    require(common_.exit_initialization_mode(component_), "fmi2ExitInitializationMode");
    t_ = start;
    event_iteration();
    require(f_.enter_continuous_time_mode(component_), "fmi2EnterContinuousTimeMode");
    x_.resize(nx_);
    if (nx_ > 0) require(f_.get_continuous_states(component_, x_.data(), nx_), "fmi2GetContinuousStates");
    start_integrator();
  }

  void restart() { start_integrator(); }

  double time() const { return t_; }

  std::size_t steps() const {
    long steps = 0;
    if (cvode_.memory) CVodeGetNumSteps(cvode_.memory, &steps);
    return steps_before_restart_ + static_cast<std::size_t>(steps);
  }

  const std::vector<double>& event_times() const { return event_times_; }

  void terminate() { instance_.terminate(); }

 private:
  // fmi2NewDiscreteStates until the FMU needs no further pass; whether a pass moved a continuous state.
  bool event_iteration() {
    bool states_changed = false;
    fmi2EventInfo info{};
    info.newDiscreteStatesNeeded = fmi2True;
    for (int pass = 0; info.newDiscreteStatesNeeded != fmi2False; ++pass) {
      if (pass == 1000) throw std::runtime_error(fmt::format("the event iteration at t = {} did not end", t_));
      require(f_.new_discrete_states(component_, &info), fmt::format("fmi2NewDiscreteStates at t = {}", t_));
      if (info.terminateSimulation != fmi2False)
        throw std::runtime_error(fmt::format("the FMU asked to terminate at t = {}", t_));
      states_changed = states_changed || info.valuesOfContinuousStatesChanged != fmi2False;
    }
    next_event_ = info.nextEventTimeDefined != fmi2False ? info.nextEventTime : std::numeric_limits<double>::infinity();
    return states_changed;
  }

  void start_integrator() {
    if (nx_ == 0) return;
    if (!cvode_.context) {
      check(SUNContext_Create(nullptr, &cvode_.context), "SUNContext_Create");
      cvode_.x = N_VNew_Serial(static_cast<sunindextype>(nx_), cvode_.context);
      std::copy(x_.begin(), x_.end(), N_VGetArrayPointer(cvode_.x));
      cvode_.memory = CVodeCreate(CV_BDF, cvode_.context);
      if (!cvode_.memory) throw std::runtime_error("CVodeCreate failed");
      check(CVodeInit(cvode_.memory, &Run::rhs, t_, cvode_.x), "CVodeInit");
      // A state near zero is held to rtol times its nominal as an absolute error (as FMI masters do).
      cvode_.atol = N_VNew_Serial(static_cast<sunindextype>(nx_), cvode_.context);
      double* atol = N_VGetArrayPointer(cvode_.atol);
      require(f_.get_nominals(component_, atol, nx_), "fmi2GetNominalsOfContinuousStates");
      for (std::size_t k = 0; k < nx_; ++k) atol[k] = rtol_ * (atol[k] > 0 ? atol[k] : 1.0);
      check(CVodeSVtolerances(cvode_.memory, rtol_, cvode_.atol), "CVodeSVtolerances");
      check(CVodeSetUserData(cvode_.memory, this), "CVodeSetUserData");
      check(CVodeSetMaxNumSteps(cvode_.memory, 1000000), "CVodeSetMaxNumSteps");
      cvode_.matrix = SUNDenseMatrix(static_cast<sunindextype>(nx_), static_cast<sunindextype>(nx_), cvode_.context);
      cvode_.solver = SUNLinSol_Dense(cvode_.x, cvode_.matrix, cvode_.context);
      check(CVodeSetLinearSolver(cvode_.memory, cvode_.solver, cvode_.matrix), "CVodeSetLinearSolver");
      if (nz_ > 0) check(CVodeRootInit(cvode_.memory, static_cast<int>(nz_), &Run::roots), "CVodeRootInit");
      return;
    }
    long steps = 0;
    CVodeGetNumSteps(cvode_.memory, &steps);
    steps_before_restart_ += static_cast<std::size_t>(steps);
    std::copy(x_.begin(), x_.end(), N_VGetArrayPointer(cvode_.x));
    check(CVodeReInit(cvode_.memory, t_, cvode_.x), "CVodeReInit");
  }

  // Integrates to `goal`, handling every event on the way; the FMU is left at (goal, x(goal)).
 public:
  void advance_to(double goal) {
    while (t_ < goal) {
      const bool time_event_first = next_event_ <= goal;
      const double stop = time_event_first ? next_event_ : goal;
      bool state_event = false;
      if (nx_ > 0) {
        check(CVodeSetStopTime(cvode_.memory, stop), "CVodeSetStopTime");
        double reached = t_;
        const int flag = CVode(cvode_.memory, stop, cvode_.x, &reached, CV_NORMAL);
        if (flag < 0) throw std::runtime_error(fmt::format("CVODE failed at t = {} (flag {}){}", reached, flag, failure_));
        state_event = flag == CV_ROOT_RETURN;
        t_ = state_event ? reached : stop;
        std::copy(N_VGetArrayPointer(cvode_.x), N_VGetArrayPointer(cvode_.x) + nx_, x_.begin());
      } else {
        t_ = stop;
      }
      require(f_.set_time(component_, t_), "fmi2SetTime");
      if (nx_ > 0) require(f_.set_continuous_states(component_, x_.data(), nx_), "fmi2SetContinuousStates");
      fmi2Boolean step_event = fmi2False, terminate = fmi2False;
      require(f_.completed_integrator_step(component_, fmi2True, &step_event, &terminate),
              "fmi2CompletedIntegratorStep");
      if (terminate != fmi2False) throw std::runtime_error(fmt::format("the FMU asked to terminate at t = {}", t_));
      const bool time_event = time_event_first && !state_event;
      if (!(time_event || state_event || step_event != fmi2False)) continue;
      event_times_.push_back(t_);
      require(f_.enter_event_mode(component_), fmt::format("fmi2EnterEventMode at t = {}", t_));
      const bool states_changed = event_iteration();
      require(f_.enter_continuous_time_mode(component_), "fmi2EnterContinuousTimeMode");
      if (states_changed && nx_ > 0)
        require(f_.get_continuous_states(component_, x_.data(), nx_), "fmi2GetContinuousStates");
      // The solution's history ends at an event: the integrator starts again at first order.
      start_integrator();
    }
  }

 private:
  static int rhs(double t, N_Vector x, N_Vector dx, void* user) {
    auto* self = static_cast<Run*>(user);
    const std::size_t n = self->nx_;
    if (self->f_.set_time(self->component_, t) > fmi2Warning ||
        self->f_.set_continuous_states(self->component_, N_VGetArrayPointer(x), n) > fmi2Warning ||
        self->f_.get_derivatives(self->component_, N_VGetArrayPointer(dx), n) > fmi2Warning) {
      self->failure_ = fmt::format(": the FMU refused the derivatives at t = {}", t);
      return -1;
    }
    return 0;
  }

  static int roots(double t, N_Vector x, double* g, void* user) {
    auto* self = static_cast<Run*>(user);
    if (self->f_.set_time(self->component_, t) > fmi2Warning ||
        self->f_.set_continuous_states(self->component_, N_VGetArrayPointer(x), self->nx_) > fmi2Warning ||
        self->f_.get_event_indicators(self->component_, g, self->nz_) > fmi2Warning) {
      self->failure_ = fmt::format(": the FMU refused the event indicators at t = {}", t);
      return -1;
    }
    return 0;
  }

  void require(fmi2Status status, std::string_view call) { instance_.require(status, call); }

  static void check(int flag, const char* call) {
    if (flag < 0) throw std::runtime_error(fmt::format("{} failed (flag {})", call, flag));
  }

  const CommonFunctions common_;
  const ModelExchangeFunctions f_;
  Instance instance_;
  const fmi2Component component_;
  const std::size_t nx_, nz_;
  double t_ = 0.0;
  double next_event_ = std::numeric_limits<double>::infinity();
  std::vector<double> x_;
  std::size_t steps_before_restart_ = 0;
  double rtol_ = 1e-6;
  std::vector<double> event_times_;
  std::string failure_;
  CvodeMemory cvode_;
};


ModelExchangeStepper::ModelExchangeStepper(const UnpackedFmu& fmu, const std::string& instance_name,
                                           bool debug_logging, std::vector<std::string>& log)
    : run_(std::make_unique<Run>(fmu, instance_name, debug_logging, log)) {}
ModelExchangeStepper::~ModelExchangeStepper() = default;
Instance& ModelExchangeStepper::instance() { return run_->instance(); }
void ModelExchangeStepper::initialize(double start_time, std::optional<double> tolerance,
                                      std::optional<double> stop_time) {
  run_->initialize(start_time, tolerance, stop_time);
}
void ModelExchangeStepper::restart() { run_->restart(); }
void ModelExchangeStepper::advance_to(double goal) { run_->advance_to(goal); }
double ModelExchangeStepper::time() const { return run_->time(); }
std::size_t ModelExchangeStepper::steps() const { return run_->steps(); }
const std::vector<double>& ModelExchangeStepper::event_times() const { return run_->event_times(); }
void ModelExchangeStepper::terminate() { run_->terminate(); }

RunResult Fmu::run_model_exchange(const RunOptions& options) const {
  RunResult result;
  const ModelDescription& description = fmu_->description();
  if (!description.model_exchange) {
    result.findings.push_back({"model-exchange", "the FMU does not declare Model Exchange"});
    return result;
  }
  try {
    const Recording recording = recording_for(description, options.recorded_names);
    const std::vector<double> points = communication_points(options);
    result.table.names = recording.names;
    ModelExchangeStepper stepper(*fmu_, "instance", options.debug_logging, result.log);
    stepper.initialize(options.start_time, options.tolerance, options.stop_time);
    record(result, points.front(), stepper.instance().sample(recording));
    for (std::size_t k = 1; k < points.size(); ++k) {
      stepper.advance_to(points[k]);
      record(result, points[k], stepper.instance().sample(recording));
    }
    result.steps = stepper.steps();
    result.event_times = stepper.event_times();
    stepper.terminate();
    result.completed = true;
  } catch (const std::exception& error) {
    result.findings.push_back({"model-exchange", error.what()});
  }
  return result;
}

}  // namespace acausal::fmi::check
