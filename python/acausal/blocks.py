"""Signal blocks (Modelica.Blocks names)."""
from .component import library_component

Constant = library_component("blocks.Constant")
Sine = library_component("blocks.Sine")
Step = library_component("blocks.Step")
Gain = library_component("blocks.Gain")
Add = library_component("blocks.Add")
Product = library_component("blocks.Product")
Feedback = library_component("blocks.Feedback")
Integrator = library_component("blocks.Integrator")
FirstOrder = library_component("blocks.FirstOrder")
SecondOrder = library_component("blocks.SecondOrder")
Limiter = library_component("blocks.Limiter")
DeadZone = library_component("blocks.DeadZone")
Ramp = library_component("blocks.Ramp")
SlewRateLimiter = library_component("blocks.SlewRateLimiter")
PI = library_component("blocks.PI")
PID = library_component("blocks.PID")
