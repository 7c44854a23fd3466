"""Issue 48 in a real browser: two players in two browser contexts on
``lucie serve --workers 2`` on PostgreSQL (each request lands on either
worker).  Each plays a game to its end, restarts it, plays on the new game
and reloads the page several times: the page always shows its own new
game, never the finished one; then a new game from the page's New dialog
leaves the old one (resigned in the history), and reloads show the new
one.  Both pages are read again after each step of the other.  Skipped
when /usr/bin/chromium is absent, unless ``LUCIE_REQUIRE_BROWSER=1``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from tests.serving import healthy, wait_for
from tests.store.test_browser_serve import (
    SEND_MOVE,
    SETTINGS,
    _a_move,
    _fetch,
    _open,
    _state,
    browser,
)
from tests.store.test_serve_workers import workers

pytestmark = pytest.mark.browser
__all__ = ["browser"]  # the fixture, shared

#: Reloads of a page after each step (each may reach either worker).
RELOADS = 4


def _shows(page: Any, gid: str, deal: str, moves: list[str], status: str) -> None:
    """Reload ``page`` ``RELOADS`` times: each time it shows game ``gid``
    (of ``deal``) with ``moves``, ``status``, and no end dialog for a game
    in play."""
    for _n in range(RELOADS):
        page.reload()
        page.wait_for_selector("body.ready")
        state = _state(page)
        seen = (state["id"], state["deal"], state["moves"], state["status"])
        assert seen == (gid, deal, moves, status), seen
        if status == "playing":
            assert not page.locator("#d-end").is_visible()


def _statuses(page: Any) -> list[str]:
    """The player's games in the history, newest first."""
    status, history = _fetch(page, "/api/history")
    assert status == 200, history
    return [g["status"] for g in history["games"]]


def _played(page: Any, moves: int) -> list[str]:
    """One more move, through the page's own code; its moves after it."""
    played: list[str] = page.evaluate(SEND_MOVE, _a_move(page))
    assert len(played) == moves, played
    return played


def test_restart_and_new_game_on_two_workers(serve_site: Any, pg_fresh: Callable[[], str],
                                            browser: Any) -> None:
    proc, url = serve_site(pg_fresh(), "--workers", "2")
    wait_for("two workers", lambda: len(workers(proc.pid)) == 2 and healthy(url))
    errors: list[str] = []
    contexts = [browser.new_context(bypass_csp=True) for _who in range(2)]
    pages = []
    for c in contexts:
        c.add_init_script(SETTINGS)
        # every request on a new connection, so each lands on either worker
        # (a kept connection stays with the worker that accepted it)
        c.set_extra_http_headers({"Connection": "close"})
        page = _open(c, url, errors)
        page.on("dialog", lambda d: d.accept())  # "resign?", "leave this game?": yes
        pages.append(page)
    games = [(_state(p)["id"], _state(p)["deal"]) for p in pages]
    assert games[0][0] != games[1][0]
    shown: list[tuple[list[str], str]] = [([], "playing"), ([], "playing")]

    def both_right() -> None:
        for page, (gid, deal), (moves, status) in zip(pages, games, shown, strict=True):
            _shows(page, gid, deal, moves, status)

    # each game to its end (resigned), restarted, a move on the new game
    for who, page in enumerate(pages):
        shown[who] = (_played(page, 1), "playing")
        page.locator("#b-resign").click()
        page.locator("#d-end").wait_for(state="visible")
        assert _state(page)["status"] == "resigned"
        shown[who] = (shown[who][0], "resigned")
        both_right()
        page.locator("#end-restart").click()
        page.wait_for_function("window.lucie.state.status === 'playing'"
                               " && window.lucie.state.moves.length === 0")
        assert (_state(page)["id"], _state(page)["deal"]) == games[who]
        shown[who] = ([], "playing")
        both_right()
        shown[who] = (_played(page, 1), "playing")
        both_right()
        assert _statuses(page) == ["playing", "resigned"]
    # a new game from the New dialog leaves the restarted one (resigned)
    for who, page in enumerate(pages):
        old = games[who][0]
        page.locator("#b-new").click()
        page.locator("#new-ok").click()
        page.wait_for_function(f"window.lucie.state.id !== {old!r}")
        state = _state(page)
        assert state["moves"] == [] and state["status"] == "playing"
        games[who] = (state["id"], state["deal"])
        shown[who] = ([], "playing")
        both_right()
        assert _statuses(page) == ["playing", "resigned", "resigned"]
        status, left = _fetch(page, f"/api/games/{old}")
        assert status == 200 and left["status"] == "resigned" and len(left["moves"]) == 1
        shown[who] = (_played(page, 1), "playing")
        both_right()
    assert errors == []
