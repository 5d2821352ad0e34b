"""The Python examples run, and every snippet of docs/python.md runs as written."""
import os
import re
import runpy

import pytest

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")


def test_parameter_identification_recovers_the_damper():
    pytest.importorskip("scipy")
    example = runpy.run_path(os.path.join(ROOT, "examples", "python", "identify_damper.py"))
    assert example["main"](true_d=3.0) == pytest.approx(3.0, rel=0.02)


def test_docs_python_snippets_run(tmp_path, monkeypatch):
    text = open(os.path.join(ROOT, "docs", "python.md")).read()
    snippets = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(snippets) >= 4
    monkeypatch.chdir(tmp_path)
    namespace = {}
    for snippet in snippets:  # later snippets build on earlier ones, like a reader would
        exec(compile(snippet, "docs/python.md", "exec"), namespace)
