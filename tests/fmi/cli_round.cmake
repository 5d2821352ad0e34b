# ctest driver for the command line: `acausal export-fmu car`, then `acausal
# fmu-check` writes a Co-Simulation run, checks a second run against it as the
# reference, runs Model Exchange against it at the integrators' tolerance,
# writes both interfaces' results, and fails a reference the run does not
# match; no FMU named is a usage error.
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
function(step expected)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err WORKING_DIRECTORY ${WORK_DIR})
  if(NOT rc EQUAL expected)
    message(FATAL_ERROR "exit ${rc}, expected ${expected}: ${ARGN}\n${out}\n${err}")
  endif()
  message(STATUS "${out}")
endfunction()
step(0 ${CLI} export-fmu car car.fmu --stop 3)
step(0 ${CLI} fmu-check car.fmu --interface cs --stop 3 --step 0.01 --record car.body.v --out first.csv)
step(0 ${CLI} fmu-check car.fmu --interface cs --stop 3 --step 0.01 --record car.body.v --reference first.csv
     --tolerance 1e-12 --two-instances)
step(0 ${CLI} fmu-check car.fmu --interface me --stop 3 --step 0.01 --record car.body.v --reference first.csv
     --tolerance 1e-4)
step(0 ${CLI} fmu-check car.fmu --stop 3 --step 0.01 --out both.csv)
foreach(interface cs me)
  if(NOT EXISTS ${WORK_DIR}/both_${interface}.csv)
    message(FATAL_ERROR "fmu-check wrote no both_${interface}.csv")
  endif()
endforeach()
# A reference the run does not match (the car stands at t = 0 and 1 s, not at 5 m/s): exit 1.
file(WRITE ${WORK_DIR}/wrong.csv "time,car.body.v\n0,5\n1,5\n")
step(1 ${CLI} fmu-check car.fmu --stop 3 --step 0.01 --record car.body.v --reference wrong.csv)
step(2 ${CLI} fmu-check)
