"""The .pyi stubs the build writes beside the package (python/tools/make_stubs.py), for editors' completion."""
import ast
import inspect
import os
import re

import pytest

import acausal as ac
from acausal.component import LibraryComponentType

PACKAGE = os.path.dirname(ac.__file__)
SUBMODULES = ["rotational", "translational", "planar", "electrical", "thermal", "blocks", "vehicle", "harness"]


def stub(name):
    with open(os.path.join(PACKAGE, f"{name}.pyi"), encoding="utf-8") as f:
        return f.read()


def declared(text):
    """The names a stub declares at its top level: classes, functions, variables, re-exported modules."""
    names = set()
    for node in ast.parse(text).body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            names.add(node.target.id)
        elif isinstance(node, ast.ImportFrom):
            names.update(a.asname for a in node.names if a.asname)
    return names


@pytest.mark.parametrize("name", ["__init__"] + SUBMODULES)
def test_stub_exists_and_parses(name):
    ast.parse(stub(name))
    assert os.path.exists(os.path.join(PACKAGE, "py.typed"))


def test_package_stub_has_the_public_api():
    text = stub("__init__")
    for piece in ["class Model", "class Result", "def simulate(", "t_eval", "def sweep(", "class UnknownNameError",
                  "def der(", "def __getattr__(self"]:
        assert piece in text, piece
    assert re.search(r"def simulate\(self, t_end: float \| None = None", text)
    assert "def __add__(self, arg0: Expr | float" in text  # x + 1.0: pybind11 converts the float
    # Submodules other tests import (acausal.validation_plots) are not part of the API.
    public = {n for n in dir(ac) if not n.startswith("_") and (n in SUBMODULES or not inspect.ismodule(getattr(ac, n)))}
    assert public <= declared(text), public - declared(text)


def class_block(text, name):
    match = re.search(rf"^class {name}\b.*?(?=^\S|\Z)", text, re.M | re.S)
    assert match, name
    return match.group(0)


def test_submodule_stubs_declare_their_library_components():
    wheel = class_block(stub("vehicle"), "Wheel")
    assert wheel.startswith("class Wheel(LibraryComponent):")
    assert re.search(r"def __init__\(self, name: str, \*, .*\btire_law: str = 'tanh'", wheel)
    assert "J: float = 1.0" in class_block(stub("rotational"), "Inertia")
    assert "mu_pos: list[tuple[float, float]]" in class_block(stub("rotational"), "Clutch")  # a table by keyword
    for name in SUBMODULES:
        module = getattr(ac, name)
        classes = {n for n, v in vars(module).items() if isinstance(v, LibraryComponentType) and not n.startswith("_")}
        assert classes <= declared(stub(name)), classes - declared(stub(name))
