"""Step-by-step runs from Python: a controller written in Python in the loop, save and restore, real time."""
import time

import numpy as np
import pytest

import acausal as ac
from acausal import rotational

H, KP, KI, REFERENCE = 1e-3, 5.0, 50.0, 10.0
TIGHT = dict(rtol=1e-10, atol=1e-12, output_interval=H)


class SampledSpeedPI(ac.Component):
    """The in-model twin of the Python controller: sampled every H, output held in between."""

    def __init__(self, name):
        super().__init__(name)
        self.w = self.connector(ac.RealInput, "w")
        self.y = self.connector(ac.RealOutput, "y")
        u, integral = self.discrete("u"), self.discrete("integral")
        error = REFERENCE - self.w.value
        self.when(ac.sample(0.0, H), [integral == ac.pre(integral) + error * H,
                                      u == KP * error + KI * (ac.pre(integral) + error * H)])
        self.equation(self.y.value == u)


def speed_loop(controller_in_model):
    m = ac.Model("speed_loop")
    motor = m.add(rotational.Torque("motor"))
    inertia = m.add(rotational.Inertia("inertia", J=0.5))
    friction = m.add(rotational.Damper("friction", d=0.2))
    ground = m.add(rotational.Fixed("ground"))
    load = m.add(rotational.TorqueStep("load", stepTorque=-3.0, startTime=0.2))
    m.connect(motor.flange, inertia.flange_a)
    m.connect(inertia.flange_b, friction.flange_a)
    m.connect(friction.flange_b, ground.flange)
    m.connect(load.flange, inertia.flange_b)
    if controller_in_model:
        sensor = m.add(rotational.SpeedSensor("sensor"))
        pi = m.add(SampledSpeedPI("pi"))
        m.connect(inertia.flange_b, sensor.flange)
        m.connect(sensor.w, pi.w)
        m.connect(pi.y, motor.tau)
    else:
        m.connect(m.input("torque", unit="N.m"), motor.tau)
    m.set_start("inertia.phi", 0.0)
    m.set_start("inertia.w", 0.0)
    return m.compile()


def test_a_python_pi_in_the_loop_equals_the_same_pi_in_the_model():
    t_end = 0.5
    in_model = speed_loop(True).simulate(t_end=t_end, **TIGHT)
    session = speed_loop(False).start(t_end=t_end, **TIGHT)
    integral, speeds = 0.0, []
    steps = int(round(t_end / H))
    for k in range(steps):
        w = session.get("inertia.w")
        error = REFERENCE - w
        integral += error * H
        session.set_input("torque", KP * error + KI * integral)
        speeds.append(w)
        session.advance((k + 1) * H)
    # The model's speed at each sample instant (the last row there).
    time = in_model.time
    rows = [np.nonzero(np.abs(time - k * H) <= 1e-12)[0][-1] for k in range(steps)]
    worst = np.max(np.abs(np.array(speeds) - in_model["inertia.w"][rows]))
    assert worst < 1e-8, worst
    assert abs(session.get("inertia.w") - REFERENCE) < 0.2  # it controls
    assert len(session.result) > steps


def test_save_and_restore_reproduce_a_segment_bit_for_bit():
    session = speed_loop(False).start(t_end=1.0, **TIGHT)
    session.set_input("torque", 2.0)
    session.advance(0.1)
    saved = session.state
    session.advance(0.3)
    first = session.result
    session.set_state(saved)
    session.advance(0.3)
    again = session.result
    tail = first.time >= saved.time
    assert np.array_equal(first.time[tail], again.time[again.time >= saved.time])
    assert np.array_equal(first["inertia.w"][tail], again["inertia.w"][again.time >= saved.time])
    session.reset()
    assert session.time == 0.0 and session.get("torque") == 0.0


def test_realtime_pacing_keeps_wall_time_with_simulated_time():
    session = speed_loop(False).start(t_end=2.0, output_interval=0.01, realtime_factor=1.0)
    started = time.perf_counter()
    for k in range(1, 201):
        session.advance(k * 0.01)
    wall = time.perf_counter() - started
    assert abs(wall - 2.0) < 0.05 * 2.0, wall


def test_session_errors_are_clear():
    session = speed_loop(False).start(t_end=1.0)
    with pytest.raises(ac.UnknownNameError, match="did you mean 'inertia.w'"):
        session.get("inertia.ww")
    with pytest.raises(ac.ModelError, match="t_end"):
        session.advance(2.0)


def test_ctrl_c_stops_a_paced_advance_within_a_fraction_of_a_second():
    # Issue 30: a paced session (realtime_factor 0.02) answered Ctrl-C only when its step ended, 20 s later.
    import os
    import signal
    import threading
    import time
    session = speed_loop(False).start(t_end=2.0, output_interval=0.01, realtime_factor=0.02)
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    started = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt) as interrupted:
        session.advance(0.4)  # 20 s of wall time at this pace
    waited = time.monotonic() - started
    timer.join()
    assert waited < 1.5
    assert interrupted.value.partial_result.time[-1] < 0.4
