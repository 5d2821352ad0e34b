"""Draws the plots of validation reports: one PNG per check, from the CSV the
checklist wrote beside report.json, with the pass/fail mark, the tolerance,
the measured error and the worst point. A relation check is drawn as its error
against the tolerance band, a bound check as the quantity over its bounds.

    python3 -m acausal.validation_plots out/validation/wheel [more report directories]
"""
import csv
import json
import math
import os
import re
import sys


def _read_csv(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    columns = [[float(v) if v not in ("", "nan", "-nan") else math.nan for v in col] for col in zip(*body)]
    return header, columns


# Bounds are drawn dashed under the quantity they limit, which is drawn on top.
_BOUND_STYLE = dict(color="black", linestyle="--", linewidth=1.1, zorder=2)
_TOLERANCE_STYLE = dict(color="darkred", linestyle="--", linewidth=1.0, zorder=2)


def _unit_label(units):
    """ "[m/s]" when the series share a declared unit, "" when unknown or mixed."""
    known = {u for u in units if u}
    return "[%s]" % known.pop() if len(known) == 1 else ""


def _floor(check):
    """The smallest magnitude a relation's error is taken relative to (from its detail; 0 if none)."""
    found = re.search(r"of max\(\|expected\|, ([-+0-9.eE]+)\)", check.get("detail", ""))
    return float(found.group(1)) if found else 0.0


def _plot_relation(ax, time, header, columns, units, check):
    """lhs = rhs: their difference against the band the check allows, tol·max(|rhs|, floor)."""
    lhs, rhs = columns[1], columns[2]
    error = [a - b for a, b in zip(lhs, rhs)]
    band = [check["tolerance"] * max(abs(b), _floor(check)) for b in rhs]
    unit = _unit_label(units[:2])
    floor = _floor(check)
    reference = "max(|rhs|, %.3g)" % floor if floor > 0 else "|rhs|"
    ax.plot(time, band, label="tolerance ±%.3g·%s" % (check["tolerance"], reference), **_TOLERANCE_STYLE)
    ax.plot(time, [-b for b in band], **_TOLERANCE_STYLE)
    ax.plot(time, error, color="tab:blue", linewidth=1.4, zorder=3, label="error: %s − (%s)" % (header[1], header[2]))
    ax.set_ylabel(("error " + unit).strip())


def _plot_bound(ax, time, header, columns, units):
    """The quantity on top, its bounds dashed below it, the allowed band shaded."""
    bounds = list(zip(header[2:], columns[2:]))
    for label, values in bounds:
        ax.plot(time, values, label="bound: " + label, **_BOUND_STYLE)
    if len(bounds) == 2:
        ax.fill_between(time, bounds[0][1], bounds[1][1], color="grey", alpha=0.12, zorder=1)
    ax.plot(time, columns[1], color="tab:blue", linewidth=1.6, zorder=3, label=header[1])
    ax.set_ylabel(_unit_label(units))


def _plot_lines(ax, time, header, columns, units):
    for label, values in zip(header, columns):
        ax.plot(time, values, label=label, linewidth=1.4)
    ax.set_ylabel(_unit_label(units))


def figure(directory, check):
    """The check's figure (matplotlib, Agg): a relation as its error against the
    tolerance band, a bound as the quantity over its dashed bounds, other checks as
    their series; y labels with the declared units. Reports written before checks
    carried a kind are drawn as plain series."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    header, columns = _read_csv(os.path.join(directory, check["data"]))
    time = columns[0]
    units = check.get("units") or [""] * (len(header) - 1)
    kind, plot_kind = check.get("kind", ""), check.get("plot_kind", "time")
    # A relation's extra series (plotting(...)) are context: drawn in a second panel.
    extra = len(header) - 3 if kind == "relation" and plot_kind == "time" else 0
    if extra > 0:
        fig, (ax, context) = plt.subplots(2, 1, sharex=True, figsize=(8, 6.0), dpi=100)
    else:
        fig, ax = plt.subplots(figsize=(8, 4.2), dpi=100)
        context = None
    if plot_kind == "scatter":  # operating points: the second series against the first, coloured by the third
        colour = columns[3] if len(columns) > 3 else None
        points = ax.scatter(columns[1], columns[2], c=colour, s=4, cmap="viridis_r", label="operating points")
        if colour is not None:
            fig.colorbar(points, ax=ax, label=header[3])
        ax.set_xlabel(header[1])
        ax.set_ylabel(header[2])
    elif plot_kind == "bars":  # each series' last value
        finite = [(label, values[-1]) for label, values in zip(header[1:], columns[1:])]
        ax.bar([label for label, _ in finite], [value for _, value in finite], color="steelblue")
        ax.tick_params(axis="x", labelrotation=30)
        ax.set_ylabel(_unit_label(units))
    elif kind == "relation" and len(columns) >= 3:
        _plot_relation(ax, time, header, columns, units, check)
        if context is not None:
            _plot_lines(context, time, header[3:], columns[3:], units[2:])
            context.legend(fontsize=8, loc="best")
            context.grid(True, alpha=0.3)
    elif kind == "bound" and len(columns) >= 3:
        _plot_bound(ax, time, header, columns, units)
    else:
        _plot_lines(ax, time, header[1:], columns[1:], units)
        if kind in ("sign", "monotonic"):
            ax.axhline(0.0, **_BOUND_STYLE)
    worst = check.get("worst_time")
    if worst is not None and plot_kind == "time":
        for a in filter(None, (ax, context)):
            a.axvline(worst, color="red" if not check["passed"] else "grey", linestyle=":", linewidth=1.0,
                      label="worst point, t = %.4g s" % worst if a is ax else None)
    mark = "PASS" if check["passed"] else "FAIL"
    error = check.get("error")
    measured = "n/a" if error is None else "%.3g" % error
    ax.set_title("[%s] %s: %s\ntolerance %.3g, measured %s" % (
        mark, check["rig"], check["title"], check["tolerance"] or 0.0, measured),
        fontsize=10, color="darkgreen" if check["passed"] else "darkred")
    if plot_kind == "time":
        (context or ax).set_xlabel("t [s]")
        ax.legend(fontsize=8, loc="best")
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    return fig


def render_check(directory, check):
    """Writes the check's PNG; returns its path."""
    import matplotlib.pyplot as plt

    fig = figure(directory, check)
    path = os.path.join(directory, check["plot"])
    fig.savefig(path)
    plt.close(fig)
    return path


def render(directory):
    """Renders every plot of the report in `directory`; returns the PNG paths."""
    with open(os.path.join(directory, "report.json")) as f:
        report = json.load(f)
    return [render_check(directory, c) for c in report["checks"] if c.get("plot")]


def main(argv):
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    for directory in argv:
        paths = render(directory)
        print("%s: %d plots" % (directory, len(paths)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
