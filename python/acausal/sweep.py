"""Parameter sweeps: one simulation per parameter set, serially, on a process
pool, or on any concurrent.futures-style executor (a dask.distributed client's
`get_executor()` included)."""
import itertools
import os
import traceback

_compiled = {}  # per process: build function -> Simulator, so each worker compiles once


def _simulator(build):
    key = (getattr(build, "__module__", None), getattr(build, "__qualname__", None), id(build))
    sim = _compiled.get(key)
    if sim is None:
        made = build()
        sim = made.compile() if hasattr(made, "compile") else made
        _compiled[key] = sim
    return sim


def _run_one(build, params, metrics, simulate_options):
    row = dict(params)
    try:
        sim = _simulator(build)
        previous = {name: sim.parameter(name) for name in params}
        try:
            for name, value in params.items():
                sim.set_parameter(name, float(value))
            result = sim.simulate(**simulate_options)
        finally:
            for name, value in previous.items():  # the cached simulator serves the next run unchanged
                sim.set_parameter(name, value)
        for name, metric in metrics.items():
            row[name] = metric(result)
        row["error"] = None
    except Exception as error:  # one failing run never loses the others
        for name in metrics:
            row.setdefault(name, float("nan"))
        row["error"] = f"{type(error).__name__}: {error}"
        if not isinstance(error, (ValueError, RuntimeError)):
            row["error"] += "\n" + traceback.format_exc(limit=3)
    return row


def _parameter_sets(grid):
    if isinstance(grid, dict):
        names = list(grid)
        return [dict(zip(names, values)) for values in itertools.product(*(grid[n] for n in names))]
    return [dict(p) for p in grid]


def _progress(iterable, total, enabled):
    if enabled:
        try:
            from tqdm import tqdm

            return tqdm(iterable, total=total, desc="sweep")
        except ImportError:
            pass
    return iterable


def sweep(build, grid, metrics, executor=None, progress=True, **simulate_options):
    """Runs one simulation per parameter set and returns a pandas DataFrame.

    build     -- function returning a Model (compiled once per worker) or a Simulator
    grid      -- {parameter: [values]} for the full factorial, or a list of {parameter: value}
    metrics   -- {column: function(result) -> value}
    executor  -- None: a process pool on all cores; "serial": in this process; or any
                 object with submit() (concurrent.futures, dask.distributed's get_executor())
    simulate_options -- passed to Simulator.simulate (t_end, output_interval, rtol, atol, ...)

    A run that fails (bad parameter, solver failure) is a row with its error text.
    With a process pool, build and the metrics must be picklable (module-level functions).
    """
    import pandas as pd

    sets = _parameter_sets(grid)
    if executor == "serial":
        rows = [_run_one(build, p, metrics, simulate_options) for p in _progress(sets, len(sets), progress)]
    else:
        own = executor is None
        if own:
            from concurrent.futures import ProcessPoolExecutor

            executor = ProcessPoolExecutor(max_workers=os.cpu_count())
        try:
            futures = [executor.submit(_run_one, build, p, metrics, simulate_options) for p in sets]
            rows = [f.result() for f in _progress(futures, len(futures), progress)]
        finally:
            if own:
                executor.shutdown()
    return pd.DataFrame(rows)
