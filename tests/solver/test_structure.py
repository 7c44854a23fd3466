"""The solver stays in readable parts (issue #26): no function of
``src/lucie/solver`` is longer than :data:`MAX_LINES` lines (its docstring
included), and the compiled build lists every module of the one-deal search."""

from __future__ import annotations

import ast
from pathlib import Path

import lucie.solver
from lucie.solver import _native

PACKAGE = Path(lucie.solver.__file__).parent
MAX_LINES = 100


def _functions(path: Path) -> list[tuple[str, int]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [(f"{path.name}:{node.lineno} {node.name}", (node.end_lineno or node.lineno)
             - node.lineno + 1)
            for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)]


def test_no_function_is_longer_than_a_page() -> None:
    sizes = [f for path in sorted(PACKAGE.glob("*.py")) for f in _functions(path)]
    assert len(sizes) > 100  # the walk found the solver's functions
    long = [f"{name} ({n} lines)" for name, n in sizes if n > MAX_LINES]
    assert not long, f"functions longer than {MAX_LINES} lines: {long}"


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
