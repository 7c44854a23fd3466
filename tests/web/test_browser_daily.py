"""The deal of the day's table in a real browser (issue 41): three players
(three browser contexts, each its own cookie) play the deal of the day from
the Daily page; each sees the table with every player and their own rank,
and a game with a hint is listed unranked with the reason."""

from __future__ import annotations

from typing import Any

import pytest
from tests.chromium import ARGS, CHROMIUM, sync_api
from tests.web.test_browser_site import site_url

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
