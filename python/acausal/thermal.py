"""Heat transfer (Modelica.Thermal.HeatTransfer names): heat ports with T and Q_flow."""
from . import _acausal
from .component import ConnectorKind, library_component  # noqa: F401

HeatPort = ConnectorKind("thermal.HeatPort")


def from_degC(T_degC):
    """Kelvin from degrees Celsius."""
    return T_degC + 273.15


def to_degC(T):
    """Degrees Celsius from kelvin."""
    return T - 273.15


# One factory per library component of this domain (the list lives in components/library.hpp).
for _key in _acausal._library:
    _domain, _name = _key.split(".")
    if _domain == "thermal":
        globals()[_name] = library_component(_key)
