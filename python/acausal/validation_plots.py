"""Draws the plots of validation reports: one PNG per check, from the CSV the
checklist wrote beside report.json, with the pass/fail mark, the tolerance,
the measured error and the worst point.

    python3 -m acausal.validation_plots out/validation/wheel [more report directories]
"""
import csv
import json
import math
import os
import sys


def _read_csv(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    columns = [[float(v) if v not in ("", "nan", "-nan") else math.nan for v in col] for col in zip(*body)]
    return header, columns


def render_check(directory, check):
    """Writes the check's PNG; returns its path."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    header, columns = _read_csv(os.path.join(directory, check["data"]))
    time = columns[0]
    kind = check.get("plot_kind", "time")
    fig, ax = plt.subplots(figsize=(8, 4.2), dpi=100)
    if kind == "scatter":  # operating points: the second series against the first, coloured by the third
        colour = columns[3] if len(columns) > 3 else None
        points = ax.scatter(columns[1], columns[2], c=colour, s=4, cmap="viridis_r", label="operating points")
        if colour is not None:
            fig.colorbar(points, ax=ax, label=header[3])
        ax.set_xlabel(header[1])
        ax.set_ylabel(header[2])
    elif kind == "bars":  # each series' last value
        finite = [(label, values[-1]) for label, values in zip(header[1:], columns[1:])]
        ax.bar([label for label, _ in finite], [value for _, value in finite], color="steelblue")
        ax.tick_params(axis="x", labelrotation=30)
    else:
        for label, values in zip(header[1:], columns[1:]):
            ax.plot(time, values, label=label, linewidth=1.4)
    worst = check.get("worst_time")
    if worst is not None and kind == "time":
        ax.axvline(worst, color="red" if not check["passed"] else "grey", linestyle=":", linewidth=1.0,
                   label="worst point, t = %.4g s" % worst)
    mark = "PASS" if check["passed"] else "FAIL"
    error = check.get("error")
    measured = "n/a" if error is None else "%.3g" % error
    ax.set_title("[%s] %s: %s\ntolerance %.3g, measured %s" % (
        mark, check["rig"], check["title"], check["tolerance"] or 0.0, measured),
        fontsize=10, color="darkgreen" if check["passed"] else "darkred")
    if kind == "time":
        ax.set_xlabel("time [s]")
        ax.legend(fontsize=8, loc="best")
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
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
