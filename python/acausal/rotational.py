"""Rotational mechanics (Modelica.Mechanics.Rotational names)."""
from .component import ConnectorKind, library_component

Flange = ConnectorKind("rotational.Flange")
Inertia = library_component("rotational.Inertia")
Spring = library_component("rotational.Spring")
Damper = library_component("rotational.Damper")
Fixed = library_component("rotational.Fixed")
Torque = library_component("rotational.Torque")
TorqueStep = library_component("rotational.TorqueStep")
IdealGear = library_component("rotational.IdealGear")
IdealGearWithSupport = library_component("rotational.IdealGearWithSupport")
IdealRollingWheel = library_component("rotational.IdealRollingWheel")
