/* The FMI 2.0 C interface (Functional Mock-up Interface for Model Exchange and
 * Co-Simulation, version 2.0), written from the standard's text: the types,
 * the callback structure, one function type per function (what an importer
 * casts a dlsym() result to) and the functions themselves, exported from the
 * FMU's shared object under their plain names (the standard's binary form).
 * It compiles as C and as C++. */
#ifndef ACAUSAL_FMI_FMI2_API_H
#define ACAUSAL_FMI_FMI2_API_H

#include <stddef.h>

/* The FMU's shared object is built with hidden visibility by default: only the
 * FMI functions are its interface. */
#define ACAUSAL_FMI_EXPORT __attribute__((visibility("default")))

#ifdef __cplusplus
extern "C" {
#endif

/* What fmi2GetTypesPlatform() and fmi2GetVersion() return. */
#define fmi2TypesPlatform "default"
#define fmi2Version "2.0"

typedef void* fmi2Component;            /* an instance of the FMU */
typedef void* fmi2ComponentEnvironment; /* the importer's pointer, handed back to its callbacks */
typedef void* fmi2FMUstate;             /* a saved state of an instance */
typedef unsigned int fmi2ValueReference;
typedef double fmi2Real;
typedef int fmi2Integer;
typedef int fmi2Boolean;
typedef char fmi2Char;
typedef const fmi2Char* fmi2String;
typedef char fmi2Byte;

#define fmi2True 1
#define fmi2False 0

typedef enum { fmi2OK, fmi2Warning, fmi2Discard, fmi2Error, fmi2Fatal, fmi2Pending } fmi2Status;

typedef enum { fmi2ModelExchange, fmi2CoSimulation } fmi2Type;

typedef enum { fmi2DoStepStatus, fmi2PendingStatus, fmi2LastSuccessfulTime, fmi2Terminated } fmi2StatusKind;

/* The message is a printf format; a literal '%' is written "%%", a literal '#'
 * "##" ("#r12#" names the variable of value reference 12). */
typedef void (*fmi2CallbackLogger)(fmi2ComponentEnvironment componentEnvironment, fmi2String instanceName,
                                   fmi2Status status, fmi2String category, fmi2String message, ...);
typedef void* (*fmi2CallbackAllocateMemory)(size_t nobj, size_t size);
typedef void (*fmi2CallbackFreeMemory)(void* obj);
typedef void (*fmi2StepFinished)(fmi2ComponentEnvironment componentEnvironment, fmi2Status status);

typedef struct {
  const fmi2CallbackLogger logger;
  const fmi2CallbackAllocateMemory allocateMemory;
  const fmi2CallbackFreeMemory freeMemory;
  const fmi2StepFinished stepFinished;
  const fmi2ComponentEnvironment componentEnvironment;
} fmi2CallbackFunctions;

typedef struct {
  fmi2Boolean newDiscreteStatesNeeded;
  fmi2Boolean terminateSimulation;
  fmi2Boolean nominalsOfContinuousStatesChanged;
  fmi2Boolean valuesOfContinuousStatesChanged;
  fmi2Boolean nextEventTimeDefined;
  fmi2Real nextEventTime;
} fmi2EventInfo;

/* Common to Model Exchange and Co-Simulation. */
typedef const char* fmi2GetTypesPlatformTYPE(void);
typedef const char* fmi2GetVersionTYPE(void);
typedef fmi2Status fmi2SetDebugLoggingTYPE(fmi2Component c, fmi2Boolean loggingOn, size_t nCategories,
                                           const fmi2String categories[]);
typedef fmi2Component fmi2InstantiateTYPE(fmi2String instanceName, fmi2Type fmuType, fmi2String fmuGUID,
                                          fmi2String fmuResourceLocation, const fmi2CallbackFunctions* functions,
                                          fmi2Boolean visible, fmi2Boolean loggingOn);
typedef void fmi2FreeInstanceTYPE(fmi2Component c);
typedef fmi2Status fmi2SetupExperimentTYPE(fmi2Component c, fmi2Boolean toleranceDefined, fmi2Real tolerance,
                                           fmi2Real startTime, fmi2Boolean stopTimeDefined, fmi2Real stopTime);
typedef fmi2Status fmi2EnterInitializationModeTYPE(fmi2Component c);
typedef fmi2Status fmi2ExitInitializationModeTYPE(fmi2Component c);
typedef fmi2Status fmi2TerminateTYPE(fmi2Component c);
typedef fmi2Status fmi2ResetTYPE(fmi2Component c);

typedef fmi2Status fmi2GetRealTYPE(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, fmi2Real value[]);
typedef fmi2Status fmi2GetIntegerTYPE(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                      fmi2Integer value[]);
typedef fmi2Status fmi2GetBooleanTYPE(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                      fmi2Boolean value[]);
typedef fmi2Status fmi2GetStringTYPE(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, fmi2String value[]);
typedef fmi2Status fmi2SetRealTYPE(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                   const fmi2Real value[]);
typedef fmi2Status fmi2SetIntegerTYPE(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                      const fmi2Integer value[]);
typedef fmi2Status fmi2SetBooleanTYPE(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                      const fmi2Boolean value[]);
typedef fmi2Status fmi2SetStringTYPE(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                     const fmi2String value[]);

typedef fmi2Status fmi2GetFMUstateTYPE(fmi2Component c, fmi2FMUstate* FMUstate);
typedef fmi2Status fmi2SetFMUstateTYPE(fmi2Component c, fmi2FMUstate FMUstate);
typedef fmi2Status fmi2FreeFMUstateTYPE(fmi2Component c, fmi2FMUstate* FMUstate);
typedef fmi2Status fmi2SerializedFMUstateSizeTYPE(fmi2Component c, fmi2FMUstate FMUstate, size_t* size);
typedef fmi2Status fmi2SerializeFMUstateTYPE(fmi2Component c, fmi2FMUstate FMUstate, fmi2Byte serializedState[],
                                             size_t size);
typedef fmi2Status fmi2DeSerializeFMUstateTYPE(fmi2Component c, const fmi2Byte serializedState[], size_t size,
                                               fmi2FMUstate* FMUstate);

typedef fmi2Status fmi2GetDirectionalDerivativeTYPE(fmi2Component c, const fmi2ValueReference vUnknown_ref[],
                                                    size_t nUnknown, const fmi2ValueReference vKnown_ref[],
                                                    size_t nKnown, const fmi2Real dvKnown[], fmi2Real dvUnknown[]);

/* Model Exchange only. */
typedef fmi2Status fmi2EnterEventModeTYPE(fmi2Component c);
typedef fmi2Status fmi2NewDiscreteStatesTYPE(fmi2Component c, fmi2EventInfo* fmi2eventInfo);
typedef fmi2Status fmi2EnterContinuousTimeModeTYPE(fmi2Component c);
typedef fmi2Status fmi2CompletedIntegratorStepTYPE(fmi2Component c, fmi2Boolean noSetFMUStatePriorToCurrentPoint,
                                                   fmi2Boolean* enterEventMode, fmi2Boolean* terminateSimulation);
typedef fmi2Status fmi2SetTimeTYPE(fmi2Component c, fmi2Real time);
typedef fmi2Status fmi2SetContinuousStatesTYPE(fmi2Component c, const fmi2Real x[], size_t nx);
typedef fmi2Status fmi2GetDerivativesTYPE(fmi2Component c, fmi2Real derivatives[], size_t nx);
typedef fmi2Status fmi2GetEventIndicatorsTYPE(fmi2Component c, fmi2Real eventIndicators[], size_t ni);
typedef fmi2Status fmi2GetContinuousStatesTYPE(fmi2Component c, fmi2Real x[], size_t nx);
typedef fmi2Status fmi2GetNominalsOfContinuousStatesTYPE(fmi2Component c, fmi2Real x_nominal[], size_t nx);

/* Co-Simulation only. */
typedef fmi2Status fmi2SetRealInputDerivativesTYPE(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                                   const fmi2Integer order[], const fmi2Real value[]);
typedef fmi2Status fmi2GetRealOutputDerivativesTYPE(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                                    const fmi2Integer order[], fmi2Real value[]);
typedef fmi2Status fmi2DoStepTYPE(fmi2Component c, fmi2Real currentCommunicationPoint,
                                  fmi2Real communicationStepSize, fmi2Boolean noSetFMUStatePriorToCurrentPoint);
typedef fmi2Status fmi2CancelStepTYPE(fmi2Component c);
typedef fmi2Status fmi2GetStatusTYPE(fmi2Component c, const fmi2StatusKind s, fmi2Status* value);
typedef fmi2Status fmi2GetRealStatusTYPE(fmi2Component c, const fmi2StatusKind s, fmi2Real* value);
typedef fmi2Status fmi2GetIntegerStatusTYPE(fmi2Component c, const fmi2StatusKind s, fmi2Integer* value);
typedef fmi2Status fmi2GetBooleanStatusTYPE(fmi2Component c, const fmi2StatusKind s, fmi2Boolean* value);
typedef fmi2Status fmi2GetStringStatusTYPE(fmi2Component c, const fmi2StatusKind s, fmi2String* value);

/* The functions, declared through their types so that a definition that
 * strays from the type an importer uses does not compile. */
ACAUSAL_FMI_EXPORT fmi2GetTypesPlatformTYPE fmi2GetTypesPlatform;
ACAUSAL_FMI_EXPORT fmi2GetVersionTYPE fmi2GetVersion;
ACAUSAL_FMI_EXPORT fmi2SetDebugLoggingTYPE fmi2SetDebugLogging;
ACAUSAL_FMI_EXPORT fmi2InstantiateTYPE fmi2Instantiate;
ACAUSAL_FMI_EXPORT fmi2FreeInstanceTYPE fmi2FreeInstance;
ACAUSAL_FMI_EXPORT fmi2SetupExperimentTYPE fmi2SetupExperiment;
ACAUSAL_FMI_EXPORT fmi2EnterInitializationModeTYPE fmi2EnterInitializationMode;
ACAUSAL_FMI_EXPORT fmi2ExitInitializationModeTYPE fmi2ExitInitializationMode;
ACAUSAL_FMI_EXPORT fmi2TerminateTYPE fmi2Terminate;
ACAUSAL_FMI_EXPORT fmi2ResetTYPE fmi2Reset;
ACAUSAL_FMI_EXPORT fmi2GetRealTYPE fmi2GetReal;
ACAUSAL_FMI_EXPORT fmi2GetIntegerTYPE fmi2GetInteger;
ACAUSAL_FMI_EXPORT fmi2GetBooleanTYPE fmi2GetBoolean;
ACAUSAL_FMI_EXPORT fmi2GetStringTYPE fmi2GetString;
ACAUSAL_FMI_EXPORT fmi2SetRealTYPE fmi2SetReal;
ACAUSAL_FMI_EXPORT fmi2SetIntegerTYPE fmi2SetInteger;
ACAUSAL_FMI_EXPORT fmi2SetBooleanTYPE fmi2SetBoolean;
ACAUSAL_FMI_EXPORT fmi2SetStringTYPE fmi2SetString;
ACAUSAL_FMI_EXPORT fmi2GetFMUstateTYPE fmi2GetFMUstate;
ACAUSAL_FMI_EXPORT fmi2SetFMUstateTYPE fmi2SetFMUstate;
ACAUSAL_FMI_EXPORT fmi2FreeFMUstateTYPE fmi2FreeFMUstate;
ACAUSAL_FMI_EXPORT fmi2SerializedFMUstateSizeTYPE fmi2SerializedFMUstateSize;
ACAUSAL_FMI_EXPORT fmi2SerializeFMUstateTYPE fmi2SerializeFMUstate;
ACAUSAL_FMI_EXPORT fmi2DeSerializeFMUstateTYPE fmi2DeSerializeFMUstate;
ACAUSAL_FMI_EXPORT fmi2GetDirectionalDerivativeTYPE fmi2GetDirectionalDerivative;

ACAUSAL_FMI_EXPORT fmi2EnterEventModeTYPE fmi2EnterEventMode;
ACAUSAL_FMI_EXPORT fmi2NewDiscreteStatesTYPE fmi2NewDiscreteStates;
ACAUSAL_FMI_EXPORT fmi2EnterContinuousTimeModeTYPE fmi2EnterContinuousTimeMode;
ACAUSAL_FMI_EXPORT fmi2CompletedIntegratorStepTYPE fmi2CompletedIntegratorStep;
ACAUSAL_FMI_EXPORT fmi2SetTimeTYPE fmi2SetTime;
ACAUSAL_FMI_EXPORT fmi2SetContinuousStatesTYPE fmi2SetContinuousStates;
ACAUSAL_FMI_EXPORT fmi2GetDerivativesTYPE fmi2GetDerivatives;
ACAUSAL_FMI_EXPORT fmi2GetEventIndicatorsTYPE fmi2GetEventIndicators;
ACAUSAL_FMI_EXPORT fmi2GetContinuousStatesTYPE fmi2GetContinuousStates;
ACAUSAL_FMI_EXPORT fmi2GetNominalsOfContinuousStatesTYPE fmi2GetNominalsOfContinuousStates;

ACAUSAL_FMI_EXPORT fmi2SetRealInputDerivativesTYPE fmi2SetRealInputDerivatives;
ACAUSAL_FMI_EXPORT fmi2GetRealOutputDerivativesTYPE fmi2GetRealOutputDerivatives;
ACAUSAL_FMI_EXPORT fmi2DoStepTYPE fmi2DoStep;
ACAUSAL_FMI_EXPORT fmi2CancelStepTYPE fmi2CancelStep;
ACAUSAL_FMI_EXPORT fmi2GetStatusTYPE fmi2GetStatus;
ACAUSAL_FMI_EXPORT fmi2GetRealStatusTYPE fmi2GetRealStatus;
ACAUSAL_FMI_EXPORT fmi2GetIntegerStatusTYPE fmi2GetIntegerStatus;
ACAUSAL_FMI_EXPORT fmi2GetBooleanStatusTYPE fmi2GetBooleanStatus;
ACAUSAL_FMI_EXPORT fmi2GetStringStatusTYPE fmi2GetStringStatus;

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ACAUSAL_FMI_FMI2_API_H */
