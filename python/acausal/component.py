"""Models and components: library components by keyword, components written in Python."""
import difflib
import math
import textwrap

from . import _acausal


class ConnectorKind:
    """A connector type, for Component.connector(kind, name)."""

    def __init__(self, key):
        self._key = key

    def __repr__(self):
        return f"<connector type {self._key}>"


RealInput = ConnectorKind("RealInput")
RealOutput = ConnectorKind("RealOutput")


# Friction characteristics given as tables, a keyword taking (speed, value) pairs (MSL names).
TABLE_PARAMETERS = {
    "rotational.Clutch": "mu_pos", "rotational.Brake": "mu_pos", "rotational.OneWayClutch": "mu_pos",
    "rotational.BearingFriction": "tau_pos", "translational.Brake": "mu_pos",
    "translational.SupportFriction": "f_pos",
}


def _bound(value, fallback):
    return value if math.isfinite(value) else fallback


def parameter_frame(rows):
    """A pandas DataFrame of parameter rows (name, value, unit, min, max, ...), indexed by name."""
    import pandas as pd  # on first use only: importing pandas costs a quarter of a second

    columns = ["name", "value", "unit", "min", "max", "structural", "description"]
    if rows and "input" in rows[0]:
        columns.insert(6, "input")
    frame = pd.DataFrame(rows, columns=columns)
    return frame.set_index("name")


def _docstring(key, info, docs):
    """help() text of a library component, from its C++ declarations and its header's documentation."""
    lines = [f"{key}(name, **parameters)", "", textwrap.fill(docs.get(key, ""), 100)]
    if info["options"]:
        lines += ["", "Equipment (keyword, fixed when added): " + ", ".join(info["options"]) + "."]
    lines += ["", "Connectors:"]
    for k in info["connectors"]:
        members = ", ".join(f"{m['name']} ({m['kind']}{', ' + m['unit'] if m['unit'] else ''})"
                            for m in k["members"] if m["name"])
        signal = [m for m in k["members"] if not m["name"]]
        kind = f" {signal[0]['kind']}" + (f" [{signal[0]['unit']}]" if signal[0]["unit"] else "") if signal else ""
        lines.append(f"    {k['name']}: {k['type']}{kind}{': ' + members if members else ''}")
    if not info["connectors"]:
        lines.append("    (none)")
    if info["parameters"]:
        lines += ["", "Parameters (name [unit] = default, bounds):"]
        for p in info["parameters"]:
            bounds = []
            if math.isfinite(p["min"]):
                bounds.append(f">= {p['min']:g}")
            if math.isfinite(p["max"]):
                bounds.append(f"<= {p['max']:g}")
            if p["choices"]:
                bounds.append("one of " + ", ".join(p["choices"]))
                default = repr(p["choices"][int(p["value"])])
            else:
                default = f"{p['value']:g}"
            if p["structural"]:
                bounds.append("structural: fixed at compile()")
            unit = f" [{p['unit']}]" if p["unit"] else ""
            text = f"    {p['name']}{unit} = {default}" + (f"  ({'; '.join(bounds)})" if bounds else "")
            if p["description"]:
                text += f" -- {p['description']}"
            lines.append(text)
    if info["variables"]:
        lines += ["", "Variables:"]
        for v in info["variables"]:
            state = "" if v["state"] == "default" else f", state selection {v['state']}"
            lines.append(f"    {v['name']}" + (f" [{v['unit']}]" if v["unit"] else "") + state)
    if info["discretes"]:
        lines += ["", "Discrete variables:"]
        lines += [f"    {d['name']} ({d['kind']}, start {d['start']:g})" for d in info["discretes"]]
    if info["requirements"]:
        lines += ["", "Requires:"] + [f"    {r}" for r in info["requirements"]]
    if info["equations"]:
        lines += ["", "Equations:"] + [f"    {e}" for e in info["equations"]]
    if info["children"]:
        lines += ["", "Parts:"] + [f"    {c['name']}: {c['type']}" for c in info["children"]]
    return "\n".join(lines)


class LibraryComponentType(type):
    """The class of a library component's class: its documentation and
    parameter table come from the C++ declarations, read on first use."""

    def _info(cls):
        if cls.__dict__.get("_cached_info") is None:
            cls._cached_info = _acausal._library_info(cls._key)
        return cls._cached_info

    @property
    def __doc__(cls):
        if cls.__dict__.get("_key") is None:
            return cls.__dict__.get("_doc")
        from ._component_docs import DOCS

        return _docstring(cls._key, cls._info(), DOCS)

    @property
    def __signature__(cls):
        import inspect

        if cls.__dict__.get("_key") is None:
            return None
        keyword = inspect.Parameter.KEYWORD_ONLY
        parameters = [inspect.Parameter("name", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
        for p in cls._info()["parameters"]:
            default = p["choices"][int(p["value"])] if p["choices"] else p["value"]
            parameters.append(inspect.Parameter(p["name"], keyword, default=default))
        parameters += [inspect.Parameter(o, keyword, default=False) for o in cls._info()["options"]]
        return inspect.Signature(parameters)

    @property
    def parameters(cls):
        """The component's parameters with their defaults: a DataFrame (name, value, unit, min, max, ...)."""
        return parameter_frame(cls._info()["parameters"])

    @property
    def connectors(cls):
        """{connector name: connector type}."""
        return {k["name"]: k["type"] for k in cls._info()["connectors"]}


class LibraryComponent(metaclass=LibraryComponentType):
    """A library component to add to a model: its type, name, parameter values and tables.
    Each library component is a subclass (vehicle.Wheel, ...); m.add(...) returns the part in the model."""

    _key = None
    _doc = __doc__

    def __init__(self, name, **params):
        info = type(self)._info()
        choices = {p["name"]: p["choices"] for p in info["parameters"]}
        known = list(choices) + info["options"]
        tables = {}
        table = TABLE_PARAMETERS.get(self._key)
        if table in params:
            tables[table] = [(float(x), float(y)) for x, y in params.pop(table)]
        for k, v in params.items():
            if k not in known:
                close = difflib.get_close_matches(k, known, n=3)
                hint = f"did you mean {' or '.join(map(repr, close))}? " if close else ""
                raise ValueError(f"{self._key}('{name}'): unknown parameter '{k}'; {hint}"
                                 f"its parameters are: {', '.join(known) or '(none)'}")
            if isinstance(v, str):  # a choice by name: initType="SteadyState"
                if v not in choices.get(k, []):
                    raise ValueError(f"{self._key}('{name}'): {k}={v!r} is not one of its choices: "
                                     f"{', '.join(choices.get(k, [])) or '(it takes a number)'}")
                v = choices[k].index(v)
            params[k] = float(v)
        self.key, self.name, self.params, self.tables = self._key, name, params, tables

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(type(self).connectors) |
                      {p["name"] for p in type(self)._info()["parameters"]})

    def __repr__(self):
        args = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"{self.key}({self.name!r}{', ' if args else ''}{args})"


def library_component(key):
    """The class of the library component `key` ("vehicle.Wheel")."""
    domain, name = key.split(".")
    return LibraryComponentType(name, (LibraryComponent,), {"_key": key, "__module__": f"acausal.{domain}",
                                                            "__qualname__": name, "_cached_info": None})


def _add(parent, component):
    if isinstance(component, LibraryComponent):
        added = parent._add_library(component.key, component.name, list(component.params.items()))
        for table, points in component.tables.items():
            _acausal._set_friction_characteristic(added, table, points)
        return added
    if isinstance(component, _acausal.Component):
        component._set_type_name(type(component).__name__)
        return parent._add_external(component)
    raise TypeError(f"add() takes a library component (such as rotational.Inertia(...)) or a Component, "
                    f"not {type(component).__name__}")


# Every component and model can add sub-components, also those built in C++ (a rig's model).
_acausal.Component.add = _add


def _constructed(method):
    """Wraps a Component method so that a subclass whose __init__ forgot
    super().__init__(name) gets a TypeError instead of reaching C++ with no object."""

    def checked(self, *args, **kwargs):
        if not _acausal._is_constructed(self):
            raise TypeError(
                f"{type(self).__name__}.__init__ must call super().__init__(name) before declaring "
                f"connectors, parameters, variables or equations"
            )
        return method(self, *args, **kwargs)

    checked.__name__, checked.__doc__ = method.__name__, method.__doc__
    return checked


for _name, _member in list(vars(_acausal.Component).items()):
    if _name in ("__init__", "__new__") or not callable(_member) or (_name.startswith("__") and _name != "__getattr__"):
        continue
    setattr(_acausal.Component, _name, _constructed(_member))
for _name in ("name", "path"):
    _property = vars(_acausal.Component)[_name]
    setattr(_acausal.Component, _name, property(_constructed(_property.fget), doc=_property.__doc__))


class Component(_acausal.Component):
    """Base of components written in Python: declare connectors, parameters and
    variables, write equations; they compile to the same tape as C++ components."""

    @_constructed
    def connector(self, kind, name):
        return _acausal._create_connector(kind._key, self, name)


class Model(_acausal.Model):
    """The top-level model: add components, connect them, set start values, compile."""

    def input(self, name, unit="", start=0.0):
        """An input of the model (a top-level RealInput): connect it to components' inputs; after compile()
        it is set from outside like a parameter, sim.set_parameter(name, value), and linearize() takes it
        as an input. `start` is its value until set."""
        return _acausal._create_signal(True, self, name, unit, float(start))

    def output(self, name, value, unit=""):
        """An output of the model (a top-level RealOutput) equal to `value` (an expression or a signal);
        linearize() takes the model's outputs by default."""
        connector = _acausal._create_signal(False, self, name, unit, 0.0)
        self.equation(connector.value == value)
        return connector
