"""Fitting parameters to measured traces, with gradients from forward sensitivities."""
import numpy as np

__all__ = ["Calibration", "calibrate"]


class Calibration:
    """What calibrate() found.

    values -- the fitted parameters {name: value}
    standard_errors -- their standard errors from the residuals and the Jacobian at the fit
    run -- the simulation at the fitted values (rows at the measured times, events on both sides)
    residual_rms -- the rms misfit of each measured variable at the fit, in its unit
    optimizer -- scipy's OptimizeResult (nfev counts simulations, njev gradient evaluations)
    """

    def __init__(self, values, standard_errors, run, residual_rms, optimizer):
        self.values = values
        self.standard_errors = standard_errors
        self.run = run
        self.residual_rms = residual_rms
        self.optimizer = optimizer

    def __getitem__(self, name):
        return self.values[name]

    def __repr__(self):
        fitted = ", ".join(f"{k} = {v:.6g} ± {self.standard_errors[k]:.2g}" for k, v in self.values.items())
        return f"Calibration({fitted}; {self.optimizer.nfev} simulations)"


def _rows_at(result, times):
    """The row of each measured time: at an event instant its right limit."""
    rows = np.searchsorted(result.time, times, side="right") - 1
    if np.any(rows < 0) or not np.allclose(result.time[rows], times, rtol=0, atol=1e-9 * (1 + np.abs(times))):
        raise ValueError("calibrate: the run has no row at some measured times")
    return rows


def calibrate(sim, parameters, measured, *, bounds=None, weights=None, xtol=1e-8, max_simulations=100,
              **simulate_options):
    """Least-squares fit of `parameters` so that the model follows `measured`.

    sim -- a compiled Simulator; its parameters are left at the fitted values
    parameters -- {name: first guess}, or names (starting from the simulator's values)
    measured -- {variable: (times, values)}: traces of any variables of the model
    bounds -- {name: (low, high)} for some parameters (default: the parameter's declared range)
    weights -- {variable: scale}: each trace's misfit is divided by it (default: its rms value),
               so that traces in different units count alike
    simulate_options -- passed to simulate() (t_end defaults to the last measured time)

    Each evaluation is one simulation with the sensitivities of every
    parameter (IDAS); SciPy's trust-region least_squares uses them as the
    Jacobian, so no run is spent on finite differences.
    """
    from scipy.optimize import least_squares

    if not isinstance(parameters, dict):
        parameters = {name: sim.parameter(name) for name in parameters}
    names = list(parameters)
    if not names:
        raise ValueError("calibrate: no parameter to fit")
    if not measured:
        raise ValueError("calibrate: no measured trace to fit to")
    traces = {}
    for variable, (times, values) in measured.items():
        times, values = np.asarray(times, float), np.asarray(values, float)
        if times.shape != values.shape or times.ndim != 1 or len(times) == 0:
            raise ValueError(f"calibrate: the trace of {variable} needs times and values of one same length")
        if np.any(np.diff(times) <= 0):
            raise ValueError(f"calibrate: the times of {variable} must increase")
        scale = (weights or {}).get(variable, np.sqrt(np.mean(values ** 2)) or 1.0)
        traces[variable] = (times, values, float(scale))
    t_eval = np.unique(np.concatenate([t for t, _, _ in traces.values()]))
    options = dict(simulate_options)
    options.setdefault("t_end", float(t_eval[-1]))
    options["t_eval"] = [float(t) for t in t_eval]

    # The fit moves x = p / p_guess: parameters of any size change on one scale.
    guess = np.array([float(parameters[n]) for n in names])
    unit = np.where(guess != 0, np.abs(guess), 1.0)
    table = sim.parameters
    low, high = [], []
    for j, n in enumerate(names):
        lo, hi = (bounds or {}).get(n, (table.at[n, "min"], table.at[n, "max"]))
        low.append(lo / unit[j])
        high.append(hi / unit[j])
    cache = {}

    def evaluate(x):
        key = x.tobytes()
        if key not in cache:
            cache.clear()
            for n, value in zip(names, x * unit):
                sim.set_parameter(n, float(value))
            run = sim.simulate(sensitivities=names, **options)
            residual, jacobian = [], []
            for variable, (times, values, scale) in traces.items():
                rows = _rows_at(run, times)
                residual.append((run[variable][rows] - values) / scale)
                jacobian.append(np.column_stack([run.sensitivity(variable, n)[rows] * unit[j] / scale
                                                 for j, n in enumerate(names)]))
            cache[key] = (run, np.concatenate(residual), np.vstack(jacobian))
        return cache[key]

    x0 = np.clip(guess / unit, np.nextafter(np.array(low), np.inf), np.nextafter(np.array(high), -np.inf))
    fit = least_squares(lambda x: evaluate(x)[1], x0, jac=lambda x: evaluate(x)[2], bounds=(low, high),
                        xtol=xtol, ftol=xtol, gtol=xtol, max_nfev=max_simulations)
    run, residual, jacobian = evaluate(fit.x)
    dof = max(len(residual) - len(names), 1)
    covariance = np.linalg.pinv(jacobian.T @ jacobian) * (residual @ residual) / dof
    values = {n: float(v) for n, v in zip(names, fit.x * unit)}
    errors = {n: float(np.sqrt(max(covariance[j, j], 0.0)) * unit[j]) for j, n in enumerate(names)}
    rms = {}
    for variable, (times, values_measured, _) in traces.items():
        rms[variable] = float(np.sqrt(np.mean((run[variable][_rows_at(run, times)] - values_measured) ** 2)))
    return Calibration(values, errors, run, rms, fit)
