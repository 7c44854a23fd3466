"""Challenge a friend in a real browser (issue 41): Ann finishes a game and
makes a link; Bob (another browser context, his own cookie) opens it, plays
the same deal, and both see both results and both reviews side by side."""

from __future__ import annotations

from typing import Any

import pytest
from tests.chromium import ARGS, CHROMIUM, sync_api
from tests.web.test_browser_site import site_url

pytestmark = pytest.mark.browser
__all__ = ["site_url"]  # the fixture, shared

ROWS = ("[...document.querySelectorAll('#challenge-table tbody tr')].map("
        "(tr) => [...tr.cells].map((td) => td.textContent))")
REVIEWS_DONE = ("[...document.querySelectorAll('#challenge-reviews .challenge-review')]"
                ".filter((c) => c.querySelector('svg')).length === 2")


def _page(browser: Any, url: str, errors: list[str]) -> Any:
    page = browser.new_context(bypass_csp=True).new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("dialog", lambda d: d.accept())  # "resign?", "leave this game?": yes
    page.goto(url)
    page.wait_for_function("window.lucie && window.lucie.state")
    return page


def _name(page: Any, name: str) -> None:
    page.click("#b-player")
    page.fill("#player-name", name)
    page.click("#player-rename")
    page.wait_for_function("document.getElementById('player-code').textContent !== ''")
    page.click("#player-close")


def _one_move_and_resign(page: Any) -> None:
    move = page.evaluate("window.lucie.state.legal_moves.find((m) => m !== 'R' && m !== 'redeal')")
    page.fill("#move-input", move)
    page.press("#move-input", "Enter")
    page.wait_for_function("window.lucie.state.moves.length === 1")
    page.click("#b-resign")
    page.wait_for_function("window.lucie.state.status === 'resigned'")
    page.wait_for_selector("#d-end[open]")


def test_a_challenge_between_two_players(site_url: str) -> None:
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            errors: list[str] = []
            ann = _page(browser, site_url + "/?deal=7", errors)
            _name(ann, "Ann")
            _one_move_and_resign(ann)
            ann.click("#end-challenge")
            ann.wait_for_selector("#d-challenge[open]")
            link = ann.input_value("#challenge-link")
            assert link.startswith(site_url + "/challenge/")
            bob = _page(browser, site_url + "/", errors)
            _name(bob, "Bob")
            bob.goto(link)
            bob.wait_for_selector("#challenge-page:not([hidden])")
            bob.wait_for_selector("#challenge-play:not([hidden])")
            assert [r[0] for r in bob.evaluate(ROWS)] == ["Ann"]
            bob.click("#challenge-play")
            bob.wait_for_function("window.lucie.state.moves.length === 0 && "
                                  "window.lucie.state.deal === '7'")
            _one_move_and_resign(bob)
            bob.click("#end-challenge-results")
            bob.wait_for_function(REVIEWS_DONE, timeout=60_000)
            ann.click("#challenge-open")
            ann.wait_for_function(REVIEWS_DONE, timeout=60_000)
            for page in (ann, bob):
                rows = page.evaluate(ROWS)
                assert [r[0] for r in rows] == ["Ann", "Bob"]
                assert all(r[3] == "1" for r in rows)  # one move each, as each played
                heads = page.evaluate("[...document.querySelectorAll('#challenge-reviews h3')]"
                                      ".map((h) => h.textContent)")
                assert heads == ["Ann", "Bob"]  # both reviews, side by side
                assert page.is_hidden("#challenge-play")
            assert errors == []
        finally:
            browser.close()
