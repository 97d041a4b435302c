"""Runs a bench script of the project (bench/ws_load.py) without the project's .venv.

    BENCH_PROJECT=. BENCH_BIN=DIR python3 bench/bare_machine/boot.py bench/ws_load.py --clients 1000 ...

The bench starts Daphne as ``Path(sys.executable).parent / "daphne"`` (tests/live.py: the
project's .venv/bin). On the bare machine the packages come from PYTHONPATH (run.sh installs the
wheels with pip --target), so this points that one name at BENCH_BIN, a folder holding a
``daphne`` wrapper that runs ``<this python> -m daphne``; everything else of the bench runs
unchanged.
"""
from __future__ import annotations

import os
import runpy
import sys
import types
from pathlib import Path

project = Path(os.environ["BENCH_PROJECT"]).resolve()
script = Path(sys.argv[1]).resolve()
bindir = Path(os.environ["BENCH_BIN"]).resolve()

# As `python SCRIPT` would: the script's folder first; the project and its bench/ after it.
for entry in (str(project / "bench"), str(project), str(script.parent)):
    if entry in sys.path:
        sys.path.remove(entry)
    sys.path.insert(0, entry)

# tests/ has no __init__.py: a stray top-level `tests` package in the system's site-packages
# would win over it. Pin the name to the project's folder.
tests_pkg = types.ModuleType("tests")
tests_pkg.__path__ = [str(project / "tests")]
sys.modules["tests"] = tests_pkg

import rooms_stack  # noqa: E402

import tests.live  # noqa: E402

assert Path(tests.live.__file__).resolve().is_relative_to(project), tests.live.__file__
assert (bindir / "daphne").exists(), bindir
# rooms_stack imported the name before this could change it.
tests.live.VENV_BIN = bindir
rooms_stack.VENV_BIN = bindir

sys.argv = [str(script)] + sys.argv[2:]
runpy.run_path(str(script), run_name="__main__")
