"""Fitting parameters to measured traces, with gradients from forward sensitivities."""
import difflib
import math
import warnings

import numpy as np

from ._acausal import UnknownNameError

__all__ = ["Calibration", "calibrate", "UnidentifiableWarning"]

# A direction of the parameters along which the traces change less than this, relative to the
# direction they change most (each parameter's sensitivity column scaled to unit length), is
# taken as one the traces do not determine. Parameters that enter only as a ratio or product
# give 1e-16; the coast-down's correlated but identifiable Cd and Crr give 0.17.
_RANK_TOLERANCE = 1e-6


class UnidentifiableWarning(UserWarning):
    """calibrate(): the measured traces do not determine some of the fitted parameters."""


class Calibration:
    """What calibrate() found.

    values -- the fitted parameters {name: value}
    standard_errors -- their standard errors from the residuals and the Jacobian at the fit;
                       inf for a parameter the traces do not determine (see `unidentifiable`)
    unidentifiable -- the fitted parameters the traces do not determine, each alone (they enter
                      only in a combination, such as a ratio, or not at all); empty when all are
    run -- the simulation at the fitted values (rows at the measured times, events on both sides)
    residual_rms -- the rms misfit of each measured variable at the fit, in its unit
    optimizer -- scipy's OptimizeResult (nfev counts simulations, njev gradient evaluations)
    """

    def __init__(self, values, standard_errors, run, residual_rms, optimizer, unidentifiable=()):
        self.values = values
        self.standard_errors = standard_errors
        self.unidentifiable = list(unidentifiable)
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


def _not_among(name, known, argument, kind):
    """The library's error for a key of `bounds` or `weights` that names nothing calibrate() fits or
    reads (a typo would otherwise be ignored), with the closest names."""
    close = difflib.get_close_matches(name, known, n=3)
    hint = f"did you mean {' or '.join(map(repr, close))}? " if close else ""
    error = UnknownNameError(f"calibrate: {argument} names '{name}', which is not one of the {kind}; {hint}"
                             f"they are: {', '.join(known)}")
    error.name, error.suggestions = name, close
    return error


def _covariance_and_null_space(jacobian, residual, dof):
    """The covariance of the scaled parameters on the directions the traces determine, and the
    directions they do not determine (one column each).

    The rank is judged with each column of the Jacobian scaled to unit length, so that neither a
    parameter's size nor its unit decides it; a column of zeros (no trace depends on that parameter)
    is a direction of its own."""
    norms = np.linalg.norm(jacobian, axis=0)
    norms = np.where(norms > 0, norms, 1.0)
    _, singular, vt = np.linalg.svd(jacobian / norms)
    singular = np.concatenate([singular, np.zeros(len(vt) - len(singular))])  # fewer rows than parameters
    determined = singular > _RANK_TOLERANCE * singular.max()
    basis = vt[determined].T / singular[determined]
    covariance = (basis @ basis.T) / np.outer(norms, norms) * (residual @ residual) / dof
    return covariance, vt[~determined].T


def _unidentifiable(names, null_space):
    """The parameters the undetermined directions move, and a sentence per group of parameters that
    move together, for the warning.

    Read from the projector onto those directions, which does not depend on how the SVD happened to
    pick a basis of them: a parameter takes part when its own share exceeds 1e-6 (a component above
    1e-3 of a unit direction), two take part together when their cross term does."""
    projector = null_space @ null_space.T
    share = np.abs(projector) > 1e-6
    involved = [j for j in range(len(names)) if share[j, j]]
    groups, placed = [], set()
    for j in involved:
        if j in placed:
            continue
        group, frontier = {j}, [j]
        while frontier:  # everything linked to j, directly or through others
            k = frontier.pop()
            linked = {i for i in involved if share[k, i]} - group
            group |= linked
            frontier += linked
        placed |= group
        groups.append([names[i] for i in sorted(group)])
    sentences = [f"no measured trace depends on {group[0]}" if len(group) == 1 else
                 f"{' and '.join(group)} enter the traces only together (the traces determine a combination "
                 "of them, such as their ratio or product, not each)" for group in groups]
    return [names[j] for j in involved], sentences


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

    Parameters the traces do not determine each alone (they enter only as a ratio, a product,
    or not at all: the Jacobian at the fit has a lower rank than there are parameters) get an
    infinite standard error and are listed in `unidentifiable`, with an UnidentifiableWarning
    naming them; their values are one of many that fit equally well.
    """
    from scipy.optimize import least_squares

    if not isinstance(parameters, dict):
        parameters = {name: sim.parameter(name) for name in parameters}
    names = list(parameters)
    if not names:
        raise ValueError("calibrate: no parameter to fit")
    if not measured:
        raise ValueError("calibrate: no measured trace to fit to")
    for name in names:
        sim.parameter(name)  # an unknown name: ac.UnknownNameError with the closest names, before any run
        if not np.isfinite(float(parameters[name])):
            raise ValueError(f"calibrate: the first guess of {name} is {parameters[name]}; it must be finite")
    for name in bounds or {}:
        if name not in parameters:
            raise _not_among(name, names, "bounds", "fitted parameters")
    for variable in weights or {}:
        if variable not in measured:
            raise _not_among(variable, list(measured), "weights", "measured variables")
    traces = {}
    for variable, (times, values) in measured.items():
        times, values = np.asarray(times, float), np.asarray(values, float)
        if times.shape != values.shape or times.ndim != 1 or len(times) == 0:
            raise ValueError(f"calibrate: the trace of {variable} needs times and values of one same length")
        not_finite = np.flatnonzero(~(np.isfinite(times) & np.isfinite(values)))
        if len(not_finite):  # a NaN would reach least_squares as a residual, or match no row
            index = not_finite[0]
            raise ValueError(f"calibrate: the trace of {variable} has the sample {values[index]} at "
                             f"t = {times[index]} (sample {index}); every time and value must be finite")
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
    covariance, null_space = _covariance_and_null_space(jacobian, residual, dof)
    unidentifiable, sentences = _unidentifiable(names, null_space)
    if unidentifiable:
        warnings.warn(f"calibrate: unidentifiable parameters: {'; '.join(sentences)}. Their standard errors "
                      "are inf and their values one of many that fit alike: fit fewer of them, or measure a "
                      "trace that separates them", UnidentifiableWarning, stacklevel=2)
    values = {n: float(v) for n, v in zip(names, fit.x * unit)}
    errors = {n: math.inf if n in unidentifiable else float(np.sqrt(max(covariance[j, j], 0.0)) * unit[j])
              for j, n in enumerate(names)}
    rms = {}
    for variable, (times, values_measured, _) in traces.items():
        rms[variable] = float(np.sqrt(np.mean((run[variable][_rows_at(run, times)] - values_measured) ** 2)))
    return Calibration(values, errors, run, rms, fit, unidentifiable)
