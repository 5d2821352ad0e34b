"""Vehicle longitudinal dynamics: wheels, body with load transfer, driveline."""
from . import _acausal
from .component import ConnectorKind, library_component  # noqa: F401

WheelContact = ConnectorKind("vehicle.WheelContact")
radius_from_tire_size = _acausal.radius_from_tire_size

# One factory per library component of this domain (the list lives in components/library.hpp).
for _key in _acausal._library:
    _domain, _name = _key.split(".")
    if _domain == "vehicle":
        globals()[_name] = library_component(_key)
