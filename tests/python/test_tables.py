"""Interpolation tables from Python: table() in equations, the CombiTimeTable, CombiTable1D and CombiTable2D
blocks with MSL's choices, tables from files, and the errors named."""
import pathlib

import numpy as np
import pytest

import acausal as ac
from acausal import blocks

TABLES = pathlib.Path(__file__).parent.parent / "data" / "tables"


class TableDriven(ac.Component):
    """der(y) = table(time) and z = table2d(y, time): integrals with closed forms."""

    def __init__(self, name):
        super().__init__(name)
        y = self.variable("y", start=0.0, fixed=True)
        z = self.variable("z")
        self.equation(ac.der(y) == ac.table(ac.time, [0, 1, 2], [0, 2, 0], smoothness="LinearSegments"))
        self.equation(z == ac.table2d(y, ac.time, [0, 1], [0, 10], [[0, 10], [1, 11]], extrapolation="LastTwoPoints"))


def test_table_functions_in_python_equations():
    m = ac.Model("driven")
    m.add(TableDriven("d"))
    r = m.compile().simulate(t_end=2.0, output_interval=0.5, rtol=1e-10, atol=1e-12)
    # ∫ of the hat 0 → 2 → 0 over [0, 2] is 2; at t = 1 it is 1.
    assert abs(r["d.y"][2] - 1.0) < 1e-7 and abs(r["d.y"][-1] - 2.0) < 1e-7
    # z is bilinear: y + time on this grid.
    assert np.abs(r["d.z"] - (r["d.y"] + r.time)).max() < 1e-12
    with pytest.raises(ac.ModelError, match="smoothness 'Smooth' is not one of LinearSegments"):
        ac.table(ac.time, [0, 1], [0, 1], smoothness="Smooth")
    with pytest.raises(ac.ModelError, match="must not decrease"):
        ac.table(ac.time, [1, 0], [0, 1])


def test_combi_time_table_with_a_jump_and_a_file():
    m = ac.Model("cycle")
    table = m.add(blocks.CombiTimeTable("table", extrapolation="HoldLastPoint", offset=1.0))
    blocks.set_table(table, [(0, 0, 5), (1, 1, 5), (1, 3, 5), (2, 3, 5)])
    integral = m.add(blocks.Integrator("integral"))
    m.connect(table.y1, integral.u)
    r = m.compile().simulate(t_end=3.0, output_interval=0.5, rtol=1e-10, atol=1e-12)
    at_jump = np.flatnonzero(np.isclose(r.time, 1.0))
    assert [r["table.y1"][k] for k in (at_jump[0], at_jump[-1])] == [2.0, 4.0]  # both sides of the jump
    assert abs(r["integral.y"][-1] - (0.5 + 3 + 3 + 3)) < 1e-8  # ∫ of the table plus the offset
    # The MSL text format: tab1 is (0, -1) ... (5, -6).
    m = ac.Model("from_file")
    table = m.add(blocks.CombiTimeTable("table", smoothness="ConstantSegments"))
    blocks.load_table(table, TABLES / "msl_tables.txt", table_name="tab1")
    m.connect(table.y1, m.add(blocks.Integrator("integral")).u)
    r = m.compile().simulate(t_end=4.5, output_interval=0.5)
    assert [r["table.y1"][np.flatnonzero(np.isclose(r.time, t))[-1]] for t in range(5)] == [-1, -2, -3, -4, -5]
    with pytest.raises(ac.ModelError, match="no table named 'tab9'"):
        blocks.load_table(m.add(blocks.CombiTimeTable("other")), TABLES / "msl_tables.txt", table_name="tab9")


def test_combi_tables_of_signals():
    m = ac.Model("maps")
    clock = m.add(blocks.Ramp("clock", height=2.0, duration=2.0))
    curve = m.add(blocks.CombiTable1D("curve", smoothness="MonotoneContinuousDerivative1"))
    blocks.load_table(curve, TABLES / "engine.csv", abscissa="time", columns=["torque"])
    grid = m.add(blocks.CombiTable2D("grid", extrapolation="HoldLastPoint"))
    blocks.set_table_2d(grid, [0, 2], [0, 1], [[0, 1], [2, 3]])
    m.connect(clock.y, curve.u)
    m.connect(clock.y, grid.u1)
    m.connect(clock.y, grid.u2)
    m.connect(curve.y1, m.add(blocks.Integrator("integral")).u)
    r = m.compile().simulate(t_end=2.0, output_interval=0.5)
    # engine.csv's torque column: 0 at 0 s, -25 at 1.5 s, 150 at 2 s; the cubic passes through them.
    assert abs(r["curve.y1"][3] - (-25.0)) < 1e-12 and abs(r["curve.y1"][4] - 150.0) < 1e-12
    # Bilinear y = u1 + u2 inside the grid, held beyond u2 = 1.
    u = r["clock.y"]
    assert np.abs(r["grid.y"] - (u + np.minimum(u, 1.0))).max() < 1e-12
    with pytest.raises(ac.ModelError, match="is not a blocks.CombiTable2D"):
        blocks.set_table_2d(curve, [0, 1], [0, 1], [[0, 0], [0, 0]])
