"""Electrical analog circuits (Modelica.Electrical.Analog names): pins with v and i."""
from . import _acausal
from .component import ConnectorKind, library_component  # noqa: F401

Pin = ConnectorKind("electrical.Pin")

# One factory per library component of this domain (the list lives in components/library.hpp).
for _key in _acausal._library:
    _domain, _name = _key.split(".")
    if _domain == "electrical":
        globals()[_name] = library_component(_key)


def set_ocv_table(battery, points):
    """Sets a CellStack's or CellRCStack's open-circuit voltage as (SOC, OCV/OCVmax) points, SOC increasing, both
    in [0, 1], linear between and held beyond (MSL's OCV_SOC table); without it OCV is linear from OCVmin at SOCmin
    to OCVmax at SOCmax."""
    _acausal._set_ocv_table(battery, [(float(soc), float(ratio)) for soc, ratio in points])
