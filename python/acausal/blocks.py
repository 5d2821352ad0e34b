"""Signal blocks (Modelica.Blocks names)."""
from .component import library_component

Constant = library_component("blocks.Constant")
Sine = library_component("blocks.Sine")
Step = library_component("blocks.Step")
