"""Rotational mechanics (Modelica.Mechanics.Rotational names)."""
from . import _acausal
from .component import ConnectorKind, library_component  # noqa: F401

Flange = ConnectorKind("rotational.Flange")

# One factory per library component of this domain (the list lives in components/library.hpp).
for _key in _acausal._library:
    _domain, _name = _key.split(".")
    if _domain == "rotational":
        globals()[_name] = library_component(_key)
