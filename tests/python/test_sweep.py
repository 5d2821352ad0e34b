"""Sweeps: the same rows serially, on a process pool and on a dask LocalCluster."""
import math

import numpy as np
import pytest

import acausal as ac

from models import final_position, oscillator, peak_speed

GRID = {"spring.c": [20.0, 50.0, 100.0, 200.0, 400.0, 800.0], "damper.d": [1.0, 2.0, 4.0, 8.0]}  # 24 runs
METRICS = {"final_position": final_position, "peak_speed": peak_speed}
OPTIONS = dict(t_end=3.0, output_interval=0.05)


def test_serial_process_pool_and_dask_agree():
    serial = ac.sweep(oscillator, GRID, METRICS, executor="serial", progress=False, **OPTIONS)
    assert len(serial) == 24 and serial["error"].isna().all()
    # Physics: the stiffest, best damped case has settled at F/c by t = 3 s (envelope e^-6).
    settled = serial[(serial["spring.c"] == 800.0) & (serial["damper.d"] == 8.0)]["final_position"]
    assert settled.iloc[0] == pytest.approx(10.0 / 800.0, rel=0.01)

    pooled = ac.sweep(oscillator, GRID, METRICS, progress=False, **OPTIONS)
    assert np.array_equal(serial["final_position"].to_numpy(), pooled["final_position"].to_numpy())
    assert np.array_equal(serial["peak_speed"].to_numpy(), pooled["peak_speed"].to_numpy())

    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, host="127.0.0.1", dashboard_address=None,
                                  processes=True) as cluster, distributed.Client(cluster) as client:
        on_dask = ac.sweep(oscillator, GRID, METRICS, executor=client.get_executor(), progress=False, **OPTIONS)
    assert np.array_equal(serial["final_position"].to_numpy(), on_dask["final_position"].to_numpy())


def test_failures_are_rows_with_the_error():
    grid = [{"mass.m": 2.0}, {"mass.m": -1.0}, {"mass.m": 1e-300}, {"mass.m": 4.0}]
    frame = ac.sweep(oscillator, grid, METRICS, executor="serial", progress=False, t_end=2.0, output_interval=0.1)
    assert len(frame) == 4
    assert frame["error"][0] is None and frame["error"][3] is None
    assert "mass.m" in frame["error"][1] and "ModelError" in frame["error"][1]
    assert "SimulationError" in frame["error"][2]  # accelerations overflow: the solver fails
    assert math.isnan(frame["final_position"][1])
    direct = oscillator(m=4.0).compile().simulate(t_end=2.0, output_interval=0.1)
    assert frame["final_position"][3] == final_position(direct)  # runs after a failure are unaffected
