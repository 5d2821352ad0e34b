"""simulate() options as in C++, and runs that Ctrl-C stops."""
import os
import signal
import threading
import time

import numpy as np
import pytest

import acausal as ac

from models import oscillator


@pytest.fixture(scope="module")
def sim():
    return oscillator().compile()


def test_sigint_stops_a_long_run_within_0_2_s_with_the_partial_result():
    undamped = oscillator(d=0.0).compile()  # oscillates for ever: hours of steps at this tolerance
    sent = {}

    def interrupt():
        sent["at"] = time.perf_counter()
        os.kill(os.getpid(), signal.SIGINT)

    timer = threading.Timer(0.5, interrupt)
    started = time.perf_counter()
    timer.start()
    with pytest.raises(KeyboardInterrupt) as caught:
        undamped.simulate(t_end=1e6, output_interval=1.0, rtol=1e-12, atol=1e-14)
    stopped = time.perf_counter()
    timer.join()
    assert stopped - sent["at"] < 0.2, f"stopped {stopped - sent['at']:.3f} s after SIGINT"
    assert stopped - started > 0.45
    partial = caught.value.partial_result
    assert len(partial) > 1 and np.all(np.isfinite(partial["mass.s"]))
    # Python's own handler is back: a SIGINT now raises at once, as always.
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    with pytest.raises(KeyboardInterrupt):
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(1.0)


def test_max_steps_bounds_a_long_run(sim):
    with pytest.raises(ac.SimulationError, match="failed") as caught:
        sim.simulate(t_end=100.0, output_interval=100.0, max_steps=10)
    assert caught.value.time_reached < 100.0


def test_output_at_given_times(sim):
    times = [0.05, 0.3, 0.31, 1.7]
    r = sim.simulate(t_eval=times)
    assert list(r.time) == times
    full = sim.simulate(t_end=1.7, output_interval=0.01, rtol=1e-10, atol=1e-12)
    fine = sim.simulate(t_eval=times, rtol=1e-10, atol=1e-12)
    assert np.allclose(fine["mass.s"], np.interp(times, full.time, full["mass.s"]), atol=1e-6)
    assert list(sim.simulate(t_eval=[0.0, 0.5], t_end=2.0).time) == [0.0, 0.5]
    with pytest.raises(ac.ModelError, match=r"output_times\[1\] = 0.2, but it must be greater than the time before"):
        sim.simulate(t_eval=[0.5, 0.2], t_end=1.0)
    with pytest.raises(ac.ModelError, match=r"output_times\[0\] = 3, but it must be within \[t_start, t_end\]"):
        sim.simulate(t_eval=[3.0], t_end=2.0)


def test_step_options_are_passed_and_checked(sim):
    bounded = sim.simulate(t_end=1.0, max_step=1e-3)
    assert bounded.statistics["steps"] >= 1000
    sim.simulate(t_end=1.0, initial_step=1e-6)
    with pytest.raises(ac.ModelError, match="initial_step = -1"):
        sim.simulate(initial_step=-1.0)
    assert sim.simulate(t_end=0.1, dense_threshold=0).statistics["linear_solver"] == "klu"
    with pytest.raises(ac.ModelError, match="linear_solver"):
        sim.simulate(linear_solver="lu")


def test_a_run_in_a_worker_thread_is_not_touched_by_the_signal_machinery(sim):
    results = []
    worker = threading.Thread(target=lambda: results.append(sim.simulate(t_end=0.5)))
    worker.start()
    worker.join()
    assert len(results[0]) == 51 and signal.getsignal(signal.SIGINT) is signal.default_int_handler
