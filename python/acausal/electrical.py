"""Electrical analog circuits (Modelica.Electrical.Analog names): pins with v and i."""
from . import _acausal
from .component import ConnectorKind, library_component  # noqa: F401

Pin = ConnectorKind("electrical.Pin")

# One factory per library component of this domain (the list lives in components/library.hpp).
for _key in _acausal._library:
    _domain, _name = _key.split(".")
    if _domain == "electrical":
        globals()[_name] = library_component(_key)
