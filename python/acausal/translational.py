"""Translational mechanics (Modelica.Mechanics.Translational names)."""
from .component import ConnectorKind, library_component

Flange = ConnectorKind("translational.Flange")
Mass = library_component("translational.Mass")
Spring = library_component("translational.Spring")
Damper = library_component("translational.Damper")
Fixed = library_component("translational.Fixed")
Force = library_component("translational.Force")
QuadraticSpeedDependentForce = library_component("translational.QuadraticSpeedDependentForce")
