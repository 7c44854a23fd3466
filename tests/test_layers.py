"""The layers of ``ARCHITECTURE.md`` hold: the import-linter contracts in
``pyproject.toml`` (layers, and no cycle between sibling modules) are kept.

Function-level imports count: grimp reads every import statement.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("contract", ["layers", "session", "search-api", "acyclic"])
def test_import_contract_is_kept(contract: str, capsys: pytest.CaptureFixture[str],
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    status = lint_imports(
        config_filename=str(ROOT / "pyproject.toml"), limit_to_contracts=(contract,),
        no_cache=True, no_logo=True,
    )
    report = capsys.readouterr().out
    assert status == 0, report
    assert "1 kept, 0 broken" in report


#: the longest function body in ``src/`` (docstring excluded), in lines
MAX_FUNCTION_LINES = 100


def _long_functions(root: Path = ROOT) -> list[str]:
    out = []
    for path in sorted((root / "src").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            body = node.body
            if len(body) > 1 and isinstance(body[0], ast.Expr) \
                    and isinstance(body[0].value, ast.Constant):
                body = body[1:]  # the docstring
            end = node.end_lineno or body[-1].lineno
            if end - body[0].lineno + 1 > MAX_FUNCTION_LINES:
                out.append(f"{path.relative_to(root)}:{node.lineno} {node.name}")
    return out


def test_no_function_is_longer_than_the_limit() -> None:
    """Each step of the code stays readable (issue 26): no function body
    longer than MAX_FUNCTION_LINES lines, docstring excluded."""
    assert _long_functions() == []


def test_the_length_check_sees_a_long_function(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()

    def source(name: str, n: int) -> str:
        body = "\n".join(f"    x{i} = {i}" for i in range(n))
        return f'def {name}() -> None:\n    """Doc."""\n{body}\n'

    (src / "long.py").write_text(source("long", MAX_FUNCTION_LINES + 1))
    (src / "short.py").write_text(source("short", MAX_FUNCTION_LINES))
    assert _long_functions(tmp_path) == ["src/long.py:1 long"]
