"""Sweeps on a real dask cluster (a scheduler and two workers as separate processes, as on
machines of their own): the rows equal the serial ones, and killing a worker mid-sweep
loses no point (dask reruns its tasks elsewhere)."""
import collections
import os
import signal
import socket
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import acausal as ac

from models import final_position, oscillator

distributed = pytest.importorskip("distributed")

GRID = {"spring.c": [20.0, 50.0, 100.0, 200.0, 400.0, 800.0], "damper.d": [1.0, 2.0, 4.0, 8.0]}
OPTIONS = dict(t_end=3.0, output_interval=0.05)
STARTUP_TIMEOUT = 60  # seconds for the cluster to come up; a hang fails instead of blocking


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for_port(port, process, deadline):
    while time.monotonic() < deadline:
        assert process.poll() is None, "the dask scheduler exited"
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise TimeoutError(f"no dask scheduler on port {port}")


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """(client, worker processes): workers import acausal and the test models via PYTHONPATH."""
    logs = tmp_path_factory.mktemp("dask")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.dirname(ac.__path__[0]), os.path.dirname(__file__)]))
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    processes = []
    client = None

    def start(name, *args):
        with open(logs / f"{name}.log", "w") as log:
            processes.append(subprocess.Popen([sys.executable, "-m", *args], env=env, stdout=log,
                                              stderr=subprocess.STDOUT))
        return processes[-1]

    try:
        scheduler = start("scheduler", "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port",
                          str(port), "--no-dashboard")
        _wait_for_port(port, scheduler, time.monotonic() + STARTUP_TIMEOUT)
        workers = [start(f"worker{i}", "distributed.cli.dask_worker", address, "--nworkers", "1",
                         "--nthreads", "1", "--no-nanny", "--no-dashboard", "--name", f"worker{i}")
                   for i in range(2)]
        client = distributed.Client(address, timeout=STARTUP_TIMEOUT)
        client.wait_for_workers(2, timeout=STARTUP_TIMEOUT)
        yield client, workers
    finally:
        if client is not None:
            client.close(timeout=10)
        for process in processes:
            process.kill()
        for process in processes:
            process.wait(timeout=10)


def test_a_cluster_gives_the_serial_rows_and_each_worker_compiles_once(cluster, tmp_path):
    client, _ = cluster
    log = tmp_path / "compiles"
    mass = 3.0

    def build():  # a closure, logging where it compiles
        with open(log, "a") as f:
            f.write(f"{os.getpid()}\n")
        return oscillator(m=mass)

    metrics = {"x_end": lambda r: float(r["mass.s"][-1]), "v_max": lambda r: float(r["mass.v"].max())}
    serial = ac.sweep(build, GRID, metrics, executor="serial", progress=False, **OPTIONS)
    log.unlink()
    for executor in (client, client.get_executor()):
        on_cluster = ac.sweep(build, GRID, metrics, executor=executor, progress=False, **OPTIONS)
        assert on_cluster["error"].isna().all()
        for column in ("spring.c", "damper.d", "x_end", "v_max"):
            assert np.array_equal(serial[column].to_numpy(), on_cluster[column].to_numpy())
    compiled_in = log.read_text().split()
    assert len(compiled_in) == len(set(compiled_in)) <= 2  # 48 runs, at most one compilation per worker


def test_a_worker_killed_mid_sweep_loses_no_point(cluster, tmp_path):
    client, workers = cluster
    victim = workers[0]
    log = tmp_path / "runs"
    grid = {"spring.c": [10.0 * (i + 1) for i in range(20)]}

    def slow_final_position(r):  # about 80 ms a run, and a line "pid value" as each run starts its metric
        with open(log, "a") as f:
            f.write(f"{os.getpid()} {final_position(r)!r}\n")
        time.sleep(0.08)
        return final_position(r)

    def kill_when_busy():  # as soon as the victim is inside a run
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if log.exists() and f"{victim.pid} " in log.read_text():
                victim.send_signal(signal.SIGKILL)
                return
            time.sleep(0.01)

    serial = ac.sweep(oscillator, grid, {"x": final_position}, executor="serial", progress=False, **OPTIONS)
    killer = threading.Thread(target=kill_when_busy)
    killer.start()
    frame = ac.sweep(oscillator, grid, {"x": slow_final_position}, executor=client, progress=False,
                     batch_size=2, **OPTIONS)
    killer.join()
    assert victim.wait(timeout=10) == -signal.SIGKILL

    assert len(frame) == 20 and np.array_equal(frame["spring.c"].to_numpy(), serial["spring.c"].to_numpy())
    ok = frame["error"].isna()
    assert np.array_equal(frame["x"][ok].to_numpy(), serial["x"][ok].to_numpy())
    assert frame["error"][~ok].str.len().gt(0).all()
    runs = collections.Counter(line.split()[1] for line in log.read_text().splitlines())
    retried = sum(count > 1 for count in runs.values())
    print(f"{retried} of 20 points were retried after the kill; {int((~ok).sum())} rows carry an error")
    assert retried >= 1  # the run the victim was inside of ran again on the other worker
