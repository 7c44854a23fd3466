"""The layers of ``ARCHITECTURE.md`` hold: the import-linter contracts in
``pyproject.toml`` (layers, and no cycle between sibling modules) are kept.

Function-level imports count: grimp reads every import statement.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("contract", ["layers", "session", "acyclic"])
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
