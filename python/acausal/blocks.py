"""Signal blocks (Modelica.Blocks names)."""
from . import _acausal
from .component import ConnectorKind, library_component  # noqa: F401


# One factory per library component of this domain (the list lives in components/library.hpp).
for _key in _acausal._library:
    _domain, _name = _key.split(".")
    if _domain == "blocks":
        globals()[_name] = library_component(_key)


def set_table(component, points):
    """Sets the (time, value) points of a TimeTable added to a model."""
    _acausal._set_table(component, [(float(t), float(v)) for t, v in points])
