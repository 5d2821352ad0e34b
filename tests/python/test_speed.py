"""simulate() from Python costs what it costs from C++ (the GIL is released, no Python in the loop)."""
import os
import statistics
import subprocess
import time

from models import rolling_wheel


def python_median(repeats=21):
    sim = rolling_wheel().compile()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        sim.simulate(t_end=5.0, output_interval=1e-3)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def test_python_simulate_costs_what_cpp_does():
    build = os.environ.get("ACAUSAL_BUILD", os.path.join(os.path.dirname(__file__), "..", "..", "build"))
    program = os.path.join(build, "bench", "rolling_wheel_timing")
    cpp = float(subprocess.run([program, "21"], check=True, capture_output=True, text=True).stdout)
    py = python_median()
    print(f"rolling wheel simulate: C++ {cpp * 1e3:.3f} ms, Python {py * 1e3:.3f} ms, ratio {py / cpp:.3f}")
    # Generous bound for a shared CI machine; the note reports the measured ratio.
    assert py < 1.5 * cpp + 2e-3
