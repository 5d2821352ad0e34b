"""Hybrid models from Python: discrete variables, when-clauses, pre(), reinit(),
sample() (Modelica semantics), against closed forms and exact recursions."""
import math

import numpy as np
import pytest

import acausal as ac

from models import G as g, BouncingBall


def hybrid_counts(sim):
    return next(p for p in sim.report["passes"] if p["pass"] == "hybrid")["counts"]


def changes(result, name):
    """Indices i where result[name] changes between rows i-1 and i (the right limit of an event)."""
    values = result[name]
    return [i for i in range(1, len(values)) if values[i] != values[i - 1]]


def test_bouncing_ball_bounces_at_the_closed_form_instants():
    m = ac.Model("ball")
    ball = m.add(BouncingBall("ball"))
    assert "bounces" in repr(ball.bounces)  # a discrete is an attribute like a variable
    sim = m.compile()
    assert hybrid_counts(sim)["when_clauses"] == 1
    assert hybrid_counts(sim)["discrete_variables"] == 1
    e, h0 = 0.8, 1.0
    t1 = math.sqrt(2 * h0 / g)
    v1 = g * t1
    expected = [t1]
    for k in range(1, 3):
        expected.append(expected[-1] + 2 * e**k * v1 / g)
    r = sim.simulate(t_end=expected[-1] + 0.05, output_interval=0.001, rtol=1e-10, atol=1e-12)
    rows = changes(r, "ball.bounces")
    assert len(rows) == 3
    t, bounces, v = r.time, r["ball.bounces"], r["ball.v"]
    for k, i in enumerate(rows):
        assert t[i] == pytest.approx(expected[k], abs=1e-6), f"bounce {k + 1}"
        # The left limit, then the right limit of the event (the crossing back
        # that follows the reinit at once continues the same event).
        assert abs(t[i] - t[i - 1]) < 1e-12
        assert bounces[i - 1] == k and bounces[i] == k + 1
        assert v[i - 1] == pytest.approx(-e**k * v1, abs=1e-6)  # falling at the closed-form speed
        assert v[i] == pytest.approx(-e * v[i - 1], rel=1e-12)  # reinit(v, -e * pre(v))
    assert bounces[-1] == 3
    assert r["ball.h"].min() > -1e-9


class SampledLoop(ac.Component):
    """A PI controller sampled every 10 ms on a first-order plant T*y' = u - y,
    u held between samples (zero-order hold)."""

    def __init__(self, name, kp=2.0, ki=5.0, T=0.3, reference=1.0):
        super().__init__(name)
        kp = self.parameter("kp", kp)
        ki = self.parameter("ki", ki)
        T = self.parameter("T", T, unit="s")
        reference = self.parameter("reference", reference)
        y = self.variable("y", start=0.0, fixed=True)
        u = self.discrete("u")
        integral = self.discrete("integral")
        error = reference - y
        self.when(ac.sample(0, 0.01), [integral == ac.pre(integral) + error * 0.01,
                                       u == kp * error + ki * (ac.pre(integral) + error * 0.01)])
        self.equation(T * ac.der(y) == u - y)


def test_sampled_pi_controller_follows_the_exact_discrete_recursion():
    m = ac.Model("loop")
    m.add(SampledLoop("pi"))
    sim = m.compile()
    assert hybrid_counts(sim)["samples"] == 1
    kp, ki, h, T, reference = 2.0, 5.0, 0.01, 0.3, 1.0
    a = math.exp(-h / T)
    r = sim.simulate(t_end=1.0, output_interval=0.005, rtol=1e-11, atol=1e-13)
    t, y, u, integral = r.time, r["pi.y"], r["pi.u"], r["pi.integral"]
    # At t_k: e_k = r - y_k, I_k = I_(k-1) + e_k*h, u_k = kp*e_k + ki*I_k; the
    # plant then relaxes exactly toward u_k over one period.
    yk = ik = worst_y = worst_u = 0.0
    row = 0
    for k in range(100):
        tk = k * h
        while row < len(t) and t[row] < tk - 1e-12:
            row += 1
        assert row + 1 < len(t)
        if k > 0:  # the row after the sample's event iteration (its right limit) holds u_k
            assert t[row + 1] == pytest.approx(tk, abs=1e-12)
            row += 1
        ek = reference - yk
        ik += ek * h
        uk = kp * ek + ki * ik
        worst_y = max(worst_y, abs(y[row] - yk))
        worst_u = max(worst_u, abs(u[row] - uk) + abs(integral[row] - ik))
        yk = yk * a + (1 - a) * uk
    assert worst_y < 1e-8
    assert worst_u < 1e-8


class Thermostat(ac.Component):
    """Hysteresis defined by a discrete equation with pre(); edge() and change() count switches."""

    def __init__(self, name):
        super().__init__(name)
        k = self.parameter("k", 0.5, unit="1/s")
        heating = self.parameter("heating", 15.0, unit="K/s")
        T_low = self.parameter("T_low", 19.0, unit="K")
        T_high = self.parameter("T_high", 21.0, unit="K")
        T = self.variable("T", unit="K", start=20.0, fixed=True)
        on = self.discrete("on", start=1, kind="boolean")
        switched_on = self.discrete("switched_on", kind="integer")
        switches = self.discrete("switches", kind="integer")
        self.equation(on == ac.ifelse(ac.pre(on), T < T_high, T < T_low))
        self.equation(ac.der(T) == -k * T + heating * on)
        self.when(ac.edge(on), [switched_on == ac.pre(switched_on) + 1])
        self.when(ac.change(on), [switches == ac.pre(switches) + 1])


def test_thermostat_with_pre_edge_and_change_switches_at_the_closed_form_instants():
    m = ac.Model("room")
    m.add(Thermostat("th"))
    r = m.compile().simulate(t_end=20.0, output_interval=0.01, rtol=1e-11, atol=1e-13)
    k = 0.5
    expected = [math.log(10.0 / 9.0) / k]
    for i in range(1, 8):
        expected.append(expected[-1] + math.log(21.0 / 19.0 if i % 2 else 11.0 / 9.0) / k)
    rows = changes(r, "th.on")
    assert len(rows) >= len(expected)
    for n, i in enumerate(rows[: len(expected)]):
        assert r.time[i] == pytest.approx(expected[n], abs=1e-7)
        assert r["th.T"][i] == pytest.approx(21.0 if n % 2 == 0 else 19.0, abs=1e-8)
    assert r["th.switches"][-1] == len(rows)
    assert r["th.switched_on"][-1] == len(rows) // 2  # every other switch turns it on
    assert changes(r, "th.switches") == rows


def test_operators_accept_numbers_and_print_like_modelica():
    assert str(ac.equal(2, 2.0)) and str(ac.edge(1)) and str(ac.change(0.5)) and str(ac.pre(3))
    assert "initial" in str(ac.initial())
    assert "sample" in str(ac.sample(0, 0.1))
    x = ac.Component("c").variable("x")
    assert repr(ac.reinit(x, 0)).startswith("reinit(")
    assert isinstance(ac.reinit(x, 1.5), ac.WhenAction)


def test_a_sample_interval_may_be_a_parameter_but_not_a_variable():
    class Sampled(ac.Component):
        def __init__(self, name, period):
            super().__init__(name)
            x = self.variable("x", start=0.0, fixed=True)
            period = self.parameter("period", period, unit="s") if period is not None else x
            n = self.discrete("n", kind="integer")
            self.equation(ac.der(x) == 1)
            self.when(ac.sample(0.05, period), [n == ac.pre(n) + 1])

    m = ac.Model("clock")
    m.add(Sampled("c", 0.1))
    r = m.compile().simulate(t_end=1.0, output_interval=0.01, rtol=1e-10, atol=1e-12)
    ticks = r.time[changes(r, "c.n")]
    assert np.allclose(ticks, 0.05 + 0.1 * np.arange(10), atol=1e-12)
    with pytest.raises(ValueError, match="parameter expressions"):
        Sampled("c", None)


# --- errors: clear exceptions, never a crash ---

def test_an_unknown_discrete_kind_is_a_value_error_listing_the_kinds():
    c = ac.Component("c")
    with pytest.raises(ValueError, match="'real', 'boolean' or 'integer', not 'float'"):
        c.discrete("d", kind="float")


def model_of(component):
    m = ac.Model("bad")
    m.add(component)
    return m


class Undetermined(ac.Component):
    def __init__(self, name):
        super().__init__(name)
        self.x = self.variable("x", start=0.0, fixed=True)
        self.d = self.discrete("d")
        self.equation(ac.der(self.x) == self.d)


def test_a_discrete_that_nothing_determines_is_a_model_error_naming_it():
    with pytest.raises(ac.ModelError, match="nothing determines discrete variable c.d"):
        model_of(Undetermined("c")).compile()


def test_a_when_action_that_does_not_assign_a_discrete_is_a_model_error():
    class AssignsAState(Undetermined):
        def __init__(self, name):
            super().__init__(name)
            self.equation(self.d == 1)
            self.when(self.x > 1, [self.x == 2.0])

    with pytest.raises(ac.ModelError, match="is neither"):
        model_of(AssignsAState("c")).compile()

    class NotAnAction(Undetermined):
        def __init__(self, name):
            super().__init__(name)
            self.when(self.x > 1, [self.d == 2.0, self.x > 2])

    with pytest.raises(ac.ModelError, match="x > 2 is neither"):
        NotAnAction("c")

    class ReinitsADiscrete(Undetermined):
        def __init__(self, name):
            super().__init__(name)
            self.when(self.x > 1, [ac.reinit(self.d, 0.0)])

    with pytest.raises(ac.ModelError, match="reinit"):
        model_of(ReinitsADiscrete("c")).compile()


def test_bad_when_clauses_and_declarations_are_model_errors():
    c = ac.Component("c")
    x = c.variable("x")
    d = c.discrete("d")
    with pytest.raises(ac.ModelError, match="needs a condition"):
        c.when([], [d == 1])
    with pytest.raises(ac.ModelError, match="is an equation, not a condition"):
        c.when(x == 1, [d == 1])
    with pytest.raises(ac.ModelError, match="a when-condition is an expression"):
        c.when("x > 1", [d == 1])
    with pytest.raises(ac.ModelError, match="twice"):
        c.discrete("d")
    with pytest.raises(ac.ModelError, match="as a variable and as a discrete"):
        c.discrete("x")
    with pytest.raises(ac.ModelError, match="not finite"):
        c.discrete("nan", start=float("nan"))
    # A list of conditions and a single action without a list are accepted.
    c.when([x > 1, ac.initial()], d == 2)


def test_two_definitions_of_a_discrete_are_a_model_error():
    class Twice(Undetermined):
        def __init__(self, name):
            super().__init__(name)
            self.equation(self.d == 1.0)
            self.when(self.x > 1.0, [self.d == 2.0])

    with pytest.raises(ac.ModelError, match="one or the other"):
        model_of(Twice("c")).compile()


def test_hybrid_methods_need_the_component_constructed():
    class Forgot(ac.Component):
        def __init__(self, name):
            self.d = self.discrete("d")

    with pytest.raises(TypeError, match="super"):
        Forgot("c")


def test_msl_brake_from_python_with_a_friction_table():
    """A translational Brake with mu_pos given as pairs stops a sliding mass at the closed-form instant."""
    m = ac.Model("brake")
    mass = m.add(ac.translational.Mass("mass", m=1.0))
    brake = m.add(ac.translational.Brake("brake", fn_max=1.0, mu_pos=[(0.0, 0.5), (10.0, 0.5)]))
    pressed = m.add(ac.blocks.Step("pressed", startTime=0.1, height=2.0))
    m.connect(mass.flange_b, brake.flange_a)
    m.connect(pressed.y, brake.f_normalized)
    m.set_start("mass.s", 0.0)
    m.set_start("mass.v", 1.0)
    r = m.compile().simulate(t_end=2.0, output_interval=0.01, rtol=1e-8, atol=1e-10)
    # f = mu·fn = 0.5·2 N from t = 0.1: v = 1 - (t - 0.1), stuck from t = 1.1 at s = 0.6.
    assert abs(r["mass.s"][-1] - 0.6) < 1e-6
    assert abs(r["mass.v"][-1]) < 1e-9
    assert r["brake.mode"][-1] == 0
    with pytest.raises(ValueError):
        ac.translational.Brake("bad", mu_pos=[(0.0,)])  # pairs, not single numbers
