"""Planar mechanics (Modelica PlanarMechanics names): frames with x, y, phi and fx, fy, tau."""
from . import _acausal
from .component import ConnectorKind, library_component  # noqa: F401

Frame = ConnectorKind("planar.Frame")

# One factory per library component of this domain (the list lives in components/library.hpp).
for _key in _acausal._library:
    _domain, _name = _key.split(".")
    if _domain == "planar":
        globals()[_name] = library_component(_key)
