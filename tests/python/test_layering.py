"""The kernel's include direction holds, and the check that guards it can fail."""
import importlib.util
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("check_layering", ROOT / "tests" / "check_layering.py")
layering = importlib.util.module_from_spec(spec)
spec.loader.exec_module(layering)


def test_the_kernel_includes_run_one_way():
    assert layering.violations(ROOT) == []


def write(root, path, text):
    target = root / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")


def test_a_back_edge_and_sundials_outside_the_glue_are_reported(tmp_path):
    for folder in ("connectors", "components", "harness"):
        (tmp_path / folder).mkdir()
    write(tmp_path, "solver/symbolic/expr.hpp", "#pragma once\n")
    write(tmp_path, "solver/lower/tape.hpp", '#include "solver/symbolic/expr.hpp"\n')
    assert layering.violations(tmp_path) == []
    write(tmp_path, "solver/ir/dae.hpp", '#include "solver/runtime/result.hpp"\n')
    write(tmp_path, "solver/runtime/simulator.cpp", "#include <idas/idas.h>\n")
    write(tmp_path, "solver/misc/helper.hpp", "\n")
    found = layering.violations(tmp_path)
    assert any("ir/ includes the later stage runtime/" in f for f in found)
    assert any("SUNDIALS outside" in f and "simulator.cpp" in f for f in found)
    assert any("'misc' is not a stage" in f for f in found)
    assert len(found) == 3
