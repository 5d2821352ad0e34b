"""Boolean and Integer signals from Python: the library's logical blocks with a
number of inputs chosen when added, a component of one's own with Boolean
connectors, and the errors of a Boolean network, against exact truth tables."""
import numpy as np
import pytest

import acausal as ac
from acausal import blocks


def value_at(result, name, t):
    return float(np.interp(t, result.time, result[name]))


def test_three_input_and_of_two_pulses_and_a_table_follows_its_truth_table():
    m = ac.Model("gates")
    fast = m.add(blocks.BooleanPulse("fast", period=1.0, width=50))       # true on [k, k + 0.5)
    slow = m.add(blocks.BooleanPulse("slow", period=4.0, width=50))       # true on [4k, 4k + 2)
    table = m.add(blocks.BooleanTable("table", n=2, table_1=1.0, table_2=3.0))  # true on [1, 3)
    gate = m.add(blocks.MultiAnd("gate", nu=3))
    for source, k in ((fast, 1), (slow, 2), (table, 3)):
        m.connect(source.y, getattr(gate, f"u{k}"))
    r = m.compile().simulate(t_end=8.0, output_interval=0.05)
    for t in np.arange(0.025, 8.0, 0.05):
        expected = (t % 1.0 < 0.5) and (t % 4.0 < 2.0) and (1.0 <= t < 3.0)
        assert value_at(r, "gate.y", t) == float(expected), t
    assert "$event_clock" not in r.names  # nothing continuous: the hidden clock integrated it


def test_integer_multi_switch_takes_its_values_by_keyword():
    m = ac.Model("switch")
    first = m.add(blocks.BooleanStep("first", startTime=1.0))
    second = m.add(blocks.BooleanStep("second", startTime=2.0))
    switch = m.add(blocks.IntegerMultiSwitch("switch", nu=2, expr_1=4, expr_2=6, y_default=2,
                                             use_pre_as_default="false"))
    m.connect(first.y, switch.u1)
    m.connect(second.y, switch.u2)
    r = m.compile().simulate(t_end=3.0, output_interval=0.1)
    assert [value_at(r, "switch.y", t) for t in (0.5, 1.5, 2.5)] == [2.0, 4.0, 4.0]


def test_a_component_of_ones_own_with_boolean_connectors():
    class Majority(ac.Component):
        """y is true when at least two of three inputs are."""

        def __init__(self, name):
            super().__init__(name)
            self.a = self.connector(ac.BooleanInput, "a")
            self.b = self.connector(ac.BooleanInput, "b")
            self.c = self.connector(ac.BooleanInput, "c")
            self.y = self.connector(ac.BooleanOutput, "y")
            self.equation(self.y.value == (self.a.value + self.b.value + self.c.value >= 2))

    m = ac.Model("vote")
    vote = m.add(Majority("vote"))
    for name, start in (("a", 1.0), ("b", 2.0), ("c", 3.0)):
        m.connect(m.add(blocks.BooleanStep(name, startTime=start)).y, getattr(vote, name))
    r = m.compile().simulate(t_end=4.0, output_interval=0.1)
    assert [value_at(r, "vote.y", t) for t in (0.5, 1.5, 2.5, 3.5)] == [0.0, 0.0, 1.0, 1.0]


def test_an_unconnected_boolean_input_is_a_model_error_naming_it():
    m = ac.Model("dangling")
    m.add(blocks.Not("inverter"))
    with pytest.raises(ac.ModelError, match=r"inverter\.u .*not connected"):
        m.compile()


def test_a_size_that_is_not_a_whole_number_is_refused():
    m = ac.Model("sizes")
    with pytest.raises(ac.ModelError, match="nu = 2.5"):
        m.add(blocks.MultiOr("gate", nu=2.5))


def test_integer_table_and_radio_buttons_from_python():
    """IntegerTable takes its rows with blocks.set_table; two RadioButtonSources (their
    instants as parameters) reset each other, so exactly one is on after the first press."""
    m = ac.Model("buttons")
    steps = m.add(blocks.IntegerTable("steps"))
    blocks.set_table(steps, [(0.0, 1), (1.0, 3), (2.5, -2)])
    start = m.add(blocks.RadioButtonSource("start", buttonTimeTable_1=1.0, buttonTimeTable_2=3.0))
    stop = m.add(blocks.RadioButtonSource("stop", buttonTimeTable_1=2.0, buttonTimeTable_2=4.0))
    m.connect(stop.on, start.reset1)
    m.connect(start.on, stop.reset1)
    r = m.compile().simulate(t_end=5.0, output_interval=0.05)
    assert [value_at(r, "steps.y", t) for t in (0.5, 1.5, 3.0, 4.9)] == [1.0, 3.0, -2.0, -2.0]
    assert [value_at(r, "start.on", t) for t in (0.5, 1.5, 2.5, 3.5, 4.5)] == [0.0, 1.0, 0.0, 1.0, 0.0]
    assert [value_at(r, "stop.on", t) for t in (0.5, 1.5, 2.5, 3.5, 4.5)] == [0.0, 0.0, 1.0, 0.0, 1.0]
    with pytest.raises(ac.ModelError, match="whole value"):
        blocks.set_table(m.add(blocks.IntegerTable("bad")), [(0.0, 0.5)])
