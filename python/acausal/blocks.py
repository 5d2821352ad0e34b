"""Signal blocks (Modelica.Blocks names)."""
from . import _acausal
from .component import ConnectorKind, library_component  # noqa: F401


# One factory per library component of this domain (the list lives in components/library.hpp).
for _key in _acausal._library:
    _domain, _name = _key.split(".")
    if _domain == "blocks":
        globals()[_name] = library_component(_key)


def set_table(component, rows):
    """Sets the table of a TimeTable or an IntegerTable ((time, value) points), or of a CombiTimeTable or
    CombiTable1D (rows of abscissa and values: one output y1, y2, ... per value column), added to a model."""
    if component.type_name == "blocks::TimeTable":
        _acausal._set_table(component, [(float(t), float(v)) for t, v in rows])
    elif component.type_name == "blocks::IntegerTable":
        _acausal._set_integer_table(component, [(float(t), float(v)) for t, v in rows])
    else:
        _acausal._set_rows(component, [[float(v) for v in row] for row in rows])


def load_table(component, path, table_name="", abscissa="1", columns=()):
    """Reads a CombiTimeTable's, CombiTable1D's or CombiTable2D's table from a file: a CSV with a header, or
    Modelica's text format (then table_name is the matrix's name). abscissa and columns name CSV columns or
    give 1-based numbers as text; no columns: all but the abscissa."""
    _acausal._load_table(component, str(path), table_name, str(abscissa), [str(c) for c in columns])


def set_table_2d(component, u1, u2, values):
    """Sets a CombiTable2D's grid: values[i][j] at (u1[i], u2[j])."""
    _acausal._set_table_2d(component, [float(x) for x in u1], [float(x) for x in u2],
                           [[float(v) for v in row] for row in values])
