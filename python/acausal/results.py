"""Result, Simulator and Model conveniences for pandas, matplotlib and notebooks
(pandas and matplotlib are imported only when used)."""
import html

import numpy as np

from ._acausal import Component, Model, Result, Simulator, _component_info
from .component import parameter_frame


def event_sides(self):
    """Per row: -1 for the left limit of an event (the row before it), +1 for its right limit, 0 otherwise."""
    time = self.time
    sides = np.zeros(len(time), dtype=np.int8)
    for t in self.event_times:
        before = int(np.searchsorted(time, t, side="left"))
        if before + 1 < len(time) and time[before + 1] == t:
            sides[before], sides[before + 1] = -1, 1
    return sides


def to_pandas(self, names=None):
    """A DataFrame with one column per variable (all by default), indexed by time.

    The index is unique: at an event instant t the result has two rows, the
    left and the right limit; the left one is indexed at the float just below
    t (np.nextafter(t, -inf)) and the column "event" says which row is which
    ("before", "after", "" elsewhere). That column is there only when the run
    had events. An output time on an event instant is that instant's "after"
    row (the result may hold a third row there, a repeat of the right limit,
    which the frame leaves out). r.time keeps the exact instants."""
    import pandas as pd

    names = list(names) if names is not None else self.names
    frame = pd.DataFrame({name: self[name] for name in names})
    time = np.array(self.time, copy=True)
    sides = event_sides(self)
    if len(self.event_times):
        time[sides < 0] = np.nextafter(time[sides < 0], -np.inf)
        frame["event"] = pd.Categorical.from_codes(np.where(sides < 0, 1, np.where(sides > 0, 2, 0)),
                                                   categories=["", "before", "after"])
        # A state event found exactly at an output time leaves the output row beside the event's two
        # rows, at the same time as the right limit and with its values: the index would repeat it.
        repeats = (sides == 0) & np.isin(time, time[sides > 0])
        frame, time = frame[~repeats], time[~repeats]
    frame.index = pd.Index(time, name="time")
    return frame


# --- xarray / netCDF (issue 36, item 8) ---------------------------------------

def _description(self, name):
    # describe() reads "ball.v [m/s]: a state": the part after the name and unit.
    text = self.describe(name)
    return text.split(": ", 1)[1] if ": " in text else ""


def to_xarray(self, names=None):
    """An xarray.Dataset with coordinate "t" (units "s") and one data variable per variable (all by
    default), each with attrs "units" and "description". Rows at events as in to_pandas: the left
    limit at the float just below the event instant, and an int8 variable "event" (-1 before, +1
    after, 0 elsewhere; CF flag attributes) when the run had events. The dataset's attrs hold the
    event times and causes."""
    import xarray as xr

    names = list(names) if names is not None else self.names
    for reserved in ("t", "event"):
        if reserved in names:
            raise ValueError(f"to_xarray: the variable '{reserved}' has the name of the dataset's time coordinate "
                             f"or event flag; rename it in the model")
    frame = to_pandas(self, names)
    data = {name: ("t", frame[name].to_numpy(), {"units": self.unit(name), "description": _description(self, name)})
            for name in names}
    if "event" in frame:
        codes = frame["event"].cat.codes.to_numpy()  # 0 "", 1 "before", 2 "after"
        sides = np.where(codes == 1, -1, np.where(codes == 2, 1, 0)).astype(np.int8)
        data["event"] = ("t", sides, {"flag_values": np.array([-1, 0, 1], dtype=np.int8),
                                      "flag_meanings": "before_event no_event after_event",
                                      "description": "which side of an event a row is (its left or right limit)"})
    attrs = {"source": "acausal", "event_times": np.array(self.event_times, dtype=float),
             "event_causes": "\n".join(self.event_causes)}
    time = ("t", frame.index.to_numpy(), {"units": "s", "description": "simulation time"})
    return xr.Dataset(data, coords={"t": time}, attrs=attrs)


def to_netcdf(self, path, names=None):
    """Writes to_xarray(names) as a netCDF file (netCDF3 through scipy, which Debian's xarray
    reads without the netCDF4 library); xarray.open_dataset(path) reads it back."""
    to_xarray(self, names).to_netcdf(path, engine="scipy")


def _label(self, name):
    unit = self.unit(name)
    return f"{name} [{unit}]" if unit else name


def _finish(fig, ax, path, title):
    """Grid, legend and title; saved to `path` (and closed) if given. Returns the figure."""
    import matplotlib.pyplot as plt

    ax.grid(True, alpha=0.3)
    ax.legend()
    if title:
        ax.set_title(title)
    fig.tight_layout()
    if path:
        fig.savefig(path, dpi=100)
        plt.close(fig)
    return fig


def _unit_groups(self, names):
    """The names grouped by unit, in the order the units first appear; "" and "1" are one group, "1"."""
    groups = {}
    for name in names:
        groups.setdefault(self.unit(name) or "1", []).append(name)
    return groups


def plot(self, names, path=None, title=None):
    """Plots variables against time: one subplot per unit (variables of the same unit share it),
    each y axis labelled with its unit ("[m/s]"; dimensionless ones "[1]"), a legend on each and
    a shared time axis "t [s]". Saves a PNG to `path` if given. Returns the figure (fig.axes
    in the order the units first appear in `names`)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = [names] if isinstance(names, str) else list(names)
    groups = _unit_groups(self, names)
    fig, axes = plt.subplots(len(groups), 1, sharex=True, squeeze=False,
                             figsize=(8, 2.2 + 2.3 * len(groups)))
    axes = axes[:, 0]
    for ax, (unit, members) in zip(axes, groups.items()):
        for name in members:
            ax.plot(self.time, self[name], label=_label(self, name))
        ax.set_ylabel(f"[{unit}]")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8, loc="best")
    axes[-1].set_xlabel("t [s]")
    if title:
        axes[0].set_title(title)
    fig.tight_layout()
    if path:
        fig.savefig(path, dpi=100)
        plt.close(fig)
    return fig


def plot_path(self, prefix="car", path=None, title=None, lane=None):
    """Draws the trajectory y against x of `prefix`.x, `prefix`.y (a planar car,
    a SingleTrack, a KinematicBicycle) with equal axes, the start marked;
    `lane` is an optional list of (x, y) points drawn as the reference path
    (a lane centre, a PathFollower's path). Saves a PNG to `path` if given.
    Returns the figure."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    x, y = self[f"{prefix}.x"], self[f"{prefix}.y"]
    fig, ax = plt.subplots(figsize=(8, 4.5))
    if lane is not None:
        ax.plot([p[0] for p in lane], [p[1] for p in lane], "--", color="grey", label="path")
    ax.plot(x, y, label=f"{prefix} (x, y)")
    ax.plot([x[0]], [y[0]], "o", color="black", label="start")
    ax.set_xlabel("x [m]")
    ax.set_ylabel("y [m]")
    ax.set_aspect("equal", adjustable="datalim")
    return _finish(fig, ax, path, title)


def _table(title, rows):
    cells = "".join(f"<tr><th style='text-align:left'>{html.escape(str(k))}</th>"
                    f"<td style='text-align:left'>{html.escape(str(v))}</td></tr>" for k, v in rows)
    return f"<table><caption style='text-align:left'><b>{html.escape(title)}</b></caption>{cells}</table>"


def _result_html(self):
    stats = self.statistics
    time = self.time
    span = f"{time[0]:g} to {time[-1]:g} s" if len(time) else "empty"
    return _table("acausal Result", [
        ("time", span), ("rows", len(self)), ("variables", len(self.names)), ("events", len(self.event_times)),
        ("steps", stats["steps"]), ("unknowns integrated", f"{stats['unknowns']} ({stats['linear_solver']})"),
        ("wall time", f"{stats['initialization_seconds'] + stats['integration_seconds']:.4g} s")])


def _simulator_html(self):
    report = self.report
    return _table("acausal Simulator", [
        ("states", ", ".join(report["states"][:12]) + (" ..." if len(report["states"]) > 12 else "")),
        ("algebraic unknowns", len(report["algebraic"])), ("parameters", len(self.parameter_names)),
        ("passes", ", ".join(f"{p['pass']} {p['seconds'] * 1e3:.3g} ms" for p in report["passes"]))])


def _model_html(self):
    info = self._info()
    parts = [(c["name"], c["type"]) for c in info["children"]]
    return _table(f"acausal Model '{self.name}'", parts + [("equations (own)", len(info["equations"]))])


def _component_parameters(self):
    """This component's own parameters with their current values: a DataFrame (name, value, unit, min, max, ...)."""
    return parameter_frame(self._info()["parameters"])


Result.event_sides = event_sides
Result.to_pandas = to_pandas
Result.to_xarray = to_xarray
Result.to_netcdf = to_netcdf
Result.plot = plot
Result.plot_path = plot_path
Result._repr_html_ = _result_html
Result.parameters = property(lambda self: parameter_frame(self._parameters()),
                             doc="The parameters this run used: a DataFrame (name, value, unit, min, max, ...).")
Simulator.parameters = property(lambda self: parameter_frame(self._parameters()),
                                doc="The model's parameters with their current values: a DataFrame.")
Simulator._repr_html_ = _simulator_html
Model._repr_html_ = _model_html
Component._info = lambda self: _component_info(self)
Component.parameters = property(_component_parameters)
