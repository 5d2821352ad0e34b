"""The kernel's include direction (docs/architecture.md, "Layout").

solver/ is the compiler's pipeline, one folder per stage. A file may include
files of its own stage and of earlier ones, never of a later one; only
solver/runtime/ida/ includes SUNDIALS. Exits 1 listing every violation.
"""
import pathlib
import re
import sys

STAGES = ["symbolic", "modeling", "ir", "passes", "structure", "lower", "runtime", "analysis", "pipeline"]
SUNDIALS = re.compile(r"#include\s*<(ida|idas|kinsol|sundials|nvector|sunlinsol|sunmatrix|sunnonlinsol)/")
LOCAL = re.compile(r'#include\s*"solver/([a-z_]+)/')


def stage_of(path, solver):
    return path.relative_to(solver).parts[0]


def violations(root):
    solver = root / "solver"
    found = []
    for path in sorted(solver.rglob("*.[ch]pp")):
        stage = stage_of(path, solver)
        if stage not in STAGES:
            found.append(f"{path.relative_to(root)}: folder '{stage}' is not a stage of the pipeline {STAGES}")
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            where = f"{path.relative_to(root)}:{number}"
            match = LOCAL.match(line.strip())
            if match:
                target = match.group(1)
                if target not in STAGES:
                    found.append(f"{where}: includes solver/{target}/, not a stage")
                elif STAGES.index(target) > STAGES.index(stage):
                    found.append(f"{where}: {stage}/ includes the later stage {target}/ ({line.strip()})")
            if SUNDIALS.match(line.strip()) and path.parent.relative_to(solver).as_posix() != "runtime/ida":
                found.append(f"{where}: includes SUNDIALS outside solver/runtime/ida/ ({line.strip()})")
    # Nothing in the library reaches into the examples (DESIGN 7).
    for folder in ("solver", "connectors", "components", "harness"):
        for path in sorted((root / folder).rglob("*.[ch]pp")):
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if re.match(r'#include\s*"examples/', line.strip()):
                    found.append(f"{path.relative_to(root)}:{number}: the library includes an example")
    return found


if __name__ == "__main__":
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[1])
    problems = violations(root)
    for p in problems:
        print(p)
    print(f"{len(problems)} layering violation(s)")
    sys.exit(1 if problems else 0)
