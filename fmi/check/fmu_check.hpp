// `acausal fmu-check`: checks an FMI 2.0 FMU, ours or another tool's, against the standard's rules and runs it.
#pragma once

#include <string>
#include <vector>

namespace acausal::fmi::check {

// `args` are the words after `fmu-check`:
//   model.fmu [--step H] [--stop T] [--out result.csv] [--reference ref.csv] [--tolerance 1e-6]
//   [--two-instances] [--record NAME]... [--debug-logging]
// --record adds a variable to the outputs recorded; --debug-logging asks the FMU for its debug messages (printed
// as `log:` lines). The stop time defaults to the DefaultExperiment's, else one second after its start time
// (itself 0 when not given); the step to the DefaultExperiment's stepSize, else a 500th of the interval.
// Prints the description's findings (`rule: message`), the Co-Simulation run's summary, the comparison with
// the reference and the two-instance result on standard output. Returns 0 when every check passed, 1 when one
// failed (or could not run), 2 on a usage error (reported on standard error).
int fmu_check_main(const std::vector<std::string>& args);

}  // namespace acausal::fmi::check
