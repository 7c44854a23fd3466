"""The layers of ``ARCHITECTURE.md`` hold: the import-linter contracts in
``pyproject.toml`` (layers, and no cycle between sibling modules) are kept.

Function-level imports count: grimp reads every import statement.
"""

from __future__ import annotations

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


#: The store's methods that change a game; only ``lucie.session`` (and the
#: store itself) calls them.  The import contract keeps the game interfaces
#: from importing the store's writers; this catches a call through a store
#: object handed down from above.
GAME_WRITERS = frozenset({"start_game", "record_move", "finish_game", "reopen"})


def _game_writes(path: Path) -> list[str]:
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in GAME_WRITERS):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.func.attr}")
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "discard" and "store" in ast.unparse(node.func.value)):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno} discard")
    return found


def test_only_the_session_writes_games_to_the_store() -> None:
    interfaces = [ROOT / "src" / "lucie" / name for name in ("cli", "tui", "web")]
    writes = [w for folder in interfaces for path in sorted(folder.rglob("*.py"))
              for w in _game_writes(path)]
    assert writes == []
    # the check finds such a call where there is one
    session = _game_writes(ROOT / "src" / "lucie" / "session.py")
    assert any("record_move" in w for w in session)
