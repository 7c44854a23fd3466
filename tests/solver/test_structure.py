"""The search and the analysis stay in readable parts (issues 26 and 39):
no function body of ``src/lucie/solver`` or ``src/lucie/analysis`` is longer
than :data:`MAX_LINES` lines (its docstring excluded) but the written-out
cases of :data:`WRITTEN_OUT`, each with its measured reason; and the
compiled build lists every module of the one-deal search."""

from __future__ import annotations

import ast
from pathlib import Path

import lucie.analysis
import lucie.solver
from lucie.solver import _native

PACKAGE = Path(lucie.solver.__file__).parent
ANALYSIS = Path(lucie.analysis.__file__).parent
MAX_LINES = 60
#: longer on purpose, for the search's speed: the docstring says why, with
#: the figure measured
WRITTEN_OUT = {"search.py walk", "forced.py suit_down_forced"}


def _functions(path: Path) -> list[tuple[str, int, str]]:
    """Each function of ``path``: its name, body lines (docstring excluded)
    and docstring."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        body = node.body
        doc = ast.get_docstring(node) or ""
        if len(body) > 1 and doc:
            body = body[1:]
        end = node.end_lineno or body[-1].lineno
        out.append((f"{path.name} {node.name}", end - body[0].lineno + 1, doc))
    return out


def test_no_function_is_longer_than_a_page() -> None:
    sizes = [f for package in (PACKAGE, ANALYSIS) for path in sorted(package.glob("*.py"))
             for f in _functions(path)]
    assert len(sizes) > 200  # the walk found the functions of both packages
    long = {name for name, n, _ in sizes if n > MAX_LINES}
    assert long <= WRITTEN_OUT, f"functions longer than {MAX_LINES} lines: {long - WRITTEN_OUT}"
    for name, _, doc in sizes:
        if name in WRITTEN_OUT:
            assert "Measured" in doc and "RESULTS.md" in doc, name


def test_the_compiled_build_covers_the_search() -> None:
    """Every module that ``deal`` imports from the package, directly or not,
    is in the build (a module left out would run as Python between compiled
    ones); the others (the odds, the study...) are not."""
    names = {p.stem for p in PACKAGE.glob("*.py")}
    needed = {"deal"}
    todo = ["deal"]
    while todo:
        tree = ast.parse((PACKAGE / f"{todo.pop()}.py").read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("lucie.solver."):
                stem = (node.module or "").rsplit(".", 1)[1]
                if stem in names and stem not in needed:
                    needed.add(stem)
                    todo.append(stem)
    # the shortcuts (the engine's moves) and budget (one exception) stay Python
    assert set(_native.MODULES) == needed - {"shortcuts", "budget"}
