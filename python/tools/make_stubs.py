"""Writes .pyi stubs and py.typed into the built acausal package, so that editors complete acausal.*.

An editor cannot see inside the compiled module (its signatures live only in pybind11 docstrings),
nor the library components (classes made at import time from the C++ declarations, with keyword
parameters). This script imports the built package and writes what it finds: __init__.pyi, one stub
per public submodule, and py.typed; a file is rewritten only when its content changes. Only the
implicit conversions (an Expr parameter takes a float) are read from the bindings' sources beside it.

    PYTHONPATH=build/python python3 python/tools/make_stubs.py build/python/acausal
"""
import ast
import builtins
import functools
import importlib
import inspect
import math
import re
import sys
import types
from pathlib import Path

import acausal
from acausal.component import TABLE_PARAMETERS, LibraryComponentType

SUBMODULES = ["rotational", "translational", "planar", "electrical", "thermal", "blocks", "vehicle", "harness"]
SKIP = {"__dict__", "__dir__", "__doc__", "__getstate__", "__hash__", "__members__", "__module__", "__new__",
        "__qualname__", "__repr__", "__setstate__", "__str__", "__weakref__"}
PREFIX = re.compile(r"\b(?:acausal\._acausal\._harness\.|acausal\._acausal\.|acausal::|typing\.)")
SIGNATURE = re.compile(r"[\w.]*(\(.*\)(?: -> .+)?)$")  # pybind11's first docstring line: name(a: T = default) -> R
RENAME = {"List": "list", "Dict": "dict", "Tuple": "tuple", "Set": "set", "handle": "Any", "object": "Any"}
P = inspect.Parameter


def conversions():
    """{class: the types pybind11 also takes for it}, from py::implicitly_convertible<From, To>() in the
    bindings (pybind11 does not expose them): an Expr parameter takes a float, an int or a Connector too."""
    found = {}
    for source in Path(__file__).resolve().parents[1].glob("*.cpp"):
        for origin, target in re.findall(r"implicitly_convertible<(\w+), (\w+)>", source.read_text(encoding="utf-8")):
            found.setdefault(target, {})[{"double": "float", "int": "float"}.get(origin, origin)] = None
    return {target: list(origins) for target, origins in found.items()}


CONVERSIONS = conversions()


class Text(str):
    """Annotation or default text that inspect.Signature prints as it is."""
    __repr__ = str.__str__


def literal(value):
    """The value as source if it is a plain literal, else `...` (stubs show no computed defaults)."""
    finite = not isinstance(value, float) or math.isfinite(value)
    return Text(repr(value) if type(value) in (bool, int, float, str, type(None)) and finite else "...")


def docstring(doc, indent):
    """The first sentence of a docstring (after pybind11's signature line) as a one-line docstring, or nothing."""
    paragraphs = [" ".join(p.split()) for p in (doc or "").strip().split("\n\n")]
    text = paragraphs[1 if SIGNATURE.match(paragraphs[0]) and len(paragraphs) > 1 else 0]
    if not text or text.endswith(":") or SIGNATURE.match(text):  # none, a heading ("Members:"), a bare signature
        return []
    text = re.match(r"(.+?\.)(?=\s|$)|.+", text).group(0).replace("\\", "\\\\").replace('"""', '\\"""')
    tail = " " if text.endswith('"') else ""  # a " just before the closing quotes would end the string early
    return [f'{indent}"""{text}{tail}"""']


def parse(line):
    """A signature line, `name(a: T, b: T = default) -> R` (pybind11's or inspect's), as an ast.FunctionDef;
    None if it is not one. Without the module prefixes and <object reprs>, it is Python syntax."""
    match = SIGNATURE.match(line)
    try:
        return ast.parse(f"def f{re.sub(r'<[^<>]*>', '...', PREFIX.sub('', match.group(1)))}: ...").body[0]
    except (AttributeError, SyntaxError):  # no match, or not Python
        return None


class Typing(ast.NodeTransformer):
    """Optional[T] -> T | None, Union[A, B] -> A | B, List -> list, numpy.ndarray[...] -> numpy.ndarray."""

    def visit_Subscript(self, node):
        self.generic_visit(node)
        base = ast.unparse(node.value)
        args = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if base in ("Optional", "Union"):
            args += [ast.Constant(None)] if base == "Optional" else []
            return functools.reduce(lambda a, b: ast.BinOp(a, ast.BitOr(), b), args)
        return node.value if base == "numpy.ndarray" else node

    def visit_Name(self, node):
        node.id = RENAME.get(node.id, node.id)
        return node


class Stub:
    """The stub of one module: its public names, as class, def and variable declarations."""

    def __init__(self, module, top=None):
        self.module, self.imports, self.local = module, set(), {}
        for name, obj in vars(module).items():
            if isinstance(obj, type) and self.public(name, obj):
                self.local.update({c: name for c in obj.__mro__ if c.__name__ == name})  # with hidden bases
        self.top = self.local if top is None else top  # the classes acausal exports

    def public(self, name, obj):
        if name.startswith("_"):
            return False
        if isinstance(obj, types.ModuleType):
            return self.module is acausal and obj.__name__.startswith("acausal.")
        if self.module is acausal or not isinstance(obj, (type, types.FunctionType)):
            return True
        return obj.__module__ == self.module.__name__ or obj.__module__.startswith("acausal._acausal")

    def ref(self, cls):
        """The name of a class in this stub, importing it if it lives elsewhere."""
        if cls in self.local:
            return self.local[cls]
        if cls in self.top:
            self.imports.add(f"from . import {self.top[cls]}")
            return self.top[cls]
        if cls.__module__ == "builtins":
            return cls.__name__
        if cls.__module__.startswith("acausal.") and "_acausal" not in cls.__module__:
            self.imports.add(f"from .{cls.__module__.split('.', 1)[1]} import {cls.__name__}")
            return cls.__name__
        return "Any"

    def annotation(self, node, parameter=False):
        """A type as stub text (a parameter's with its implicit conversions): Any when it names something
        the stubs do not declare."""
        if node is None:
            return P.empty
        tree = Typing().visit(node)
        if parameter and isinstance(tree, ast.Name) and tree.id in CONVERSIONS:
            tree = functools.reduce(lambda a, b: ast.BinOp(a, ast.BitOr(), ast.Name(b)), CONVERSIONS[tree.id], tree)
        top, known = {name: cls for cls, name in self.top.items()}, {"Any", "numpy", *self.local.values()}
        for name in (n.id for n in ast.walk(tree) if isinstance(n, ast.Name)):
            if name in top:
                self.ref(top[name])
            elif name not in known and not isinstance(getattr(builtins, name, None), type):
                return Text("Any")
        return Text(ast.unparse(tree))

    def signature(self, line):
        """A signature line as stub text (None if it is not one); unnamed pybind11 arguments (arg0, ...)
        become positional-only."""
        fn = parse(line)
        if fn is None:
            return None

        def param(arg, default, kind):
            try:
                value = P.empty if default is None else literal(ast.literal_eval(default))
            except ValueError:
                value = Text("...")
            ann = P.empty if arg is positional[0] and arg.arg == "self" else self.annotation(arg.annotation, True)
            return P(arg.arg, kind, default=value, annotation=ann)

        args, positional, params = fn.args, fn.args.posonlyargs + fn.args.args, []
        defaults = [None] * (len(positional) - len(args.defaults)) + args.defaults
        unnamed = any(re.fullmatch(r"arg\d+", a.arg) for a in positional)
        for i, (arg, default) in enumerate(zip(positional, defaults)):
            unnamed = unnamed and bool(re.fullmatch(r"arg\d+", arg.arg) or i == 0 and arg.arg == "self")
            params.append(param(arg, default, P.POSITIONAL_ONLY if unnamed else P.POSITIONAL_OR_KEYWORD))
        params += [P(args.vararg.arg, P.VAR_POSITIONAL)] if args.vararg else []
        params += [param(arg, default, P.KEYWORD_ONLY) for arg, default in zip(args.kwonlyargs, args.kw_defaults)]
        params += [P(args.kwarg.arg, P.VAR_KEYWORD)] if args.kwarg else []
        return str(inspect.Signature(params, return_annotation=self.annotation(fn.returns)))

    def function(self, name, obj, indent=""):
        """def lines of a function: from inspect for Python, from the docstring's signature(s) for pybind11."""
        while inspect.isfunction(obj) and obj.__closure__:  # a decorator's wrapper: the function it wraps
            cells = [c.cell_contents for c in obj.__closure__]
            wrapped = [f for f in cells if getattr(f, "__name__", "") == obj.__name__]
            if not wrapped:
                break
            obj = wrapped[0]
        doc = obj.__doc__ or ""
        if inspect.isfunction(obj):
            lines = [f"{name}{inspect.signature(obj)}"]
        elif "\nOverloaded function." in doc:
            lines, doc = re.findall(r"^\d+\. (.*)$", doc, re.M), ""
        else:
            lines = [doc.partition("\n")[0]]
        signatures = [s for s in map(self.signature, lines) if s]
        if len(signatures) != 1:
            return [line for s in signatures for line in (f"{indent}@overload", f"{indent}def {name}{s}: ...")]
        body = docstring(doc, indent + "    ")
        return [f"{indent}def {name}{signatures[0]}:" + ("" if body else " ...")] + body

    def klass(self, name, cls):
        chain = [c for c in cls.__mro__ if self.local.get(c) == name]  # hidden bases merge into the class
        members = {k: v for c in reversed(chain) for k, v in vars(c).items()}
        bases = dict.fromkeys(self.ref(b) for c in chain for b in c.__bases__
                              if b not in chain and b is not object and b.__name__ != "pybind11_object")
        lines = [f"class {name}({', '.join(bases)}):" if bases else f"class {name}:"] + docstring(cls.__doc__, "    ")
        if isinstance(cls, LibraryComponentType):  # name, then its parameters by keyword
            params = [P("self", P.POSITIONAL_OR_KEYWORD), P("name", P.POSITIONAL_OR_KEYWORD, annotation=Text("str"))]
            for p in list(inspect.signature(cls).parameters.values())[1:]:
                kind = type(p.default).__name__ if isinstance(p.default, (bool, str)) else "float"
                params.append(p.replace(default=literal(p.default), annotation=Text(kind)))
            if cls._key in TABLE_PARAMETERS:
                params.append(P(TABLE_PARAMETERS[cls._key], P.KEYWORD_ONLY, default=Text("..."),
                                annotation=Text("list[tuple[float, float]]")))
            lines.append(f"    def __init__{inspect.Signature(params, return_annotation=Text('None'))}: ...")
        if inspect.isfunction(members.get("__init__")):  # attributes a Python __init__ assigns (self.model = ...)
            for node in ast.walk(ast.parse(inspect.getsource(members["__init__"]).strip())):
                if (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
                        and not node.attr.startswith("_")):
                    lines.append(f"    {node.attr}: Any")
        for attr, value in members.items():
            if attr.startswith("_") and not (attr.startswith("__") and attr.endswith("__") and attr not in SKIP):
                continue
            if isinstance(value, property):  # pybind11's getter doc: (self: T) -> R
                getter = parse((value.fget.__doc__ or "").partition("\n")[0])
                kind = self.annotation(getter.returns) if getter and getter.returns else "Any"
                body = docstring(value.__doc__, "        ")
                lines += ["    @property", f"    def {attr}(self) -> {kind}:" + ("" if body else " ...")] + body
            elif callable(value):
                lines += self.function(attr, value, "    ")
            elif not attr.startswith("__"):
                lines.append(f"    {attr}: {self.ref(type(value))}")
        return lines + (["    ..."] if len(lines) == 1 else [])

    def render(self):
        body = []
        for name, obj in vars(self.module).items():
            if not self.public(name, obj):
                continue
            if isinstance(obj, types.ModuleType):
                self.imports.add(f"from . import {name} as {name}")
            elif isinstance(obj, type):
                body += [""] + self.klass(name, obj) + [""]
            elif callable(obj):
                body += self.function(name, obj)
            else:
                body.append(f"{name}: {self.ref(type(obj))}")
        text = "\n".join(body)
        typing = [n for n in ("Any", "overload") if re.search(rf"\b{n}\b", text)]
        header = ["# Generated by python/tools/make_stubs.py from the built package: do not edit.",
                  *(["import numpy"] if "numpy." in text else []),
                  *([f"from typing import {', '.join(typing)}"] if typing else []), *sorted(self.imports)]
        return "\n".join(header) + "\n\n" + re.sub(r"\n{3,}", "\n\n", text).strip() + "\n"


def main(directory):
    package = Stub(acausal)
    files = {"__init__.pyi": package.render(), "py.typed": ""}
    for name in SUBMODULES:
        files[f"{name}.pyi"] = Stub(importlib.import_module(f"acausal.{name}"), package.top).render()
    for name, text in files.items():  # rewritten only when changed: a rebuild leaves their times alone
        path = Path(directory) / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1])
