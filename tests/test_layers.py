"""The layers of ``ARCHITECTURE.md`` hold: the import-linter contracts in
``pyproject.toml`` (layers, no interface importing the store, the local
game loading nothing of the site, and no cycle between sibling modules)
are kept; no interface reaches a store module re-exported by another
module, nor calls the store's writers; the local ``lucie web`` loads no
module of the site.

Function-level imports count: grimp reads every import statement.
"""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
import types
from pathlib import Path

import pytest
from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("contract", ["layers", "session", "store", "local-web", "search-api",
                                      "acyclic"])
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
GAME_WRITERS = frozenset({"start_game", "record_move", "finish_game"})
#: The store's writers of a site's players, duels (and their news),
#: challenges, rate counts and tidying: only the services (``lucie.site``,
#: ``lucie.session``, ``lucie.standings``' challenges) call them, as a
#: store's method or as a function of a store module.
SITE_WRITERS = frozenset({
    "new_player", "rename_player", "delete_player", "adopt_games", "purge",
    "open_duel", "join_duel", "end_duel", "post_news", "forget_news",
    "new_challenge", "join_challenge", "reserve", "forget_before",
})
#: The interfaces' folders.
INTERFACES = ("cli", "tui", "web", "rl.py")


def _interface_files() -> list[Path]:
    base = ROOT / "src" / "lucie"
    return [p for name in INTERFACES for p in
            ([base / name] if name.endswith(".py") else sorted((base / name).rglob("*.py")))]


def _game_writes(path: Path, writers: frozenset[str] = GAME_WRITERS) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    # a writer called by its bare name is one imported from the store or the session
    imported = {alias.asname or alias.name for node in ast.walk(tree)
                if isinstance(node, ast.ImportFrom) and node.module
                and node.module.split(".")[:2] in (["lucie", "store"], ["lucie", "session"])
                for alias in node.names}
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else \
            func.id if isinstance(func, ast.Name) and func.id in imported else None
        if name in writers:
            found.append(f"{path.relative_to(ROOT)}:{node.lineno} {name}")
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "discard" and "store" in ast.unparse(node.func.value)):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno} discard")
    return found


def test_only_the_session_writes_games_to_the_store() -> None:
    writes = [w for path in _interface_files() for w in _game_writes(path)]
    assert writes == []
    # the check finds such a call where there is one
    session = _game_writes(ROOT / "src" / "lucie" / "session.py")
    assert any("record_move" in w for w in session)


def test_only_the_services_write_players_duels_challenges_rates() -> None:
    writes = [w for path in _interface_files() for w in _game_writes(path, SITE_WRITERS)]
    assert writes == []
    # the check finds such calls where they are: the services'
    site = [w for path in sorted((ROOT / "src" / "lucie" / "site").glob("*.py"))
            for w in _game_writes(path, SITE_WRITERS)]
    for writer in ("new_player", "adopt_games", "open_duel", "end_duel", "reserve", "purge"):
        assert any(w.endswith(" " + writer) for w in site), writer
    standings = _game_writes(ROOT / "src" / "lucie" / "standings.py", SITE_WRITERS)
    assert any(w.endswith(" new_challenge") for w in standings)


def _store_modules_reached(path: Path) -> list[str]:
    """The store modules ``path``'s imports reach through another module's
    name (``from lucie.session import duels`` where that is
    :mod:`lucie.store.duels`), and the store modules it imports directly
    by a ``from lucie.store import module``."""
    return _reached(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))


def _reached(source_text: str, where: str) -> list[str]:
    tree = ast.parse(source_text)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom) or node.level or not node.module \
                or not node.module.startswith("lucie"):
            continue
        try:
            source = importlib.import_module(node.module)
        except ImportError:  # an optional dependency (a module of an extra) missing
            continue
        for alias in node.names:
            value = getattr(source, alias.name, None)
            if isinstance(value, types.ModuleType) and (
                    value.__name__ == "lucie.store" or value.__name__.startswith("lucie.store.")):
                found.append(f"{where}:{node.lineno} "
                             f"{node.module}.{alias.name} is {value.__name__}")
    return found


#: The interfaces' modules that may open a store (pyproject.toml's
#: "store" contract says why).
STORE_COMMANDS = frozenset({"store_cmds.py", "daily_cmds.py", "review_cmds.py"})


def test_no_interface_imports_a_store_module_through_another() -> None:
    reached = [r for path in _interface_files()
               if not (path.parent.name == "cli" and path.name in STORE_COMMANDS)
               for r in _store_modules_reached(path)]
    assert reached == []


def test_the_check_of_re_exported_store_modules_finds_one() -> None:
    # lucie.site.rates holds the store's limits module under a private
    # name: an interface importing it so is what the check is for
    found = _reached("from lucie.site.rates import _counts\n"
                     "from lucie.store import duels\n", "sample.py")
    assert [f.split(" is ")[1] for f in found] == ["lucie.store.limits", "lucie.store.duels"]


def test_the_local_web_game_loads_nothing_of_the_site(tmp_path: Path) -> None:
    """``lucie web``'s app (create_app on a store file) is built in a
    process of its own: no module of the site's app (lucie.web.site) nor of
    its services (lucie.site) is loaded, nor the libraries only the site
    uses (limits, prometheus_client)."""
    code = ("import sys\n"
            "from lucie.cli import web_cmds\n"
            "from lucie.web.app import create_app\n"
            f"app = create_app({str(tmp_path / 'local.sqlite3')!r}, solver_workers=1)\n"
            "app.state.solver.close()\n"
            "print(sorted(m for m in sys.modules if m in ('lucie.site', 'limits', "
            "'prometheus_client') or m.startswith(('lucie.site.', 'lucie.web.site'))))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
