"""Models and components: library components by keyword, components written in Python."""
import difflib
import re
import inspect
import math
import textwrap
import warnings
import weakref

from . import _acausal


class ConnectorKind:
    """A connector type, for Component.connector(kind, name)."""

    def __init__(self, key):
        self._key = key

    def __repr__(self):
        return f"<connector type {self._key}>"


RealInput = ConnectorKind("RealInput")
RealOutput = ConnectorKind("RealOutput")
BooleanInput = ConnectorKind("BooleanInput")
BooleanOutput = ConnectorKind("BooleanOutput")
IntegerInput = ConnectorKind("IntegerInput")
IntegerOutput = ConnectorKind("IntegerOutput")


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
    lines += _part_parameter_lines(info.get("part_parameters", []))
    return "\n".join(lines)


def _part_parameter_lines(rows):
    """An assembly's parts' parameters by path, grouped under each part, as the assembly sets them."""
    if not rows:
        return []
    lines = ["", "Parameters of parts (path [unit] = default, bounds; set them by path, "
                 "set_parameter(\"wheel_rl.mu\", 0.8), or many at once, set_parameters(\"wheel_*.mu\", 0.8)):"]
    part = None
    for p in rows:
        if p["part"] != part:
            part = p["part"]
            lines.append(f"    {part} ({p['type']}):")
        bounds = []
        if math.isfinite(p["min"]):
            bounds.append(f">= {p['min']:g}")
        if math.isfinite(p["max"]):
            bounds.append(f"<= {p['max']:g}")
        default = f"{p['value']:g}"
        if p["choices"]:
            bounds.append("one of " + ", ".join(p["choices"]))
            default = repr(p["choices"][int(p["value"])])
        if p["structural"]:
            bounds.append("structural")
        unit = f" [{p['unit']}]" if p["unit"] else ""
        lines.append(f"        {p['name']}{unit} = {default}" + (f"  ({'; '.join(bounds)})" if bounds else ""))
    return lines


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
        """The component's parameters with their defaults, then an assembly's parts' by path ("wheel_rl.mu"):
        a DataFrame (name, value, unit, min, max, ...)."""
        return parameter_frame(cls._info()["parameters"] + cls._info()["part_parameters"])

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
        sized = set(info["options"]) & set(params)  # nu=3: the parameters u3, expr_3, ... exist then
        for k, v in params.items():
            if k not in known and not (sized and re.sub(r"_\d+$", "_1", k) in choices):
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


def _add(self, component):
    """Adds a part: a library component (rotational.Inertia("i", J=2)) or a Component written in Python.
    Returns the part as it is in the model, to connect and to read variables from."""
    if isinstance(component, LibraryComponent):
        added = self._add_library(component.key, component.name, list(component.params.items()))
        for table, points in component.tables.items():
            _acausal._set_friction_characteristic(added, table, points)
        return added
    if isinstance(component, _acausal.Component):
        component._set_type_name(type(component).__name__)
        return self._add_external(component)
    raise TypeError(f"add() takes a library component (such as rotational.Inertia(...)) or a Component, "
                    f"not {type(component).__name__}")


# Every component and model can add sub-components, also those built in C++ (a rig's model).
_add.__name__ = _add.__qualname__ = "add"
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
    if inspect.isfunction(method):  # help() shows its arguments (a binding's are in its docstring)
        checked.__wrapped__ = method
    return checked


for _name, _member in list(vars(_acausal.Component).items()):
    if _name in ("__init__", "__new__") or not callable(_member) or (_name.startswith("__") and _name != "__getattr__"):
        continue
    setattr(_acausal.Component, _name, _constructed(_member))
for _name in ("name", "path"):
    _property = vars(_acausal.Component)[_name]
    setattr(_acausal.Component, _name, property(_constructed(_property.fget), doc=_property.__doc__))


def _python_docstring(title, doc, info):
    """help() text of a Python component: its docstring, then its declarations as library components show them."""
    declarations = _docstring(title, dict(info, options=[]), {})
    start = declarations.find("\nConnectors:")
    return "\n".join([title, "", inspect.cleandoc(doc or ""), "", declarations[start + 1 if start >= 0 else 0:]])


# A Python component declares its parts in its constructor: help(Class) and Class.parameters
# read them from one built with the constructor's defaults, once per class.
_probe_info = weakref.WeakKeyDictionary()


def _class_info(cls):
    """component_info of cls built with its defaults (named after the class), or None when its
    constructor needs more than a name or fails."""
    if cls not in _probe_info:
        info = None
        try:
            parameters = list(inspect.signature(cls).parameters.values())
            positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
            required = [p for p in parameters if p.default is p.empty
                        and p.kind not in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)]
            if parameters and parameters[0].kind in positional and required in ([], [parameters[0]]):
                info = _acausal._component_info(cls(cls.__name__))
        except Exception:  # noqa: BLE001  (help() must not fail because a constructor does)
            info = None
        _probe_info[cls] = info
    return _probe_info[cls]


def _signature(cls):
    try:
        return f"{cls.__name__}{inspect.signature(cls)}"
    except (TypeError, ValueError):
        return f"{cls.__name__}(name, ...)"


class _ComponentDoc:
    """A Python component class's __doc__: for an instance, what its constructor declared; for the class,
    what one built with the constructor's defaults declares (help(Class) and help(instance) both work)."""

    def __init__(self, doc):
        self.doc = doc

    def __get__(self, instance, owner):
        if instance is None:
            info = _class_info(owner)
            if info is None:
                return (f"{_signature(owner)}\n\n{inspect.cleandoc(self.doc or '')}\n\nIts connectors, "
                        f"parameters, variables and equations are declared by its constructor, which needs "
                        f"arguments (or failed with its defaults): help(instance) lists them.")
            return _python_docstring(_signature(owner), self.doc, info)
        if not _acausal._is_constructed(instance):
            return self.doc
        return _python_docstring(f"{type(instance).__name__}({instance.name!r})", self.doc,
                                 _acausal._component_info(instance))


class _ParametersProperty(property):
    """.parameters of Python components, which also answers on the class (with the constructor's defaults)."""

    def __get__(self, instance, owner=None):
        if instance is not None:
            return super().__get__(instance, owner)
        info = _class_info(owner)
        if info is None:
            raise TypeError(f"{owner.__name__} declares its parameters in its constructor, which needs arguments "
                            f"or failed with its defaults: read them from an instance, {owner.__name__}(...).parameters")
        return parameter_frame(info["parameters"] + info.get("part_parameters", []))


class Component(_acausal.Component):
    """Base of components written in Python: declare connectors, parameters and
    variables, write equations; they compile to the same tape as C++ components.
    help() of a subclass lists what its constructor declares, like a library component's."""

    @_ParametersProperty
    def parameters(self):
        """Its parameters with their values, then its parts' by path ("inertia.J"): a DataFrame (name, value,
        unit, min, max, structural, description); on the class, those of one built with the constructor's
        defaults."""
        info = _acausal._component_info(self)
        return parameter_frame(info["parameters"] + info.get("part_parameters", []))

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        doc = cls.__dict__.get("__doc__")
        if doc is None:  # a subclass without its own docstring shows its base's
            doc = next((vars(base)["__doc__"].doc for base in cls.__mro__[1:]
                        if isinstance(vars(base).get("__doc__"), _ComponentDoc)), None)
        cls.__doc__ = _ComponentDoc(doc)

    def __repr__(self):
        if not _acausal._is_constructed(self):
            return f"<{type(self).__name__} (not constructed)>"
        return f"<{type(self).__name__} {self.path or self.name}>"

    @_constructed
    def connector(self, kind, name):
        """Declares a connector of type `kind` (ac.rotational.Flange, ac.RealInput, ...) named `name` and returns
        it; its members (flange.phi, flange.tau) or, for a signal, its .value go into equations."""
        return _acausal._create_connector(kind._key, self, name)


class ModelWarning(UserWarning):
    """What compile() accepted but is probably a mistake: a state starting from a start value nobody set
    (default_start), a unit inconsistency (unit), a wheel without load (no_load). Each is also in
    sim.report["warnings"]. Silence with warnings.filterwarnings("ignore", category=acausal.ModelWarning)."""


class Model(_acausal.Model):
    """The top-level model: add components, connect them, set start values, compile."""

    def compile(self, native_code=False, c_compiler="", units="warn"):
        """Compiles the model. native_code=True runs its tapes as machine code built by the system's C
        compiler (cached; c_compiler or $ACAUSAL_CC names the compiler, default cc). Every warning of the
        compile report is issued as an acausal.ModelWarning; units="error" makes unit inconsistencies a
        ModelError instead."""
        sim = super().compile(native_code=native_code, c_compiler=c_compiler, units=units)
        for w in sim.report["warnings"]:
            warnings.warn(f"{self.name}: {w['message']}", ModelWarning, stacklevel=2)
        return sim

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
