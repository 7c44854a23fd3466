"""Issue 48 in a real browser: a duel between two players in two browser
contexts on ``lucie serve --workers 2`` (each request on a new connection,
so each lands on either worker), on SQLite and on PostgreSQL, with a quiet
spell in it longer than the time a SQLite site keeps a duel's news
(``LUCIE_DUEL_NEWS_KEEP``, one second here instead of a minute): before
it, after it and after a reload, each side's moves reach the other page,
and both pages end on the duel's result.  Skipped when /usr/bin/chromium
is absent, unless ``LUCIE_REQUIRE_BROWSER=1``."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from tests.serving import healthy, wait_for
from tests.store.test_browser_serve import browser
from tests.store.test_serve_workers import workers
from tests.web.test_browser_duel import _play_one, _sees

from lucie.store import Store

pytest.importorskip("websockets")
pytestmark = pytest.mark.browser
__all__ = ["browser"]  # the fixture, shared

#: Seconds the site keeps a duel's news (``LUCIE_DUEL_NEWS_KEEP``).
KEEP = 1.0


def _page(browser: Any, url: str, errors: list[str]) -> Any:
    context = browser.new_context(bypass_csp=True)
    # every request on a new connection, so each lands on either worker
    context.set_extra_http_headers({"Connection": "close"})
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("dialog", lambda d: d.accept())
    page.goto(url + "/")
    page.wait_for_function("window.lucie && window.lucie.state")
    return page


def _playing(page: Any) -> None:
    page.wait_for_function("window.lucie.state && window.lucie.duel && "
                           "window.lucie.duel.view.state === 'playing'", timeout=10_000)


def _quiet_spell(db: str) -> None:
    """No news for several times :data:`KEEP`: on SQLite, until every
    news row was forgotten (the table empty, its numbers going on)."""
    start = time.monotonic()

    def quiet() -> bool:
        if time.monotonic() < start + 3 * KEEP:
            return False
        with Store(db) as store:
            return not store._read("SELECT 1 FROM duel_news")

    wait_for("a quiet spell with every news forgotten", quiet, 60)


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_duel_with_a_quiet_spell_on_two_workers(
        backend: str, serve_site: Any, tmp_path: Path, request: pytest.FixtureRequest,
        monkeypatch: pytest.MonkeyPatch, browser: Any) -> None:
    if backend == "sqlite":
        db = str(tmp_path / "duels.sqlite3")
    else:
        fresh: Callable[[], str] = request.getfixturevalue("pg_fresh")
        db = fresh()
    monkeypatch.setenv("LUCIE_DUEL_NEWS_KEEP", str(KEEP))
    proc, url = serve_site(db, "--workers", "2")
    wait_for("two workers", lambda: len(workers(proc.pid)) == 2 and healthy(url))
    errors: list[str] = []
    a, b = _page(browser, url, errors), _page(browser, url, errors)
    a.click("#b-duel")
    a.fill("#duel-deal", "17")
    with a.expect_navigation():
        a.click("#duel-ok")
    a.wait_for_function("document.getElementById('duel-link').textContent !== ''")
    link = a.text_content("#duel-link") or ""
    b.goto(link)
    b.wait_for_selector("#duel-join", state="visible")
    b.click("#duel-join")
    for page in (a, b):
        _playing(page)
    _sees(b, _play_one(a), timeout=10_000)
    _sees(a, _play_one(b), timeout=10_000)
    _quiet_spell(db)
    # after the quiet spell: each side's moves still reach the other
    _sees(b, _play_one(a), timeout=10_000)
    theirs = _play_one(b)
    _sees(a, theirs, timeout=10_000)
    # a reload mid-duel: the same game, and the other's moves reach it
    b.reload()
    _playing(b)
    assert b.evaluate("window.lucie.state.moves.length") == theirs
    _sees(b, _play_one(a), timeout=10_000)
    # a resigns: both pages end on the duel's result
    a.click("#b-resign")
    for page in (a, b):
        page.wait_for_selector("#d-duel-end[open]", timeout=10_000)
    assert b.text_content("#duel-end-title") == "You won the duel!"
    assert "resigned" in (a.text_content("#duel-end-why") or "")
    assert errors == []
