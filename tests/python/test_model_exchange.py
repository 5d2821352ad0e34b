"""Model Exchange from Python: scipy's solve_ivp integrates a model's states,
the model gives derivatives, event indicators and the event iteration
(Simulator.start_model_exchange). Checked against the closed form of the
bouncing ball's impacts and against the library's own run of a mass–spring–damper."""
import math

import numpy as np
import pytest
from scipy.integrate import solve_ivp

import acausal as ac

from models import G as g, BouncingBall


def integrate(me, t_end, rtol=1e-10, atol=1e-12):
    """A host's loop: solve_ivp between events, event() at each sign change of an indicator.
    Returns the times of the events that moved a state (reinit)."""
    events_at = []
    t = me.time
    while t < t_end:
        x0 = me.states

        def rhs(time, x):
            me.time, me.states = time, list(x)
            return me.derivatives()

        def indicator(k):
            def z(time, x):
                me.time, me.states = time, list(x)
                return me.event_indicators()[k]
            z.terminal = True
            return z

        stop = min(t_end, me.next_time_event)
        solution = solve_ivp(rhs, (t, stop), x0, method="LSODA", rtol=rtol, atol=atol,
                             events=[indicator(k) for k in range(me.n_event_indicators)])
        t = solution.t[-1]
        me.time, me.states = t, list(solution.y[:, -1])
        if solution.status == 1:
            # The root solve_ivp locates may still read the old side: a hair past it, as a root
            # finder's bracket ends after the sign change (an explicit Euler step of 1e-12 s).
            dx = np.array(me.derivatives())
            t += 1e-12
            me.time, me.states = t, list(solution.y[:, -1] + 1e-12 * dx)
        if solution.status == 1 or t >= me.next_time_event:
            states_changed, _ = me.event()
            if states_changed:
                events_at.append(t)
    return events_at


def test_solve_ivp_bounces_the_ball_at_the_closed_form_impacts():
    m = ac.Model("ball")
    m.add(BouncingBall("ball", e=0.8))
    me = m.compile().start_model_exchange(t_end=2.0, rtol=1e-10)
    assert me.n_event_indicators == 1
    assert sorted(me.state_names) == ["ball.h", "ball.v"]
    # Each impact moves the speed; the ball's rise back through h = 0 right after is an event too
    # (the relation h < 0 turns false), one that moves no state.
    events = integrate(me, 1.8)
    t1 = math.sqrt(2 / g)
    expected = [t1 + sum(2 * 0.8**j * g * t1 / g for j in range(1, k + 1)) for k in range(3)]
    assert len(events) >= 3
    assert np.allclose(events[:3], expected, rtol=0, atol=1e-6)
    assert me.get("ball.bounces") == len(events)


class Oscillator(ac.Component):
    """m·s'' = −c·s − d·s', released from s = 0.1 m."""

    def __init__(self, name):
        super().__init__(name)
        s = self.variable("s", unit="m", start=0.1, fixed=True)
        v = self.variable("v", unit="m/s", start=0.0, fixed=True)
        self.equation(ac.der(s) == v)
        self.equation(2.0 * ac.der(v) == -50.0 * s - 3.0 * v)


def test_derivatives_of_an_oscillator_match_its_equations_and_the_library_run():
    m = ac.Model("oscillator")
    m.add(Oscillator("o"))
    sim = m.compile()
    me = sim.start_model_exchange(t_end=2.0)
    names = me.state_names
    assert sorted(names) == ["o.s", "o.v"]
    me.time = 0.3
    me.states = [0.05 if n == "o.s" else -0.4 for n in names]
    dx = dict(zip(names, me.derivatives()))
    assert dx["o.s"] == pytest.approx(-0.4, abs=1e-12)
    assert dx["o.v"] == pytest.approx((-50.0 * 0.05 + 3.0 * 0.4) / 2.0, rel=1e-10)
    assert me.get("der(o.v)") == dx["o.v"]
    # Integrated by solve_ivp from the initial point, it follows the library's own run.
    me = sim.start_model_exchange(t_end=2.0)
    r = sim.simulate(t_end=2.0, rtol=1e-10, atol=1e-12, t_eval=[2.0])
    integrate(me, 2.0)
    assert me.time == pytest.approx(2.0, abs=1e-9)
    assert me.get("o.s") == pytest.approx(r["o.s"][-1], abs=1e-7)
    assert abs(r["o.s"][-1]) > 1e-3  # it still moves: the comparison is not of two zeros
