"""Result conveniences that need pandas or matplotlib (imported only when used)."""
from ._acausal import Result


def to_pandas(self, names=None):
    """A DataFrame indexed by time with one column per variable (all by default)."""
    import pandas as pd

    names = list(names) if names is not None else self.names
    frame = pd.DataFrame({name: self[name] for name in names})
    frame.index = pd.Index(self.time, name="time")
    return frame


def plot(self, names, path=None, title=None):
    """Plots variables against time; saves a PNG to `path` if given. Returns the figure."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4.5))
    for name in names:
        ax.plot(self.time, self[name], label=name)
    ax.set_xlabel("time [s]")
    ax.grid(True, alpha=0.3)
    ax.legend()
    if title:
        ax.set_title(title)
    fig.tight_layout()
    if path:
        fig.savefig(path, dpi=100)
        plt.close(fig)
    return fig


Result.to_pandas = to_pandas
Result.plot = plot
