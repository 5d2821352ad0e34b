"""Expression nodes of models Python dropped are freed; what Python still holds keeps working."""
import gc

import acausal as ac
from acausal import _acausal, rotational

from models import oscillator, rolling_wheel


def test_models_built_and_dropped_leave_no_nodes_behind():
    for _ in range(2):  # warm up: what the process makes once
        rolling_wheel().compile().simulate(t_end=0.1)
        oscillator().compile().simulate(t_end=0.1)
    gc.collect()
    _acausal._collect_expressions()
    nodes = _acausal._interned_node_count()
    for _ in range(5):
        rolling_wheel().compile().simulate(t_end=0.1)
        oscillator().compile().simulate(t_end=0.1)
    gc.collect()
    assert _acausal._collect_expressions() > 100
    assert _acausal._interned_node_count() == nodes


def test_what_python_holds_survives_a_collection():
    model = ac.Model("spinning")
    inertia = model.add(rotational.Inertia("inertia", J=2.0))
    held = ac.sin(inertia.w) * 2.0
    text = str(held)
    model.set_start("inertia.w", 0.0)
    sim = model.compile()
    dropped = ac.Model("dropped")
    orphan = dropped.add(rotational.Inertia("orphan", J=3.0)).w * 4.0
    orphan_text = str(orphan)
    del dropped
    gc.collect()
    _acausal._collect_expressions()
    assert str(held) == text
    assert str(orphan) == orphan_text
    assert inertia.J.unit == "kg.m2" and inertia.J.value == 2.0  # the declared leaf's record is kept
    assert sim.simulate(t_end=0.1).time[-1] == 0.1
