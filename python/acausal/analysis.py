"""Linear analysis: linearize a model around a point of a run, its modes
(frequency, damping, time constant, the states that take part), Bode and step
responses. SciPy, pandas and matplotlib are imported only when used."""
import math

import numpy as np

from . import _acausal
from ._acausal import LinearModel, Result, Simulator


def _initial_run(simulator):
    """A run that is only its initial point (t_start = 0), for analyses at that point."""
    return simulator.simulate(t_eval=[0.0], t_end=1e-9)


def linearize(model, at=None, inputs=None, outputs=None):
    """The linear model dx/dt = A x + B u, y = C x + D u around an operating point.

    model   -- a Result (at: the time of one of its rows; default its last row), a Simulator (at: None for
               the initial point, or a time the model is first simulated to), or a SteadyState
    inputs  -- parameter names (default: the model's inputs, its top-level RealInputs)
    outputs -- variable names (default: the model's outputs, or every state when it has none)

    A, B, C, D come from the symbolic Jacobians of the index-reduced DAE; the states are those
    index reduction chose. A hybrid model is linearized in the mode it is in at that point."""
    if at is not None and not math.isfinite(float(at)):  # a NaN time matches no row and used to mean the last
        raise ValueError(f"linearize(): at = {at}, but it must be a finite time")
    if isinstance(model, SteadyState):
        return _acausal._linearize_point(model.simulator, model.point, list(inputs or []), list(outputs or []))
    if isinstance(model, Simulator):
        if at is None:
            model = _initial_run(model)
            at = 0.0
        else:
            model = model.simulate(t_end=float(at), t_eval=[float(at)])
    if not isinstance(model, Result):
        raise TypeError(f"linearize() takes a Simulator or a Result, not {type(model).__name__}")
    at = float(model.time[-1]) if at is None else float(at)
    return _acausal._linearize_result(model, at, list(inputs or []), list(outputs or []))


def _index(names, name, what):
    if isinstance(name, int):
        return name
    if name not in names:
        raise _acausal.UnknownNameError(f"the linear model has no {what} '{name}'; its {what}s are: {', '.join(names)}")
    return names.index(name)


def modes(self, dominant_states=3, relative_tolerance=1e-9, absolute_tolerance=1e-12):
    """The eigenvalues of A, one row per real pole or complex pair, slowest first: kind ("zero", "real" or
    "oscillating"), natural frequency (rad/s and Hz), damping ratio, time constant, unstable, and the states
    that take part most (participation).

    Round-off is taken out first, against tol = max(relative_tolerance * max|eigenvalue|, absolute_tolerance)
    [1/s]: |eigenvalue| <= tol is a zero mode (an integrator or a rigid-body mode: eigenvalue 0, no damping
    ratio or time constant, NaN, and not unstable), a pair with |Im| <= tol is two real poles, and |Re| <= tol
    is Re = 0. `eigenvalue` is the classified value, `computed` the eigensolver's."""
    import pandas as pd

    rows = self._modes(dominant_states, float(relative_tolerance), float(absolute_tolerance))
    for row in rows:
        row["dominant_states"] = ", ".join(f"{name} {share:.0%}" for name, share in row["dominant_states"])
    return pd.DataFrame(rows, columns=["eigenvalue", "natural_frequency", "frequency_hz", "damping_ratio", "time_constant",
                                       "dominant_states", "kind", "unstable", "computed"])


def to_scipy(self):
    """A scipy.signal.StateSpace of the linear model."""
    from scipy import signal

    return signal.StateSpace(self.A, self.B, self.C, self.D)


def sparse(self):
    """A, B, C, D as scipy.sparse CSR matrices."""
    from scipy import sparse as sp

    return tuple(sp.csr_matrix(m) for m in (self.A, self.B, self.C, self.D))


def frequency_response(self, w, input=0, output=0):
    """G(iw) = C (iwI - A)^-1 B + D from one input to one output (names or indices), at the angular frequencies w."""
    j, k = _index(self.inputs, input, "input"), _index(self.outputs, output, "output")
    A, b, c, d = self.A, self.B[:, j], self.C[k, :], self.D[k, j]
    eye = np.eye(len(A))
    return np.array([c @ np.linalg.solve(1j * x * eye - A, b) + d for x in np.atleast_1d(w)])


def bode(self, input=0, output=0, w=None, path=None):
    """Magnitude and phase of one input-output pair; saves a PNG to `path` if given. Returns the figure."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    if w is None:
        poles = np.abs(np.linalg.eigvals(self.A)) if len(self.A) else np.array([1.0])
        poles = poles[poles > 1e-6 * poles.max()] if poles.max() > 0 else np.array([1.0])  # zeros: integrators
        low, high = poles.min() / 10, poles.max() * 10
        w = np.logspace(math.log10(low), math.log10(high), 400)
    g = frequency_response(self, w, input, output)
    fig, (magnitude, phase) = plt.subplots(2, 1, figsize=(8, 6), sharex=True)
    magnitude.semilogx(w / (2 * np.pi), 20 * np.log10(np.abs(g)))
    magnitude.set_ylabel("magnitude [dB]")
    phase.semilogx(w / (2 * np.pi), np.degrees(np.unwrap(np.angle(g))))
    phase.set_ylabel("phase [deg]")
    phase.set_xlabel("frequency [Hz]")
    j, k = _index(self.inputs, input, "input"), _index(self.outputs, output, "output")
    magnitude.set_title(f"{self.outputs[k]} / {self.inputs[j]} at t = {self.time:g} s")
    for ax in (magnitude, phase):
        ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    if path:
        fig.savefig(path, dpi=100)
        plt.close(fig)
    return fig


def step(self, input=0, output=0, t=None, path=None):
    """The output's response to a unit step of the input (scipy.signal); returns (t, y), and saves a PNG if
    `path` is given."""
    from scipy import signal

    j, k = _index(self.inputs, input, "input"), _index(self.outputs, output, "output")
    system = signal.StateSpace(self.A, self.B[:, [j]], self.C[[k], :], self.D[[k]][:, [j]])
    times, y = signal.step(system, T=t)
    if path:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(8, 4))
        ax.plot(times, y)
        ax.set_xlabel("time after the step [s]")
        ax.set_ylabel(f"change of {self.outputs[k]}")
        ax.set_title(f"unit step of {self.inputs[j]} at t = {self.time:g} s")
        ax.grid(True, alpha=0.3)
        fig.tight_layout()
        fig.savefig(path, dpi=100)
        plt.close(fig)
    return times, y


def _html(self):
    table = modes(self).to_html(index=False, float_format=lambda x: f"{x:.4g}")
    return (f"<p><b>LinearModel</b> at t = {self.time:g} s: {len(self.states)} states, {len(self.inputs)} inputs, "
            f"{len(self.outputs)} outputs</p>{table}")


LinearModel.modes = modes
LinearModel.to_scipy = to_scipy
LinearModel.sparse = sparse
LinearModel.frequency_response = frequency_response
LinearModel.bode = bode
LinearModel.step = step
LinearModel._repr_html_ = _html


class SteadyState:
    """A steady state (or trim) of a compiled model: the states stand still, or, for positions, move at a
    constant rate. `values` are the free parameters as solved; `state[name]` reads any variable there."""

    def __init__(self, simulator, solved):
        self.simulator, self._solved = simulator, solved
        self.values = dict(solved.free_values)
        self.moving, self.iterations, self.residual = solved.moving, solved.iterations, solved.residual
        self.time = solved.point.time

    point = property(lambda self: self._solved.point)

    def __getitem__(self, name):
        return _acausal._values_at(self.simulator, self._solved.point, [name])[0]

    def __repr__(self):
        free = ", ".join(f"{k} = {v:.6g}" for k, v in self.values.items())
        return f"<SteadyState at t = {self.time:g} s{': ' + free if free else ''}; {self.iterations} Newton iterations>"


def steady_state(simulator, guess=None, free=(), conditions=None, moving=(), tolerance=1e-10, max_iterations=50):
    """Solves the model's equations with every state's derivative 0 (Newton, symbolic Jacobian).

    guess      -- a Result (its last row) or a (Result, time) pair; default: the initial point
    free       -- parameters (the model's inputs among them) the solver may change, e.g. ["throttle"]
    conditions -- {variable: value}, one per free parameter, e.g. {"body.v": 27.78}
    moving     -- states allowed to keep moving at a constant rate; positions no equation reads are found
                  without asking

    The result reads any variable (trim["engine.w"]) and linearizes: ac.linearize(trim). A singular or
    unsolvable system is an ac.ModelError naming the unknowns and equations involved."""
    for name, value in (conditions or {}).items():  # Newton would carry a NaN target into every unknown
        if not math.isfinite(float(value)):
            raise ValueError(f"steady_state(): the condition {name} = {value}; it must be a finite value")
    if not 0 < float(tolerance) < math.inf:
        raise ValueError(f"steady_state(): tolerance = {tolerance}, but it must be positive and finite")
    if isinstance(guess, tuple):
        if not math.isfinite(float(guess[1])):
            raise ValueError(f"steady_state(): the guess's time is {guess[1]}; it must be the finite time of a row")
        point = _acausal._point(guess[0], float(guess[1]))
    elif isinstance(guess, Result):
        point = _acausal._point(guess, float(guess.time[-1]))
    elif guess is None:
        point = _acausal._point(_initial_run(simulator), 0.0)
    else:
        raise TypeError(f"steady_state(): guess is a Result, (Result, time) or None, not {type(guess).__name__}")
    solved = _acausal._steady_state(simulator, point, list(free), [(k, float(v)) for k, v in (conditions or {}).items()],
                                    list(moving), float(tolerance), int(max_iterations))
    return SteadyState(simulator, solved)
