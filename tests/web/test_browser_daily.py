"""The deal of the day's table in a real browser (issue 41): three players
(three browser contexts, each its own cookie) play the deal of the day from
the Daily page; each sees the table with every player and their own rank,
and a game with a hint is listed unranked with the reason."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.applications import Starlette
from tests.chromium import ARGS, CHROMIUM, sync_api
from tests.serving import served
from tests.web.test_browser_site import site_url

from lucie.daily import today
from lucie.web.site import create_site
from lucie.web.store_link import StoreLink

pytestmark = pytest.mark.browser
__all__ = ["site_url"]  # the fixture, shared


def _player(browser: Any, url: str, name: str, errors: list[str]) -> Any:
    page = browser.new_context(bypass_csp=True).new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("dialog", lambda d: d.accept())  # "resign this game?": yes
    page.goto(url + "/")
    page.wait_for_function("window.lucie && window.lucie.state")
    page.click("#b-player")
    page.fill("#player-name", name)
    page.click("#player-rename")
    page.wait_for_function("document.getElementById('player-code').textContent !== ''")
    page.click("#player-close")
    return page


def _play_daily(page: Any, moves: int, *, hint: bool) -> None:
    page.click("#b-daily")
    page.wait_for_selector("#daily-page:not([hidden])")
    page.click("#daily-play")
    page.wait_for_function("window.lucie.state.daily && window.lucie.state.moves.length === 0")
    if hint:
        page.click("#b-hint")
        page.wait_for_function("document.getElementById('status').textContent.length > 0")
    for n in range(moves):
        move = page.evaluate(
            "window.lucie.state.legal_moves.find((m) => m !== 'R' && m !== 'redeal')")
        page.fill("#move-input", move)
        page.press("#move-input", "Enter")
        page.wait_for_function(f"window.lucie.state.moves.length > {n}")
    page.click("#b-resign")
    page.wait_for_function("window.lucie.state.status === 'resigned'")
    page.wait_for_selector("#d-end[open]")
    page.click("#end-daily")
    page.wait_for_selector("#daily-page:not([hidden])")


def _rows(page: Any) -> list[list[str]]:
    rows: list[list[str]] = page.evaluate(
        "[...document.querySelectorAll('#daily-table tbody tr')].map("
        "(tr) => [...tr.cells].map((td) => td.textContent))")
    return rows


def test_the_daily_table_with_several_players(site_url: str) -> None:
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            errors: list[str] = []
            ann = _player(browser, site_url, "Ann", errors)
            bob = _player(browser, site_url, "Bob", errors)
            cid = _player(browser, site_url, "<i>Cid</i>", errors)
            _play_daily(ann, 3, hint=False)
            _play_daily(bob, 1, hint=False)
            _play_daily(cid, 2, hint=True)
            for page in (ann, bob, cid):
                page.reload()  # /daily itself: the page opens on the table
                page.wait_for_function(
                    "document.querySelectorAll('#daily-table tbody tr').length === 3")
                rows = _rows(page)
                assert sorted(r[1] for r in rows[:2]) == ["Ann", "Bob"]
                assert rows[2][:2] == ["–", "<i>Cid</i>"]  # as text, unranked
                assert rows[2][6] != ""  # the reason, in the page's language
                assert {rows[0][0], rows[1][0]} <= {"1", "2"}
            bob_rank = next(r[0] for r in _rows(bob) if r[1] == "Bob")
            assert bob_rank in bob.text_content("#daily-mine")
            assert cid.evaluate("document.querySelector('#daily-table i')") is None
            assert "hints asked" in (cid.text_content("#daily-mine") or "")
            assert cid.text_content("#daily-mine") != bob.text_content("#daily-mine")
            assert "over" in (ann.text_content("#daily-odds") or "")  # today: no odds yet
            assert errors == []
        finally:
            browser.close()


@pytest.fixture
def site_and_app(tmp_path: Path) -> Iterator[tuple[str, Starlette]]:
    """A site served by uvicorn, and its app (to drop its games from memory,
    as a restart or another process of the site would)."""
    app = create_site(StoreLink.open(tmp_path / "site.sqlite3"),
                      b"the secret of the browser test", solver_workers=1)
    with served(app) as url:
        yield url, app


def _daily_mark(page: Any) -> str:
    return str(page.evaluate(
        "document.getElementById('f-daily-box').hidden ? '' : "
        "document.getElementById('f-daily').textContent"))


def test_the_page_warns_before_a_hint_and_keeps_the_daily_game_after_a_reload(
        site_and_app: tuple[str, Starlette]) -> None:
    """The page shows whether the daily game counts (the server's word); the
    game is still the daily one, and still counts, after a reload served
    from the store (the game dropped from the server's memory); the first
    hint asks first: declined, nothing is asked and the game still counts;
    accepted, the hint comes and the page says the game no longer counts,
    and a later hint asks nothing more."""
    url, app = site_and_app
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            errors: list[str] = []
            dialogs: list[str] = []
            answer = {"accept": False}
            page = browser.new_context(bypass_csp=True).new_page()
            page.on("pageerror", lambda e: errors.append(str(e)))

            def on_dialog(d: Any) -> None:
                dialogs.append(d.message)
                if answer["accept"]:
                    d.accept()
                else:
                    d.dismiss()

            page.on("dialog", on_dialog)
            page.goto(url + "/")
            page.wait_for_function("window.lucie && window.lucie.state")
            page.click("#b-daily")
            page.wait_for_selector("#daily-page:not([hidden])")
            page.click("#daily-play")
            page.wait_for_function(
                "window.lucie.state.daily && window.lucie.state.moves.length === 0")
            assert _daily_mark(page) == "counts"
            move = page.evaluate("window.lucie.state.legal_moves.find((m) => m !== 'R')")
            page.fill("#move-input", move)
            page.press("#move-input", "Enter")
            # the move, then whatever autoplay sends home after it (on some
            # days' deals the first move frees an ace or a two)
            page.wait_for_function("window.lucie.state.moves.length >= 1")
            played = page.evaluate("window.lucie.state.moves")
            assert played[0] == move

            app.state.registry.sessions.clear()  # as after a restart: the store has it
            page.reload()
            page.wait_for_function("window.lucie && window.lucie.state")
            state = page.evaluate("window.lucie.state")
            assert state["moves"] == played and state["daily"] == str(today())
            assert state["daily_counts"] is True and _daily_mark(page) == "counts"
            assert str(today()) in (page.text_content("#f-deal") or "")

            page.click("#b-hint")  # declined: nothing asked of the server
            page.wait_for_function(
                "document.getElementById('status').textContent.includes('No hint asked')")
            assert len(dialogs) == 1 and "no longer count for the table of the day" in dialogs[0]
            assert page.evaluate("document.querySelector('.hint')") is None
            fresh = page.evaluate("fetch('/api/games/' + window.lucie.state.id)"
                                  ".then((r) => r.json())")
            assert fresh["daily_counts"] is True

            answer["accept"] = True
            page.click("#b-hint")
            page.wait_for_function(
                "document.getElementById('status').textContent.includes('no longer counts')")
            assert len(dialogs) == 2
            assert _daily_mark(page) == "does not count (hints asked)"
            page.reload()  # the server's word, after a reload too
            page.wait_for_function("window.lucie && window.lucie.state")
            assert _daily_mark(page) == "does not count (hints asked)"
            page.click("#b-hint")  # no longer counts: nothing to ask
            page.wait_for_function(
                "document.getElementById('status').textContent.startsWith('Hint')"
                " || document.getElementById('status').textContent.startsWith('No hint:')")
            assert len(dialogs) == 2
            assert errors == []
        finally:
            browser.close()
