"""Memory growth of building and compiling models in one process (docs/architecture.md,
"Memory": expression nodes nothing holds are freed when compile() finds it due).

    PYTHONPATH=build/python /usr/bin/python3 bench/memory_bench.py

Prints the resident-set growth per iteration, after a warm-up, for:
  recompile      -- compile() of one rolling-wheel model again and again (0 new nodes expected)
  build          -- a new rolling-wheel model each time
  build+compile  -- a new rolling-wheel model, compiled
  car            -- a new library rear-drive car with constant pedals, compiled
and the interned node count's growth for the same loops. Both are read after a
collection (gc.collect() and _collect_expressions()), so what they show is what stays.
"""
import gc
import os
import sys

import acausal as ac
from acausal import _acausal
from acausal import blocks, vehicle

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "python"))
from models import rolling_wheel  # noqa: E402  (the test suite's rolling wheel)


def car():
    m = ac.Model("car")
    body = m.add(vehicle.RearDriveCar("car"))
    for name in ("throttle", "brake_pedal", "clutch_pedal"):
        m.connect(m.add(blocks.Constant(name.removesuffix("_pedal"), k=0.0)).y, getattr(body, name))
    return m


def resident_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096 / 1e6


def collected():
    gc.collect()
    _acausal._collect_expressions()


def growth(label, step, count):
    for _ in range(5):
        step()
    collected()
    rss, nodes = resident_mb(), _acausal._interned_node_count()
    for _ in range(count):
        step()
    collected()
    per_rss = (resident_mb() - rss) / count * 1e3
    per_nodes = (_acausal._interned_node_count() - nodes) / count
    print(f"{label:14s} {per_rss:9.1f} KB {per_nodes:10.0f} nodes per iteration ({count} iterations)")


if __name__ == "__main__":
    wheel = rolling_wheel()
    growth("recompile", wheel.compile, 300)
    growth("build", rolling_wheel, 300)
    growth("build+compile", lambda: rolling_wheel().compile(), 300)
    growth("car", lambda: car().compile(), 50)
