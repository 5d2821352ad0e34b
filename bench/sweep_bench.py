"""Sweep benchmark: 64 short runs of the launch car (about 2 ms each), serially and on the
default process pool, for `ac.sweep` and for the previous implementation (`_old_sweep`
below, as it was before batches and cloudpickle), plus the first call in a fresh interpreter.

    PYTHONPATH=build/python /usr/bin/python3 bench/sweep_bench.py

Measures (best of REPEATS, the variants interleaved):
  direct     -- a plain loop of set_parameter + simulate + metrics on one compiled Simulator:
                the serial floor
  serial     -- sweep(executor="serial")
  pooled     -- sweep() on the default pool, after a warm-up call (the old one makes a pool per call)
  serial/pooled, direct/pooled -- the speedups
  parent CPU -- time.process_time() of the parent during a pooled call, per run
  overhead   -- (pooled − direct / workers) / runs: wall time per run beyond perfect sharing
  first call -- a fresh interpreter, from the script's first line: imports, the pool,
                compilation, 64 runs, the table
"""
import time

_START = time.perf_counter()  # the first-call mode counts the imports below

import importlib.util  # noqa: E402
import itertools  # noqa: E402
import os  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import traceback  # noqa: E402

import acausal as ac  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
RUNS = 64
REPEATS = 15
OPTIONS = dict(t_end=0.3, output_interval=0.01)  # about 2 ms a run: the launch, before the clutch closes
WHEELS = ("fl", "fr", "rl", "rr")
GRID = [{"body.h_cg": h, **{f"wheel_{s}.mu": mu for s in WHEELS}}
        for h in (0.35, 0.40, 0.45, 0.50, 0.55, 0.60, 0.65, 0.70) for mu in (0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1)]


def _launch_study():
    spec = importlib.util.spec_from_file_location("launch_study", os.path.join(HERE, "..", "examples", "python",
                                                                               "launch_study.py"))
    module = importlib.util.module_from_spec(spec)
    sys.modules["launch_study"] = module  # importable by name in forked workers (the old sweep pickles by name)
    spec.loader.exec_module(module)
    return module


build = _launch_study().build


def v_end(r):
    return float(r["body.v"][-1])


def peak_rear_load(r):
    return float(r["body.N_rear"].max())


METRICS = {"v_end": v_end, "peak_rear_load": peak_rear_load}


# The previous implementation (git show 7219746:python/acausal/sweep.py), for the before/after columns.
_old_compiled = {}


def _old_simulator(build):
    key = (getattr(build, "__module__", None), getattr(build, "__qualname__", None), id(build))
    sim = _old_compiled.get(key)
    if sim is None:
        made = build()
        sim = made.compile() if hasattr(made, "compile") else made
        _old_compiled[key] = sim
    return sim


def _old_run_one(build, params, metrics, simulate_options):
    row = dict(params)
    try:
        sim = _old_simulator(build)
        previous = {name: sim.parameter(name) for name in params}
        try:
            for name, value in params.items():
                sim.set_parameter(name, float(value))
            result = sim.simulate(**simulate_options)
        finally:
            for name, value in previous.items():
                sim.set_parameter(name, value)
        for name, metric in metrics.items():
            row[name] = metric(result)
        row["error"] = None
    except Exception as error:
        for name in metrics:
            row.setdefault(name, float("nan"))
        row["error"] = f"{type(error).__name__}: {error}"
        if not isinstance(error, (ValueError, RuntimeError)):
            row["error"] += "\n" + traceback.format_exc(limit=3)
    return row


def _old_parameter_sets(grid):
    if isinstance(grid, dict):
        names = list(grid)
        return [dict(zip(names, values)) for values in itertools.product(*(grid[n] for n in names))]
    return [dict(p) for p in grid]


def _old_progress(iterable, total, enabled):
    if enabled:
        try:
            from tqdm import tqdm

            return tqdm(iterable, total=total, desc="sweep")
        except ImportError:
            pass
    return iterable


def _old_sweep(build, grid, metrics, executor=None, progress=True, **simulate_options):
    import pandas as pd

    sets = _old_parameter_sets(grid)
    if executor == "serial":
        rows = [_old_run_one(build, p, metrics, simulate_options) for p in _old_progress(sets, len(sets), progress)]
    else:
        own = executor is None
        if own:
            from concurrent.futures import ProcessPoolExecutor

            executor = ProcessPoolExecutor(max_workers=os.cpu_count())
        try:
            futures = [executor.submit(_old_run_one, build, p, metrics, simulate_options) for p in sets]
            rows = [f.result() for f in _old_progress(futures, len(futures), progress)]
        finally:
            if own:
                executor.shutdown()
    return pd.DataFrame(rows)


IMPLEMENTATIONS = {"old": _old_sweep, "new": ac.sweep}


def _timed(call):
    """(wall, parent CPU) seconds of one call."""
    wall, cpu = time.perf_counter(), time.process_time()
    table = call()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    assert table is None or (len(table) == RUNS and table["error"].isna().all()), table["error"].dropna().head()
    return wall, cpu


def _first_call(name):
    """Seconds from this script's first line to the table, in a fresh interpreter (imports included)."""
    done = subprocess.run([sys.executable, __file__, "--first-call", name], capture_output=True, text=True,
                          check=True, timeout=300)
    return float(done.stdout.split()[-1])


def main():
    workers = len(os.sched_getaffinity(0))
    sim = build().compile()

    def direct():  # the serial floor: no sweep machinery
        for params in GRID:
            for name, value in params.items():
                sim.set_parameter(name, value)
            result = sim.simulate(**OPTIONS)
            [metric(result) for metric in METRICS.values()]

    calls = {"direct": direct}
    for name, sweep in IMPLEMENTATIONS.items():
        calls[name, "serial"] = lambda sweep=sweep: sweep(build, GRID, METRICS, executor="serial", progress=False,
                                                          **OPTIONS)
        calls[name, "pooled"] = lambda sweep=sweep: sweep(build, GRID, METRICS, progress=False, **OPTIONS)
    for call in calls.values():  # warm-up: the pool, the workers' compilation, the imports
        call()
    wall = {key: float("inf") for key in calls}
    cpu = dict(wall)
    for _ in range(REPEATS):  # interleaved, so that a busy moment of the machine hits every column alike
        for key, call in calls.items():
            w, c = _timed(call)
            wall[key], cpu[key] = min(wall[key], w), min(cpu[key], c)
    first = {name: min(_first_call(name) for _ in range(3)) for name in IMPLEMENTATIONS}
    floor = wall["direct"]

    print(f"launch car, {RUNS} runs of t_end = {OPTIONS['t_end']} s: {floor / RUNS * 1e3:.2f} ms a run "
          f"(direct loop {floor * 1e3:.1f} ms), {workers} workers, best of {REPEATS}")
    print(f"{'':8}{'serial':>8}{'pooled':>8}{'serial/':>9}{'direct/':>9}{'parent CPU':>12}{'overhead':>10}"
          f"{'first call':>12}")
    print(f"{'':8}{'ms':>8}{'ms':>8}{'pooled':>9}{'pooled':>9}{'ms/run':>12}{'ms/run':>10}{'s':>12}")
    rows = {}
    for name in IMPLEMENTATIONS:
        serial, pooled = wall[name, "serial"], wall[name, "pooled"]
        rows[name] = r = [serial * 1e3, pooled * 1e3, serial / pooled, floor / pooled,
                          cpu[name, "pooled"] / RUNS * 1e3, (pooled - floor / workers) / RUNS * 1e3, first[name]]
        print(f"{name:8}{r[0]:8.1f}{r[1]:8.1f}{r[2]:8.2f}x{r[3]:8.2f}x{r[4]:12.3f}{r[5]:10.3f}{r[6]:12.2f}")
    ratio = [new / old for new, old in zip(rows["new"], rows["old"])]
    print(f"{'new/old':8}{ratio[0]:8.2f}{ratio[1]:8.2f}{ratio[2]:8.2f}x{ratio[3]:8.2f}x{ratio[4]:12.2f}{'':10}"
          f"{ratio[6]:12.2f}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--first-call"]:
        table = IMPLEMENTATIONS[sys.argv[2]](build, GRID, METRICS, progress=False, **OPTIONS)
        assert len(table) == RUNS and table["error"].isna().all()
        print(time.perf_counter() - _START)
    else:
        main()
