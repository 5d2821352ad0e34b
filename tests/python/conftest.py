import os
import sys

# Import the package from the build tree (CTest sets PYTHONPATH; this helps running pytest by hand).
build = os.environ.get("ACAUSAL_BUILD", os.path.join(os.path.dirname(__file__), "..", "..", "build"))
sys.path.insert(0, os.path.join(build, "python"))
