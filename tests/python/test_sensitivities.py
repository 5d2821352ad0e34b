"""Parameter sensitivities from Python: against finite differences, and the calibration they serve."""
import os
import runpy

import numpy as np
import pytest

import acausal as ac
from acausal import translational

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")


def coasting_car():
    return runpy.run_path(os.path.join(ROOT, "examples", "python", "coastdown_calibration.py"))


def test_sensitivities_of_the_coasting_car_match_central_differences():
    example = coasting_car()
    sim = example["build"]().compile()
    options = dict(t_end=20.0, output_interval=1.0, rtol=1e-10, atol=1e-12)
    run = sim.simulate(sensitivities=["car.body.Cd", "car.wheel_rl.J"], **options)
    assert run.sensitivity_parameters == ["car.body.Cd", "car.wheel_rl.J"]
    # The step balances the difference's truncation (h²) against the runs' integration error (rtol/h).
    for name, relative_step in (("car.body.Cd", 1e-3), ("car.wheel_rl.J", 1e-2)):
        p0 = sim.parameter(name)
        h = relative_step * p0
        sim.set_parameter(name, p0 + h)
        up = sim.simulate(**options)
        sim.set_parameter(name, p0 - h)
        down = sim.simulate(**options)
        sim.set_parameter(name, p0)
        # An event's rows sit at its instant, which moves with the parameter: compare the rows at common times.
        same = (up.time == run.time) & (down.time == run.time)
        assert same.sum() >= 20
        central = ((up["car.body.v"] - down["car.body.v"]) / (2 * h))[same]
        s = run.sensitivity("car.body.v", name)[same]
        assert np.max(np.abs(s - central)) <= 1e-5 * np.max(np.abs(central)), name


def test_a_sensitivity_names_what_is_missing():
    m = ac.Model("push")
    mass = m.add(translational.Mass("mass", m=2.0))
    force = m.add(translational.ConstantForce("force", f_constant=4.0))
    m.connect(force.flange, mass.flange_a)
    m.set_start("mass.s", 0.0)
    m.set_start("mass.v", 0.0)
    sim = m.compile()
    run = sim.simulate(t_end=1.0, sensitivities=["mass.m"])
    # v = F·t/m: dv/dm = -F·t/m²
    assert np.allclose(run.sensitivity("mass.v", "mass.m"), -4.0 * run.time / 4.0, rtol=1e-6, atol=1e-9)
    with pytest.raises(ac.UnknownNameError, match="mass.m"):
        run.sensitivity("mass.v", "mass.mm")
    with pytest.raises(ac.UnknownNameError, match="mass.m"):
        sim.simulate(t_end=1.0, sensitivities=["mass.mm"])


def test_the_coast_down_calibration_recovers_drag_and_rolling_resistance_within_1_percent():
    pytest.importorskip("scipy")
    example = coasting_car()
    fit = example["main"](plot=False)
    for name, true in example["TRUE"].items():
        assert fit[name] == pytest.approx(true, rel=0.01), name
        # The reported uncertainty covers the actual error (within three standard errors).
        assert abs(fit[name] - true) <= 3 * fit.standard_errors[name]
    assert fit.residual_rms["car.body.v"] == pytest.approx(0.05, rel=0.2)  # the noise that was added
    assert fit.optimizer.nfev <= 20


def test_a_run_with_sensitivities_is_the_same_after_plain_runs_of_the_simulator():
    # A defect: IDACalcIC ran with the sensitivities off, so IDAS never computed
    # their error weights and read whatever memory held; after two plain runs
    # this run failed at t = 0 (corrector convergence), otherwise it took other steps.
    example = coasting_car()
    options = dict(t_end=1.0, output_interval=0.5, rtol=1e-6, atol=1e-8, sensitivities=["car.body.Cd"])
    first = example["build"]().compile().simulate(**options)
    sim = example["build"]().compile()
    sim.simulate(t_end=1.0)
    sim.simulate(t_end=1.0)
    later = sim.simulate(**options)
    assert later.statistics["steps"] == first.statistics["steps"]
    assert np.array_equal(later.sensitivity("car.body.v", "car.body.Cd"), first.sensitivity("car.body.v", "car.body.Cd"))


def pushed_mass():
    """A constant force on a mass, and beside it a mass nothing pushes (its m changes no trace)."""
    m = ac.Model("push")
    mass = m.add(translational.Mass("mass", m=2.0))
    force = m.add(translational.ConstantForce("force", f_constant=4.0))
    m.connect(force.flange, mass.flange_a)
    m.add(translational.Mass("idle", m=1.0))
    for name in ("mass.s", "mass.v", "idle.s", "idle.v"):
        m.set_start(name, 0.0)
    return m.compile()


def noisy_speed(sim, seed=1):
    t = np.linspace(0.1, 1.0, 10)
    truth = sim.simulate(t_end=1.0, t_eval=list(t))
    return t, truth["mass.v"] + np.random.default_rng(seed).normal(0.0, 0.01, len(t))


def test_calibrate_names_parameters_that_enter_only_as_their_ratio():
    # A defect: v = F·t/m determines only F/m, yet the fit reported m = 3 ± 0.0032 and F = 6.009 ± 0.0045
    # (the pseudo-inverse of a singular JᵀJ). Now the rank deficiency is found and named.
    pytest.importorskip("scipy")
    sim = pushed_mass()
    t, v = noisy_speed(sim)
    with pytest.warns(ac.calibration.UnidentifiableWarning, match="mass.m and force.f_constant enter the traces "
                                                                  "only together"):
        fit = ac.calibrate(sim, {"mass.m": 3.0, "force.f_constant": 5.0}, {"mass.v": (t, v)})
    assert fit.unidentifiable == ["mass.m", "force.f_constant"]
    assert fit.standard_errors == {"mass.m": np.inf, "force.f_constant": np.inf}
    assert fit["force.f_constant"] / fit["mass.m"] == pytest.approx(2.0, rel=0.01)  # the ratio is still fitted
    # A parameter no trace depends on is named as such, beside an identifiable one that keeps its error.
    sim = pushed_mass()  # calibrate leaves the simulator at the fitted values
    with pytest.warns(ac.calibration.UnidentifiableWarning, match="no measured trace depends on idle.m"):
        fit = ac.calibrate(sim, {"force.f_constant": 5.0, "idle.m": 3.0}, {"mass.v": (t, v)})
    assert fit.unidentifiable == ["idle.m"] and fit.standard_errors["idle.m"] == np.inf
    assert 0 < fit.standard_errors["force.f_constant"] < 0.05
    assert fit["force.f_constant"] == pytest.approx(4.0, rel=0.01)


def test_calibrate_keeps_finite_errors_without_a_warning_when_the_traces_determine_every_parameter():
    pytest.importorskip("scipy")
    import warnings

    sim = pushed_mass()
    t, v = noisy_speed(sim)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fit = ac.calibrate(sim, {"mass.m": 3.0}, {"mass.v": (t, v)})
    assert fit.unidentifiable == [] and 0 < fit.standard_errors["mass.m"] < 0.05
    assert abs(fit["mass.m"] - 2.0) <= 3 * fit.standard_errors["mass.m"]


def test_calibrate_names_an_unknown_name_with_the_closest_ones():
    # A defect: an unknown parameter raised a bare KeyError('mass.mm') from the parameter table; unknown
    # names in bounds and weights were ignored.
    sim = pushed_mass()
    t, v = noisy_speed(sim)
    with pytest.raises(ac.UnknownNameError, match="no parameter 'mass.mm'; did you mean 'mass.m'") as caught:
        ac.calibrate(sim, {"mass.mm": 3.0}, {"mass.v": (t, v)})
    assert caught.value.suggestions[0] == "mass.m"
    with pytest.raises(ac.UnknownNameError, match="bounds names 'mass.mm'.*did you mean 'mass.m'") as caught:
        ac.calibrate(sim, {"mass.m": 3.0}, {"mass.v": (t, v)}, bounds={"mass.mm": (1.0, 5.0)})
    assert caught.value.name == "mass.mm" and caught.value.suggestions == ["mass.m"]
    with pytest.raises(ac.UnknownNameError, match="weights names 'mass.vv'.*did you mean 'mass.v'"):
        ac.calibrate(sim, {"mass.m": 3.0}, {"mass.v": (t, v)}, weights={"mass.vv": 1.0})
    with pytest.raises(ac.UnknownNameError, match="no variable 'mass.vv'; did you mean 'mass.v'"):
        ac.calibrate(sim, {"mass.m": 3.0}, {"mass.vv": (t, v)})
    with pytest.raises(ValueError, match=r"mass.v has the sample nan at t = 0.2"):
        ac.calibrate(sim, {"mass.m": 3.0}, {"mass.v": (t, np.where(t == t[1], np.nan, v))})
