"""FMI 2.0 Co-Simulation FMUs as components (C++ FMUComponent, fmi/import/fmu_component.hpp)."""
from . import _acausal


def add_fmu(parent, name, path, step_size=1e-3, start_time=0.0, tolerance=0.0, debug_logging=False, **parameters):
    """Adds the Co-Simulation FMU at `path` to `parent` (a Model or Component) as a sampled subsystem and returns
    it. Its inputs and outputs are signal connectors and its parameters are the component's parameters. Names
    are the FMU's with each character an identifier cannot hold replaced by '_' (`fmu.plant_F`). You can also
    look a connector up by its FMU name with port(fmu, "plant.F"). At each communication point
    start_time + k·step_size [s] the inputs are set, the outputs read, and the FMU steps on. Between points
    the outputs hold their values. `tolerance` goes to the FMU's own solver (0: its DefaultExperiment's)."""
    return _acausal._add_fmu(parent, str(name), str(path), float(step_size), float(start_time), float(tolerance),
                             bool(debug_logging),
                             [(str(k), float(v)) for k, v in parameters.items()])


def port(fmu, fmu_name):
    """The connector of the FMU variable `fmu_name`, as modelDescription.xml names it."""
    return _acausal._fmu_port(fmu, str(fmu_name))
