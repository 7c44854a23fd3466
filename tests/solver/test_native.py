"""The optional mypyc build of the one-deal search gives the pure build's answers.

The build covers every module of the search (``_native.MODULES``).

The test copies the package to a temporary directory, compiles it there
with ``scripts/native.py`` (as ``make compiled`` does in the work tree), and asks a subprocess that
imports the copy for verdicts, frontiers and node counts on positions of
several variants; they must be exactly the pure-Python ones.  An edited
source must not be shadowed by an old build.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

import lucie
from lucie.engine import Position
from lucie.rules import Rules
from lucie.solver import search_deal

pytest.importorskip("mypyc")
if shutil.which(os.environ.get("CC", "cc")) is None:  # pragma: no cover
    pytest.skip("no C compiler", allow_module_level=True)

CASES = [("classic", d) for d in (1, 2, 7)] + [
    ("trefoil", 5), ("fan", 3), ("reserve", 2), ("flower", 4), ("shamrocks", 3),
]

PROBE = """
import json, sys
from lucie.engine import Position
from lucie.rules import Rules
from lucie.solver._native import is_compiled
from lucie.solver import search_deal
from lucie.solver._native import MODULES
files = {m: getattr(sys.modules.get("lucie.solver." + m), "__file__", "") for m in MODULES}
out = {"compiled": is_compiled(), "results": [],
       "sources": sorted(m for m, f in files.items() if f.endswith(".py"))}
for spec, deal in json.loads(sys.argv[1]):
    r = search_deal(Position.deal(Rules.parse(spec), deal), max_nodes=20000)
    out["results"].append([r.status, r.nodes, [[list(f), [list(m) for m in line]]
                                               for f, line in r.lines]])
print(json.dumps(out))
"""


def _run(root: Path) -> dict[str, object]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    env.pop("LUCIE_PURE", None)
    done = subprocess.run([sys.executable, "-c", PROBE, json.dumps(CASES)], env=env,
                          capture_output=True, text=True, check=True, cwd=root)
    result: dict[str, object] = json.loads(done.stdout)
    return result


def _build_tool() -> ModuleType:
    """``scripts/native.py``, the build tool (not in the installed package)."""
    path = Path(__file__).resolve().parents[2] / "scripts" / "native.py"
    spec = importlib.util.spec_from_file_location("lucie_build_tool", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_compiled_build_matches_the_pure_search(tmp_path: Path) -> None:
    from lucie.solver import _native

    package = Path(lucie.__file__).parent
    copy = tmp_path / "lucie"
    shutil.copytree(package, copy, ignore=shutil.ignore_patterns(
        "*.so", "*.pyd", "_compiled.json", "__pycache__"))
    _build_tool().build(copy / "solver")
    compiled = _run(tmp_path)
    assert compiled["compiled"] is True
    assert compiled["sources"] == []  # every module of the search is compiled
    pure = []
    for spec, deal in CASES:
        r = search_deal(Position.deal(Rules.parse(spec), deal), max_nodes=20000)
        pure.append([r.status, r.nodes, [[list(f), [list(m) for m in line]]
                                         for f, line in r.lines]])
    assert compiled["results"] == pure
    # an edited source is not shadowed by the old build: then every module
    # of the search is its source (a compiled module would call the others
    # compiled)
    source = copy / "solver" / "search.py"
    source.write_text(source.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    stale = _run(tmp_path)
    assert stale["compiled"] is False
    assert stale["sources"] == sorted(_native.MODULES)
    assert stale["results"] == pure
