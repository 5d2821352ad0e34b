"""Models and components: library components by keyword, components written in Python."""
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


class LibraryComponent:
    """A library component to add to a model: its type, name, parameter values and tables."""

    def __init__(self, key, name, params, tables=None):
        self.key, self.name, self.params, self.tables = key, name, params, tables or {}

    def __repr__(self):
        args = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"{self.key}({self.name!r}{', ' if args else ''}{args})"


def library_component(key):
    """A constructor for a library component: checks keyword names at once."""
    known = None

    def make(name, **params):
        nonlocal known
        if known is None:
            known = dict(_acausal._library_parameters(key))
        tables = {}
        if TABLE_PARAMETERS.get(key) in params:
            table = TABLE_PARAMETERS[key]
            tables[table] = [(float(x), float(y)) for x, y in params.pop(table)]
        for k, v in params.items():
            if k not in known:
                raise ValueError(
                    f"{key}('{name}'): unknown parameter '{k}'; its parameters are: {', '.join(known) or '(none)'}"
                )
            if isinstance(v, str):  # a choice by name: initType="SteadyState"
                if v not in known[k]:
                    raise ValueError(f"{key}('{name}'): {k}={v!r} is not one of its choices: "
                                     f"{', '.join(known[k]) or '(it takes a number)'}")
                v = known[k].index(v)
            params[k] = float(v)
        return LibraryComponent(key, name, params, tables)

    make.__name__ = key.split(".")[-1]
    make.__qualname__ = key
    make.__doc__ = f"The library component {key}; keyword arguments set its parameters."
    return make


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
