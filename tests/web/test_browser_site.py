"""``lucie serve``'s page in a real browser: two players (two browser
contexts, each its own cookie) on one site."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.chromium import ARGS, CHROMIUM, sync_api
from tests.serving import served

from lucie.web.site import create_site
from lucie.web.store_link import StoreLink

pytestmark = pytest.mark.browser


@pytest.fixture
def site_url(tmp_path: Path) -> Iterator[str]:
    app = create_site(StoreLink.open(tmp_path / "site.sqlite3"),
                      b"the secret of the browser test", solver_workers=1)
    with served(app) as url:
        yield url


def test_two_players_each_with_their_name_and_games(site_url: str) -> None:
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            pages: list[Any] = []
            errors: list[str] = []
            for _who in range(2):
                page = browser.new_context(bypass_csp=True).new_page()
                page.on("pageerror", lambda e: errors.append(str(e)))
                page.goto(site_url + "/")
                page.wait_for_function("window.lucie && window.lucie.state")
                pages.append(page)
            a, b = pages
            name = "<b>Anne</b>"
            a.click("#b-player")
            a.fill("#player-name", name)
            a.click("#player-rename")
            a.wait_for_function("document.getElementById('player-code').textContent !== ''")
            assert a.evaluate("document.querySelector('#d-player b')") is None  # text only
            assert a.input_value("#player-name") == name
            code = a.text_content("#player-code")
            gid = a.evaluate("window.lucie.state.id")
            assert gid != b.evaluate("window.lucie.state.id")
            # b's own game; a's id is not b's
            status = b.evaluate(f"fetch('/api/games/{gid}').then(r => r.status)")
            assert status == 404
            b.click("#b-player")
            b.wait_for_function("document.getElementById('player-code').textContent !== ''")
            assert b.input_value("#player-name") == ""
            # b takes a's recovery code: the page comes back as a's player
            b.fill("#player-recover-code", code or "")
            # the page reloads once the code is taken: wait for that reload (the
            # page before it still holds b's state)
            with b.expect_navigation():
                b.click("#player-recover")
            b.wait_for_function("window.lucie && window.lucie.state")
            status = b.evaluate(f"fetch('/api/games/{gid}').then(r => r.status)")
            assert status == 200
            assert errors == []
        finally:
            browser.close()
