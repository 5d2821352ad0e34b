"""acausal: equation-based component models, compiled to a DAE and integrated with SUNDIALS IDA.

    import acausal as ac
    from acausal import rotational, translational, blocks

    m = ac.Model("rolling_wheel")
    inertia = m.add(rotational.Inertia("inertia", J=1.0))
    ...
    sim = m.compile()
    r = sim.simulate(t_end=5.0, output_interval=1e-3)
    r.time, r["inertia.w"]
"""
from ._acausal import (  # noqa: F401  (the public API)
    Connector,
    Equation,
    Expr,
    ModelError,
    Result,
    SimulationError,
    Simulator,
    UnknownNameError,
    WhenAction,
    abs,
    acos,
    asin,
    atan,
    atan2,
    change,
    cos,
    cosh,
    delay,
    der,
    edge,
    equal,
    exp,
    floor,
    ifelse,
    initial,
    log,
    max,
    min,
    no_event,
    pre,
    reinit,
    sample,
    sign,
    sin,
    sinh,
    sqrt,
    table,
    table2d,
    tan,
    tanh,
    time,
)
from .component import (BooleanInput, BooleanOutput, Component, IntegerInput, IntegerOutput, Model,  # noqa: F401
                        ModelWarning, RealInput, RealOutput)
from . import blocks, electrical, harness, planar, rotational, thermal, translational, vehicle  # noqa: F401
from . import results as _results  # noqa: F401  (Result.to_pandas, .plot, .parameters, notebook views)
from .sweep import sweep  # noqa: F401
from .analysis import LinearModel, SteadyState, linearize, steady_state  # noqa: F401
from .calibration import Calibration, calibrate  # noqa: F401
from .inputs import drive  # noqa: F401
from .fmu import add_fmu  # noqa: F401
from . import fmu  # noqa: F401
