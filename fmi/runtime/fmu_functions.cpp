// The C boundary of the FMU's shared object: every FMI 2.0 function, each
// handing its call to an FmuInstance. No exception crosses into the master: a
// C++ exception becomes fmi2Error, a logged message and the error state.
#include <exception>
#include <string_view>

#include "fmi/runtime/fmu_instance.hpp"
#include "fmi/fmi2_api.h"

namespace {

using acausal::fmi::Experiment;
using acausal::fmi::FmuInstance;

// A NULL component has no logger to report through: the status alone says it.
template <typename Call>
fmi2Status guarded(fmi2Component c, const char* function, Call&& call) {
  if (!c) return fmi2Error;
  FmuInstance& fmu = *static_cast<FmuInstance*>(c);
  try {
    return call(fmu);
  } catch (const std::exception& e) {
    return fmu.fail(function, e.what());
  } catch (...) {
    return fmu.fail(function, "an exception that is not a std::exception");
  }
}

fmi2Status refused(fmi2Component c, const char* function, std::string_view reason) {
  if (!c) return fmi2Error;
  return static_cast<FmuInstance*>(c)->refuse(function, reason);
}

constexpr std::string_view kNoSerialization =
    "this FMU cannot serialize its states (canSerializeFMUstate is false); keep them with fmi2GetFMUstate";
constexpr std::string_view kNoDerivatives =
    "this FMU provides no derivatives (providesDirectionalDerivative is false, maxOutputDerivativeOrder is 0)";
constexpr std::string_view kNoInterpolation =
    "this FMU does not interpolate inputs (canInterpolateInputs is false): set the inputs at each communication point";
constexpr std::string_view kNeverPending =
    "fmi2DoStep never returns fmi2Pending here: it steps synchronously (canRunAsynchronuously is false)";

}  // namespace

extern "C" {

const char* fmi2GetTypesPlatform(void) { return fmi2TypesPlatform; }

const char* fmi2GetVersion(void) { return fmi2Version; }

fmi2Status fmi2SetDebugLogging(fmi2Component c, fmi2Boolean loggingOn, size_t nCategories,
                               const fmi2String categories[]) {
  return guarded(c, "fmi2SetDebugLogging", [&](FmuInstance& fmu) {
    return fmu.set_debug_logging(loggingOn != fmi2False, nCategories, categories);
  });
}

fmi2Component fmi2Instantiate(fmi2String instanceName, fmi2Type fmuType, fmi2String fmuGUID,
                              fmi2String fmuResourceLocation, const fmi2CallbackFunctions* functions,
                              fmi2Boolean /*visible: the FMU has no window to show*/, fmi2Boolean loggingOn) {
  return FmuInstance::instantiate(instanceName, fmuType, fmuGUID, fmuResourceLocation, functions,
                                  loggingOn != fmi2False);
}

void fmi2FreeInstance(fmi2Component c) { delete static_cast<FmuInstance*>(c); }

fmi2Status fmi2SetupExperiment(fmi2Component c, fmi2Boolean toleranceDefined, fmi2Real tolerance, fmi2Real startTime,
                               fmi2Boolean stopTimeDefined, fmi2Real stopTime) {
  const Experiment experiment{toleranceDefined != fmi2False, tolerance, startTime, stopTimeDefined != fmi2False,
                              stopTime};
  return guarded(c, "fmi2SetupExperiment", [&](FmuInstance& fmu) { return fmu.setup_experiment(experiment); });
}

fmi2Status fmi2EnterInitializationMode(fmi2Component c) {
  return guarded(c, "fmi2EnterInitializationMode", [](FmuInstance& fmu) { return fmu.enter_initialization_mode(); });
}

fmi2Status fmi2ExitInitializationMode(fmi2Component c) {
  return guarded(c, "fmi2ExitInitializationMode", [](FmuInstance& fmu) { return fmu.exit_initialization_mode(); });
}

fmi2Status fmi2Terminate(fmi2Component c) {
  return guarded(c, "fmi2Terminate", [](FmuInstance& fmu) { return fmu.terminate(); });
}

fmi2Status fmi2Reset(fmi2Component c) {
  return guarded(c, "fmi2Reset", [](FmuInstance& fmu) { return fmu.reset(); });
}

fmi2Status fmi2GetReal(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, fmi2Real value[]) {
  return guarded(c, "fmi2GetReal", [&](FmuInstance& fmu) { return fmu.get_real(vr, nvr, value); });
}

fmi2Status fmi2GetInteger(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, fmi2Integer value[]) {
  return guarded(c, "fmi2GetInteger", [&](FmuInstance& fmu) { return fmu.get_integer(vr, nvr, value); });
}

fmi2Status fmi2GetBoolean(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, fmi2Boolean value[]) {
  return guarded(c, "fmi2GetBoolean", [&](FmuInstance& fmu) { return fmu.get_boolean(vr, nvr, value); });
}

fmi2Status fmi2GetString(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, fmi2String[]) {
  return guarded(c, "fmi2GetString", [&](FmuInstance& fmu) { return fmu.access_non_real("fmi2GetString", vr, nvr); });
}

fmi2Status fmi2SetReal(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, const fmi2Real value[]) {
  return guarded(c, "fmi2SetReal", [&](FmuInstance& fmu) { return fmu.set_real(vr, nvr, value); });
}

fmi2Status fmi2SetInteger(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, const fmi2Integer[]) {
  return guarded(c, "fmi2SetInteger", [&](FmuInstance& fmu) { return fmu.access_non_real("fmi2SetInteger", vr, nvr); });
}

fmi2Status fmi2SetBoolean(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, const fmi2Boolean[]) {
  return guarded(c, "fmi2SetBoolean", [&](FmuInstance& fmu) { return fmu.access_non_real("fmi2SetBoolean", vr, nvr); });
}

fmi2Status fmi2SetString(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, const fmi2String[]) {
  return guarded(c, "fmi2SetString", [&](FmuInstance& fmu) { return fmu.access_non_real("fmi2SetString", vr, nvr); });
}

fmi2Status fmi2GetFMUstate(fmi2Component c, fmi2FMUstate* FMUstate) {
  return guarded(c, "fmi2GetFMUstate", [&](FmuInstance& fmu) { return fmu.get_fmu_state(FMUstate); });
}

fmi2Status fmi2SetFMUstate(fmi2Component c, fmi2FMUstate FMUstate) {
  return guarded(c, "fmi2SetFMUstate", [&](FmuInstance& fmu) { return fmu.set_fmu_state(FMUstate); });
}

fmi2Status fmi2FreeFMUstate(fmi2Component c, fmi2FMUstate* FMUstate) {
  return guarded(c, "fmi2FreeFMUstate", [&](FmuInstance& fmu) { return fmu.free_fmu_state(FMUstate); });
}

fmi2Status fmi2SerializedFMUstateSize(fmi2Component c, fmi2FMUstate, size_t*) {
  return refused(c, "fmi2SerializedFMUstateSize", kNoSerialization);
}

fmi2Status fmi2SerializeFMUstate(fmi2Component c, fmi2FMUstate, fmi2Byte[], size_t) {
  return refused(c, "fmi2SerializeFMUstate", kNoSerialization);
}

fmi2Status fmi2DeSerializeFMUstate(fmi2Component c, const fmi2Byte[], size_t, fmi2FMUstate*) {
  return refused(c, "fmi2DeSerializeFMUstate", kNoSerialization);
}

fmi2Status fmi2GetDirectionalDerivative(fmi2Component c, const fmi2ValueReference[], size_t,
                                        const fmi2ValueReference[], size_t, const fmi2Real[], fmi2Real[]) {
  return refused(c, "fmi2GetDirectionalDerivative", kNoDerivatives);
}

fmi2Status fmi2EnterEventMode(fmi2Component c) {
  return guarded(c, "fmi2EnterEventMode", [](FmuInstance& fmu) { return fmu.enter_event_mode(); });
}

fmi2Status fmi2NewDiscreteStates(fmi2Component c, fmi2EventInfo* eventInfo) {
  return guarded(c, "fmi2NewDiscreteStates", [&](FmuInstance& fmu) { return fmu.new_discrete_states(eventInfo); });
}

fmi2Status fmi2EnterContinuousTimeMode(fmi2Component c) {
  return guarded(c, "fmi2EnterContinuousTimeMode", [](FmuInstance& fmu) { return fmu.enter_continuous_time_mode(); });
}

fmi2Status fmi2CompletedIntegratorStep(fmi2Component c, fmi2Boolean /*noSetFMUStatePriorToCurrentPoint*/,
                                       fmi2Boolean* enterEventMode, fmi2Boolean* terminateSimulation) {
  return guarded(c, "fmi2CompletedIntegratorStep", [&](FmuInstance& fmu) {
    return fmu.completed_integrator_step(enterEventMode, terminateSimulation);
  });
}

fmi2Status fmi2SetTime(fmi2Component c, fmi2Real time) {
  return guarded(c, "fmi2SetTime", [&](FmuInstance& fmu) { return fmu.set_time(time); });
}

fmi2Status fmi2SetContinuousStates(fmi2Component c, const fmi2Real x[], size_t nx) {
  return guarded(c, "fmi2SetContinuousStates", [&](FmuInstance& fmu) { return fmu.set_continuous_states(x, nx); });
}

fmi2Status fmi2GetDerivatives(fmi2Component c, fmi2Real derivatives[], size_t nx) {
  return guarded(c, "fmi2GetDerivatives", [&](FmuInstance& fmu) { return fmu.get_derivatives(derivatives, nx); });
}

fmi2Status fmi2GetEventIndicators(fmi2Component c, fmi2Real eventIndicators[], size_t ni) {
  return guarded(c, "fmi2GetEventIndicators",
                 [&](FmuInstance& fmu) { return fmu.get_event_indicators(eventIndicators, ni); });
}

fmi2Status fmi2GetContinuousStates(fmi2Component c, fmi2Real x[], size_t nx) {
  return guarded(c, "fmi2GetContinuousStates", [&](FmuInstance& fmu) { return fmu.get_continuous_states(x, nx); });
}

fmi2Status fmi2GetNominalsOfContinuousStates(fmi2Component c, fmi2Real x_nominal[], size_t nx) {
  return guarded(c, "fmi2GetNominalsOfContinuousStates",
                 [&](FmuInstance& fmu) { return fmu.get_nominals_of_continuous_states(x_nominal, nx); });
}

fmi2Status fmi2SetRealInputDerivatives(fmi2Component c, const fmi2ValueReference[], size_t, const fmi2Integer[],
                                       const fmi2Real[]) {
  return refused(c, "fmi2SetRealInputDerivatives", kNoInterpolation);
}

fmi2Status fmi2GetRealOutputDerivatives(fmi2Component c, const fmi2ValueReference[], size_t, const fmi2Integer[],
                                        fmi2Real[]) {
  return refused(c, "fmi2GetRealOutputDerivatives", kNoDerivatives);
}

fmi2Status fmi2DoStep(fmi2Component c, fmi2Real currentCommunicationPoint, fmi2Real communicationStepSize,
                      fmi2Boolean /*noSetFMUStatePriorToCurrentPoint: no state is kept to release*/) {
  return guarded(c, "fmi2DoStep",
                 [&](FmuInstance& fmu) { return fmu.do_step(currentCommunicationPoint, communicationStepSize); });
}

fmi2Status fmi2CancelStep(fmi2Component c) { return refused(c, "fmi2CancelStep", kNeverPending); }

fmi2Status fmi2GetStatus(fmi2Component c, const fmi2StatusKind, fmi2Status*) {
  return refused(c, "fmi2GetStatus", kNeverPending);
}

fmi2Status fmi2GetRealStatus(fmi2Component c, const fmi2StatusKind s, fmi2Real* value) {
  return guarded(c, "fmi2GetRealStatus", [&](FmuInstance& fmu) { return fmu.get_real_status(s, value); });
}

fmi2Status fmi2GetIntegerStatus(fmi2Component c, const fmi2StatusKind, fmi2Integer*) {
  return refused(c, "fmi2GetIntegerStatus", "the standard defines no Integer status");
}

fmi2Status fmi2GetBooleanStatus(fmi2Component c, const fmi2StatusKind s, fmi2Boolean* value) {
  return guarded(c, "fmi2GetBooleanStatus", [&](FmuInstance& fmu) { return fmu.get_boolean_status(s, value); });
}

fmi2Status fmi2GetStringStatus(fmi2Component c, const fmi2StatusKind, fmi2String*) {
  return refused(c, "fmi2GetStringStatus", kNeverPending);
}

}  // extern "C"
