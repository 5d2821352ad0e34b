"""Linearization and steady state from Python, against closed forms."""
import numpy as np
import pytest

import acausal as ac
from acausal import rotational, translational
from models import pushed_mass

J1, J2, C, D = 2.0, 0.5, 400.0, 3.0


def two_inertias():
    m = ac.Model("two_inertias")
    tau = m.input("tau", unit="N.m")
    source = m.add(rotational.Torque("source"))
    i1 = m.add(rotational.Inertia("i1", J=J1))
    coupling = m.add(rotational.SpringDamper("coupling", c=C, d=D))
    i2 = m.add(rotational.Inertia("i2", J=J2))
    m.connect(tau, source.tau)
    m.connect(source.flange, i1.flange_a)
    m.connect(i1.flange_b, coupling.flange_a)
    m.connect(coupling.flange_b, i2.flange_a)
    m.output("w2", i2.w, unit="rad/s")
    for name in ("i1.phi", "i1.w", "i2.phi", "i2.w"):
        m.set_start(name, 0.0)
    return m


def test_inputs_and_outputs_of_a_model():
    sim = two_inertias().compile()
    assert sim.inputs == ["tau"] and sim.outputs == ["w2"]
    assert sim.parameters.loc["tau", "input"] and sim.parameters.loc["tau", "unit"] == "N.m"
    sim.set_parameter("tau", 3.0)
    r = sim.simulate(t_end=1.0)
    assert J1 * r["i1.w"][-1] + J2 * r["w2"][-1] == pytest.approx(3.0, rel=1e-6)  # momentum = ∫tau


def test_linearization_against_the_closed_form():
    sim = two_inertias().compile()
    lin = ac.linearize(sim)
    assert lin.inputs == ["tau"] and lin.outputs == ["w2"] and lin.A.shape == (4, 4)
    j_eff = J1 * J2 / (J1 + J2)
    expected = (-D + np.sqrt(complex(D * D - 4 * j_eff * C))) / (2 * j_eff)
    eigenvalues = np.linalg.eigvals(lin.A)
    assert np.min(np.abs(eigenvalues - expected)) < 1e-9 * abs(expected)
    modes = lin.modes()
    oscillation = modes.iloc[-1]
    assert oscillation["frequency_hz"] == pytest.approx(np.sqrt(C / j_eff) / (2 * np.pi), rel=1e-9)
    assert oscillation["damping_ratio"] == pytest.approx(D / (2 * np.sqrt(C * j_eff)), rel=1e-9)
    w = np.array([0.3, 5.0, np.sqrt(C / j_eff), 80.0])
    s = 1j * w
    closed = (D * s + C) / (s * (J1 * J2 * s**2 + (J1 + J2) * (D * s + C)))
    assert np.allclose(lin.frequency_response(w, "tau", "w2"), closed, rtol=1e-9, atol=0)
    A, B, Cm, Dm = lin.sparse()
    assert A.nnz <= 16 and np.array_equal(A.toarray(), lin.A)
    assert lin.to_scipy().A.shape == (4, 4)


def test_modes_of_a_free_rigid_body_are_zero_not_unstable_or_oscillating():
    # Two inertias on a spring, nothing fixed: a double zero (the pair turns freely) and an undamped oscillation.
    m = ac.Model("free_pair")
    i1 = m.add(rotational.Inertia("i1", J=J1))
    spring = m.add(rotational.Spring("spring", c=C))
    i2 = m.add(rotational.Inertia("i2", J=J2))
    m.connect(i1.flange_b, spring.flange_a)
    m.connect(spring.flange_b, i2.flange_a)
    for name, value in (("i1.phi", 0.0), ("i1.w", 1.0), ("i2.phi", 0.1), ("i2.w", 0.0)):
        m.set_start(name, value)
    modes = ac.linearize(m.compile()).modes()
    assert list(modes["kind"]) == ["zero", "zero", "oscillating"]
    zeros = modes[modes["kind"] == "zero"]
    assert (zeros["eigenvalue"] == 0).all() and not zeros["unstable"].any()
    assert zeros["damping_ratio"].isna().all() and zeros["time_constant"].isna().all()
    oscillation = modes.iloc[-1]
    assert not oscillation["unstable"] and oscillation["eigenvalue"].real == 0.0
    assert oscillation["damping_ratio"] == 0.0 and oscillation["time_constant"] == np.inf
    expected = np.sqrt(C * (1 / J1 + 1 / J2)) / (2 * np.pi)
    assert abs(oscillation["frequency_hz"] - expected) < 1e-9 * expected
    # The eigensolver's own values of the zero modes are round-off, well within the default tolerance.
    assert (modes["computed"].map(abs) <= 1e-9 * abs(oscillation["computed"])).sum() == 2


def test_bode_and_step_plots(tmp_path):
    lin = ac.linearize(two_inertias().compile())
    lin.bode("tau", "w2", path=str(tmp_path / "bode.png"))
    t, y = lin.step("tau", "w2", t=np.linspace(0, 2, 200), path=str(tmp_path / "step.png"))
    assert y[-1] == pytest.approx(2.0 / (J1 + J2), rel=2e-2)  # a unit torque spins the pair up at 1/(J1+J2)
    assert (tmp_path / "bode.png").stat().st_size > 10_000 and (tmp_path / "step.png").stat().st_size > 10_000
    assert "<table" in lin._repr_html_()


def test_linearize_at_a_time_of_a_run_and_its_errors():
    sim = two_inertias().compile()
    sim.set_parameter("tau", 1.0)
    r = sim.simulate(t_end=1.0, output_interval=0.25)
    assert ac.linearize(r, at=0.5).time == 0.5 and ac.linearize(r).time == 1.0
    with pytest.raises(ac.ModelError, match="no row at t = 0.3"):
        ac.linearize(r, at=0.3)
    with pytest.raises(ac.UnknownNameError, match="did you mean 'tau'"):
        ac.linearize(r, inputs=["taw"])


def test_linearize_refuses_a_time_that_is_not_finite():
    # A defect: linearize(run, at=nan) returned the model at the run's last row (t = 1).
    sim = two_inertias().compile()
    r = sim.simulate(t_end=1.0, output_interval=0.25)
    for model in (r, sim):
        for at in (float("nan"), float("inf")):
            with pytest.raises(ValueError, match=f"at = {at}, but it must be a finite time"):
                ac.linearize(model, at=at)


def test_trim_a_force_for_a_speed_and_linearize_there():
    sim = pushed_mass().compile()
    trim = ac.steady_state(sim, free=["F"], conditions={"mass.v": 10.0})
    assert trim.values["F"] == pytest.approx(40.0, rel=1e-10)  # 10 N at 5 m/s, quadratic
    assert trim["mass.v"] == pytest.approx(10.0, rel=1e-12) and trim["drag.f"] == pytest.approx(-40.0, rel=1e-10)
    assert trim.moving == ["mass.s"]
    lin = ac.linearize(trim, outputs=["mass.v"])
    v = lin.states.index("mass.v")
    assert lin.A[v, v] == pytest.approx(-2 * 10 * 10 / 25 / 2.0, rel=1e-9)
    with pytest.raises(ac.ModelError, match="singular"):
        ac.steady_state(sim, free=["mass.m"], conditions={"mass.v": 10.0})


def test_a_run_started_at_the_trim_stays_there():
    sim = pushed_mass().compile()
    trim = ac.steady_state(sim, free=["F"], conditions={"mass.v": 10.0})
    session = sim.start(t_end=10.0, output_interval=0.1, rtol=1e-8, atol=1e-10)
    session.set_point(trim.point)
    session.advance(10.0)
    assert np.max(np.abs(session.result["mass.v"] - 10.0)) < 1e-6


def test_car_trim_for_100_kmh_on_a_2_percent_grade_holds_for_10_s():
    import math
    import runpy
    import os

    example = runpy.run_path(os.path.join(os.path.dirname(__file__), "..", "..", "examples", "python",
                                          "driveline_modes.py"))
    uphill = example["build"](grade=math.atan(0.02)).compile()
    uphill.set_parameter("throttle", 0.4)
    guess = uphill.simulate(t_end=20.0, output_interval=0.1)
    trim = ac.steady_state(uphill, guess=guess, free=["throttle"], conditions={"car.body.v": 100 / 3.6})
    assert 0.0 < trim.values["throttle"] < 1.0 and trim["car.body.v"] == pytest.approx(100 / 3.6, rel=1e-12)
    session = uphill.start(t_end=30.0, output_interval=0.1, rtol=1e-8, atol=1e-10)
    session.set_point(trim.point)
    session.advance(30.0)
    r = session.result
    assert r.time[0] == 20.0 and r.time[-1] == 30.0 and len(r.event_times) == 0
    assert np.max(np.abs(r["car.body.v"] - 100 / 3.6)) < 1e-6  # drift over 10 s


def test_a_point_of_a_session_reads_the_inputs_set_before_it():
    sim = pushed_mass().compile()
    session = sim.start(t_end=20.0)
    session.set_input("F", 40.0)
    session.advance(20.0)  # v approaches 10 m/s, where drag balances 40 N
    settled = ac.steady_state(sim, guess=(session.result, 20.0))  # no free parameter: F as the row had it
    assert settled["F"] == 40.0 and settled["mass.v"] == pytest.approx(10.0, rel=1e-9)


def test_steady_state_refuses_conditions_and_settings_that_are_not_finite():
    # A defect: a NaN condition returned F = nan as a steady state, a NaN guess time an empty point.
    sim = pushed_mass().compile()
    for value in (float("nan"), float("inf")):
        with pytest.raises(ValueError, match=f"condition mass.v = {value}; it must be a finite value"):
            ac.steady_state(sim, free=["F"], conditions={"mass.v": value})
    with pytest.raises(ValueError, match="tolerance = nan"):
        ac.steady_state(sim, free=["F"], conditions={"mass.v": 10.0}, tolerance=float("nan"))
    run = sim.simulate(t_end=1.0, output_interval=0.25)
    with pytest.raises(ValueError, match="guess's time is nan"):
        ac.steady_state(sim, guess=(run, float("nan")))
