"""Parameter sweeps: one simulation per parameter set, serially, on a process pool
kept for the whole session, or on any executor with submit() (concurrent.futures,
a dask.distributed client or its `get_executor()`).

Points travel in batches so the parent does little per run: build, metrics and
options are cloudpickled once (lambdas and closures work), and each worker compiles
the model once per build, keyed by a hash of its pickled bytes (unpickling makes
new function objects every time, so object identity cannot be the key)."""
import atexit
import hashlib
import itertools
import math
import os
import pickle
import sys
import threading
import time
import traceback

_BATCHES_PER_WORKER = 4  # small enough to balance uneven runs, large enough to amortize sending
_CACHED_BUILDS = 8  # compiled simulators a worker keeps (one per distinct build)
_RESERVED_COLUMNS = ("error", "wall_time")  # the columns sweep() adds to every row

_local = threading.local()  # per worker thread: build hash -> Simulator (a Simulator is not shared)
_pool = None  # the default process pool, made on first use


def _simulator(build):
    made = build()
    return made.compile() if hasattr(made, "compile") else made


def _cached_simulator(key, build_bytes):
    compiled = _local.__dict__.setdefault("compiled", {})
    sim = compiled.get(key)
    if sim is None:
        sim = _simulator(pickle.loads(build_bytes))
        if len(compiled) >= _CACHED_BUILDS:
            del compiled[next(iter(compiled))]
        compiled[key] = sim
    return sim


def _not_run(sets, metrics, error):
    """The outputs of runs that never happened (the model did not build, the worker died)."""
    text = f"{type(error).__name__}: {error}"
    return [({**params, **dict.fromkeys(metrics, math.nan), "error": text, "wall_time": math.nan}, None)
            for params in sets]


def _run(sim, params, metrics, keep, options):
    """One run; the simulator's parameters are restored afterwards for the next run."""
    start = time.perf_counter()
    row = dict(params)
    trajectory = None
    try:
        previous = {name: sim.parameter(name) for name in params}
        try:
            for name, value in params.items():
                sim.set_parameter(name, float(value))
            result = sim.simulate(**options)
        finally:
            for name, value in previous.items():
                sim.set_parameter(name, value)
        for name, metric in metrics.items():
            row[name] = metric(result)
        if keep:
            # copies: a view would keep the whole Result alive until the sweep ends
            trajectory = (result.time.copy(), [result[name].copy() for name in keep])
        row["error"] = None
    except Exception as error:  # one failing run never loses the others
        for name in metrics:
            row.setdefault(name, math.nan)
        row["error"] = f"{type(error).__name__}: {error}"
        if not isinstance(error, (ValueError, RuntimeError)):  # not a model or solver error: say where
            row["error"] += "\n" + traceback.format_exc(limit=3)
    row["wall_time"] = time.perf_counter() - start
    return row, trajectory


def _run_batch(key, build_bytes, job_bytes, sets):
    """Worker side: the runs of one batch on this worker's simulator for the build."""
    metrics, keep, options = pickle.loads(job_bytes)
    try:
        sim = _cached_simulator(key, build_bytes)
    except Exception as error:
        return _not_run(sets, metrics, error)
    return [_run(sim, params, metrics, keep, options) for params in sets]


def _default_pool():
    """The session's process pool over all usable cores; a broken one (a worker died) is replaced."""
    global _pool
    if _pool is not None and _pool._broken:
        _pool.shutdown(wait=False)
        _pool = None
    if _pool is None:
        from concurrent.futures import ProcessPoolExecutor

        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
        _pool = ProcessPoolExecutor(max_workers=cores or 1)
    return _pool


@atexit.register
def _shutdown_pool():
    if _pool is not None:
        _pool.shutdown(cancel_futures=True)


def _worker_count(executor):
    client = getattr(executor, "_client", None)  # dask's ClientExecutor
    if client is not None:
        return sum(client.nthreads().values()) or 1
    return getattr(executor, "_max_workers", None) or os.cpu_count() or 1


def _parameter_sets(grid):
    if isinstance(grid, dict):
        names = list(grid)
        return [dict(zip(names, values)) for values in itertools.product(*(grid[n] for n in names))]
    return [dict(p) for p in grid]


def _progress_bar(total, enabled):
    """A tqdm bar for a person at a terminal; none in logs (CI) or without tqdm."""
    if enabled and sys.stderr.isatty():
        try:
            from tqdm import tqdm

            return tqdm(total=total, desc="sweep", unit="run")
        except ImportError:
            pass
    return None


def _serial(build, sets, metrics, keep, options, bar):
    try:
        sim = _simulator(build)
    except Exception as error:
        return _not_run(sets, metrics, error)
    outputs = []
    for params in sets:
        outputs.append(_run(sim, params, metrics, keep, options))
        if bar is not None:
            bar.update()
    return outputs


def _submit(executor, *args):
    try:
        return executor.submit(_run_batch, *args)
    except Exception as error:  # the pool broke meanwhile: the batch becomes error rows like a lost one
        from concurrent.futures import Future

        failed = Future()
        failed.set_exception(error)
        return failed


def _distributed(executor, build, sets, metrics, keep, options, batch_size, bar):
    """Sends the points in batches; a batch that is lost (its worker died) comes back as error rows."""
    import cloudpickle

    try:
        build_bytes = cloudpickle.dumps(build)
        job_bytes = cloudpickle.dumps((metrics, keep, options))
    except Exception as error:
        raise TypeError(f"sweep: build, metrics or options cannot be pickled for other processes ({error}); "
                        "executor='serial' runs them in this process") from error
    key = hashlib.blake2b(build_bytes, digest_size=16).digest()
    size = batch_size or max(1, math.ceil(len(sets) / (_BATCHES_PER_WORKER * _worker_count(executor))))
    count = math.ceil(len(sets) / size)
    # Batch k takes points k, k + count, ...: where run times grow along the grid, batches still take alike.
    batches = [range(first, len(sets), count) for first in range(count)]
    futures = []
    try:
        futures = [_submit(executor, key, build_bytes, job_bytes, [sets[i] for i in batch]) for batch in batches]
        outputs = [None] * len(sets)
        for batch, future in zip(batches, futures):
            try:
                done = future.result()
            except Exception as error:
                done = _not_run([sets[i] for i in batch], metrics, error)
            for i, output in zip(batch, done):
                outputs[i] = output
            if bar is not None:
                bar.update(len(batch))
        return outputs
    finally:
        for future in futures:  # on an interrupt, nothing left running
            future.cancel()


def _table(sets, outputs, metrics):
    import pandas as pd

    columns = [*dict.fromkeys(itertools.chain.from_iterable(sets)), *metrics, *_RESERVED_COLUMNS]
    return pd.DataFrame([row for row, _ in outputs], columns=columns)


def _trajectories(outputs, keep):
    import numpy as np
    import pandas as pd

    runs, times, codes, values = [], [], [], []
    for run, (_, trajectory) in enumerate(outputs):
        if trajectory is not None:
            t, arrays = trajectory
            runs.append(np.full(len(t) * len(keep), run))
            times.append(np.tile(t, len(keep)))
            codes.append(np.repeat(np.arange(len(keep)), len(t)))
            values.append(np.concatenate(arrays))

    def joined(parts, dtype):
        return np.concatenate(parts) if parts else np.empty(0, dtype)

    return pd.DataFrame({"run": joined(runs, np.int64), "time": joined(times, float),
                         "variable": pd.Categorical.from_codes(joined(codes, np.int64), categories=keep),
                         "value": joined(values, float)})


def _check_metric_names(sets, metrics):
    """A metric's column may not take the place of a parameter's or a reserved one: the row is one
    dict, so the later value would silently overwrite the earlier."""
    parameters = set(itertools.chain.from_iterable(sets))
    for name in metrics:
        if name in parameters:
            raise ValueError(f"sweep: the metric '{name}' has the name of a swept parameter; both would be the "
                             f"column '{name}' (the metric's value overwriting the parameter's): rename the metric")
        if name in _RESERVED_COLUMNS:
            raise ValueError(f"sweep: the metric '{name}' has the name of a column sweep() fills itself "
                             f"({', '.join(_RESERVED_COLUMNS)}): rename the metric")


def sweep(build, grid, metrics, executor=None, progress=True, *, keep=None, batch_size=None, **simulate_options):
    """Runs one simulation per parameter set and returns a pandas DataFrame, one row per run in
    grid order: the parameter columns, one column per metric, `error` (None, or the text
    "ExceptionType: message" of a run that failed: bad parameter, solver failure, a worker that
    died) and `wall_time` (seconds of that run, compilation excluded). A dask cluster reruns the
    tasks of a worker that dies; the default pool cannot, so the runs it lost are error rows
    ("BrokenProcessPool: ...") and the next call starts a new pool.

    build      -- function returning a Model or a Simulator; any callable (lambdas, closures)
    grid       -- {parameter: [values]} for the full factorial, or a list of {parameter: value}
    metrics    -- {column: function(result) -> value}; any callables. A metric may not be named
                  like a swept parameter or a column the table has anyway (error, wall_time)
    executor   -- None: a process pool over all cores, made on the first call and reused;
                  "serial": in this process, build called once; or any object with submit()
                  (concurrent.futures executors, dask's `client.get_executor()`), or a
                  distributed.Client. Build and metrics travel with cloudpickle; each worker
                  compiles the model once and only changes parameters between runs.
    progress   -- a tqdm bar when stderr is a terminal
    keep       -- variable names whose trajectories to return as well; then the result is a
                  pair (table, trajectories), trajectories a long DataFrame with columns
                  run (the table's row), time, variable, value (no rows for failed runs)
    batch_size -- points per task sent to a worker (default: about 4 tasks per worker)
    simulate_options -- passed to Simulator.simulate (t_end, output_interval, rtol, atol, ...)
    """
    sets = _parameter_sets(grid)
    _check_metric_names(sets, metrics)
    keep = list(dict.fromkeys(keep or ()))
    bar = _progress_bar(len(sets), progress)
    try:
        if executor == "serial":
            outputs = _serial(build, sets, metrics, keep, simulate_options, bar)
        else:
            if executor is None:
                executor = _default_pool()
            elif hasattr(executor, "get_executor"):  # a distributed.Client
                executor = executor.get_executor(pure=False)
            outputs = _distributed(executor, build, sets, metrics, keep, simulate_options, batch_size, bar)
    finally:
        if bar is not None:
            bar.close()
    table = _table(sets, outputs, metrics)
    return (table, _trajectories(outputs, keep)) if keep else table
