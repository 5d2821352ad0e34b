"""Driving a model's inputs from tables or functions of time, from outside."""
import math

import numpy as np

__all__ = ["drive"]


def _schedule(name, signal, t_start, t_end, hold):
    """(times, values) of one input: a table as given, a function sampled every `hold`."""
    if callable(signal):
        times = np.arange(t_start, t_end, hold)
        values = np.array([float(signal(t)) for t in times])
    else:
        times, values = (np.asarray(a, float) for a in signal)
        if times.ndim != 1 or times.shape != values.shape or len(times) == 0:
            raise ValueError(f"drive: the table of {name} is (times, values) of one same length")
    # A NaN time would fall out of the schedule unnoticed (it compares false with every instant), a NaN
    # value would reach the model as an input: both are refused, naming the sample.
    not_finite = np.flatnonzero(~(np.isfinite(times) & np.isfinite(values)))
    if len(not_finite):
        index = not_finite[0]
        raise ValueError(f"drive: the input {name} has the sample {values[index]} at t = {times[index]} "
                         f"(sample {index}); every time and value must be finite")
    if np.any(np.diff(times) <= 0):
        raise ValueError(f"drive: the times of {name}'s table must increase")
    return times, values


def drive(sim, inputs, *, hold=None, **options):
    """Simulates with the model's inputs following tables or functions of time.

    sim     -- a compiled Simulator
    inputs  -- {input: (times, values)} or {input: f(t)}; any parameter that is not structural may be driven
    hold    -- the sampling interval of a function (default: output_interval)
    options -- those of simulate(); t_end is required

    Each input holds its value from one sample to the next (before the first,
    the first), as a co-simulation master holds an input between communication
    points: the run is a session advanced from change to change, each change
    an event (two rows) at its instant. For an input that must vary smoothly
    inside the model, connect a source block (blocks.CombiTimeTable,
    blocks.Sine, ...) to it instead.
    """
    if "t_end" not in options:
        raise ValueError("drive: t_end is required")
    t_start, t_end = float(options.get("t_start", 0.0)), float(options["t_end"])
    if not (math.isfinite(t_start) and math.isfinite(t_end)):  # before sampling a function on [t_start, t_end)
        raise ValueError(f"drive: t_start = {t_start} and t_end = {t_end}, but both must be finite")
    hold = float(hold if hold is not None else options.get("output_interval", 0.01))
    if not 0 < hold < math.inf:
        raise ValueError(f"drive: hold = {hold}, but it must be positive and finite")
    schedules = {name: _schedule(name, signal, t_start, t_end, hold) for name, signal in inputs.items()}

    def value_at(name, t):
        times, values = schedules[name]
        return float(values[max(np.searchsorted(times, t, side="right") - 1, 0)])

    # The values at t_start are the run's starting parameters (no event there); the simulator keeps its own.
    kept = {name: sim.parameter(name) for name in schedules}
    try:
        for name in schedules:
            sim.set_parameter(name, value_at(name, t_start))
        session = sim.start(**options)
    finally:
        for name, value in kept.items():
            sim.set_parameter(name, value)
    current = {name: value_at(name, t_start) for name in schedules}

    def apply(t):
        for name in schedules:
            value = value_at(name, t)
            if current[name] != value:
                session.set_input(name, value)
                current[name] = value

    changes = sorted({float(t) for times, _ in schedules.values() for t in times if t_start < t < t_end})
    for t in changes:
        session.advance(t)
        apply(t)
    session.advance(t_end)
    return session.result
