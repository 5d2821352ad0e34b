"""simulate() from Python costs what it costs from C++ (the GIL is released, no Python in the loop)."""
import os
import statistics
import subprocess
import time

import pytest

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


def test_native_code_runs_a_python_component_bit_for_bit(tmp_path, monkeypatch):
    """compile(native_code=True) builds the tapes of a model with a Python component to machine code: same numbers."""
    import numpy as np
    import acausal as ac
    from models import SmoothFrictionDamper

    monkeypatch.setenv("ACAUSAL_CACHE_DIR", str(tmp_path))
    m = ac.Model("damped")
    inertia = m.add(ac.rotational.Inertia("inertia", J=0.5))
    damper = m.add(SmoothFrictionDamper("damper", d=0.2, tau_c=1.0))
    fixed = m.add(ac.rotational.Fixed("fixed"))
    m.connect(inertia.flange_b, damper.flange_a)
    m.connect(damper.flange_b, fixed.flange)
    m.set_start("inertia.phi", 0.0)
    m.set_start("inertia.w", 10.0)
    tape, native = m.compile(), m.compile(native_code=True)
    assert any(p["pass"] == "native_code" for p in native.report["passes"])
    assert list(tmp_path.glob("acausal-*.so"))
    a = tape.simulate(t_end=2.0, output_interval=0.01)
    b = native.simulate(t_end=2.0, output_interval=0.01)
    assert np.array_equal(a["inertia.w"], b["inertia.w"]) and np.array_equal(a.time, b.time)
    assert a["inertia.w"][-1] < 10.0 - 1.0  # the friction did slow it
    with pytest.raises(ac.ModelError, match="C compiler failed"):
        m.compile(native_code=True, c_compiler="/nonexistent/cc")
