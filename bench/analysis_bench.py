"""Cost of the analysis features against a plain run of the same model, in one process.

The car coasting 120 s from 30 m/s (examples/python/coastdown_calibration.py):
a plain simulate() is the baseline; the same run with 1, 2 and 3 forward
sensitivities (IDAS); a central finite-difference gradient of the same
parameters (2 runs each) for comparison; a linearization at the end point.
Medians of repeated runs, reported as ratios to the plain run.

    PYTHONPATH=build/python /usr/bin/python3 bench/analysis_bench.py
"""
import os
import runpy
import statistics
import time

import acausal as ac

ROOT = os.path.join(os.path.dirname(__file__), "..")
PARAMETERS = ["car.body.Cd", "car.body.Crr", "car.body.m"]


def median_seconds(run, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(repeats=7):
    example = runpy.run_path(os.path.join(ROOT, "examples", "python", "coastdown_calibration.py"))
    sim = example["build"]().compile()
    options = dict(t_end=120.0, output_interval=0.1, rtol=1e-8, atol=1e-10)
    plain = median_seconds(lambda: sim.simulate(**options), repeats)
    print(f"plain run: {1e3 * plain:.1f} ms ({sim.simulate(**options).statistics['steps']} steps)")
    for k in (1, 2, 3):
        names = PARAMETERS[:k]
        with_sensitivities = median_seconds(lambda: sim.simulate(sensitivities=names, **options), repeats)
        print(f"with {k} sensitivit{'y' if k == 1 else 'ies'}: {1e3 * with_sensitivities:.1f} ms, "
              f"{with_sensitivities / plain:.2f}x the plain run (central differences: {2 * k:.0f}x, "
              f"{2 * k * plain / with_sensitivities:.2f}x slower than the sensitivities)")
    run = sim.simulate(**options)
    linearize = median_seconds(lambda: ac.linearize(run, at=120.0), repeats)
    print(f"linearize at the end point: {1e3 * linearize:.2f} ms, {100 * linearize / plain:.2f} % of the plain run")


if __name__ == "__main__":
    main()
