"""A duel in a real browser: two players (two browser contexts) from the
link to the result screen, each move seen on the other side in under a
second, a reload mid-duel, a resignation."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from tests.chromium import ARGS, CHROMIUM, sync_api
from tests.serving import served

from lucie.web.app import stop_app
from lucie.web.site import create_site
from lucie.web.store_link import StoreLink

pytest.importorskip("websockets")
pytestmark = pytest.mark.browser


@pytest.fixture
def site_url(tmp_path: Path) -> Iterator[str]:
    app = create_site(StoreLink.open(tmp_path / "site.sqlite3"),
                      b"the secret of the duel browser test", solver_workers=1)
    with served(app) as url:
        yield url


def _play_one(page: Any) -> int:
    """Play the first legal move that is not a redeal (typed, as a player
    may); the number of moves after it."""
    before = page.evaluate("window.lucie.state.moves.length")
    move = page.evaluate(
        "window.lucie.state.legal_moves.find(m => m !== 'redeal') || 'redeal'")
    page.fill("#move-input", move)
    page.press("#move-input", "Enter")
    page.wait_for_function(f"window.lucie.state.moves.length > {before}")
    return int(page.evaluate("window.lucie.state.moves.length"))


def _sees(page: Any, moves: int, timeout: float = 1000) -> None:
    """The other side's progress shows ``moves`` moves within ``timeout`` ms."""
    page.wait_for_function(
        f"window.lucie.duel && window.lucie.duel.them && window.lucie.duel.them.moves >= {moves}",
        timeout=timeout)


def test_a_duel_from_link_to_result(site_url: str) -> None:
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            errors: list[str] = []
            pages: list[Any] = []
            for _who in range(2):
                page = browser.new_context(bypass_csp=True).new_page()
                page.on("pageerror", lambda e: errors.append(str(e)))
                page.on("dialog", lambda d: d.accept())
                page.goto(site_url + "/")
                page.wait_for_function("window.lucie && window.lucie.state")
                pages.append(page)
            a, b = pages
            # a opens a duel: deal 17, no undo
            a.click("#b-duel")
            a.fill("#duel-deal", "17")
            a.uncheck("#duel-undo")
            with a.expect_navigation():
                a.click("#duel-ok")
            a.wait_for_function("document.getElementById('duel-link').textContent !== ''")
            link = a.text_content("#duel-link") or ""
            assert "/duel/" in link
            assert a.is_hidden("#b-undo") and a.is_hidden("#b-new")
            # b opens the link and joins; both get the deal
            b.goto(link)
            b.wait_for_selector("#duel-join", state="visible")
            b.click("#duel-join")
            for page in (a, b):
                page.wait_for_function("window.lucie.state && window.lucie.duel.view.state "
                                       "=== 'playing'")
                assert page.evaluate("window.lucie.state.deal") in (17, "17")
            # each move appears on the other side in under a second
            _sees(b, _play_one(a))
            # with the other side's table in small, as the server sent it
            b.wait_for_selector("#duel-board .mini-fan")
            drawn = b.evaluate("[...document.querySelectorAll('#duel-board .mini-fan')].map("
                               "(f) => [...f.querySelectorAll('[data-card]')].map("
                               "(c) => c.dataset.card))")
            assert drawn == a.evaluate("window.lucie.state.fans")
            theirs = _play_one(b)
            _sees(a, theirs)
            # b reloads mid-duel: the same game, and a's moves still reach it
            b.reload()
            b.wait_for_function("window.lucie.state && window.lucie.duel.view.state "
                                "=== 'playing'")
            assert b.evaluate("window.lucie.state.moves.length") == theirs
            moves = _play_one(a)
            _sees(b, moves, timeout=5000)  # (the socket opens after the page)
            moves = _play_one(a)
            _sees(b, moves)
            # a news numbered after a gap is not applied: the duel is read again
            seq = b.evaluate("window.lucie.duel.seq")
            assert isinstance(seq, int) and seq >= 1
            b.evaluate("(seq) => { const d = window.lucie.duel; d.them = {moves: -1};"
                       " d.socket.onmessage({data: JSON.stringify({type: 'progress',"
                       " side: 'host', seq: seq + 2, progress: {moves: 99}})}); }", seq)
            b.wait_for_function(f"window.lucie.duel.rereads === 1 && "
                                f"window.lucie.duel.them.moves === {moves}", timeout=5000)
            assert b.evaluate("window.lucie.duel.seq") == seq
            _sees(b, _play_one(a))  # the next news, in order, applied
            assert b.evaluate("window.lucie.duel.seq") == seq + 1
            # a resigns: both see the result screen
            a.click("#b-resign")
            for page in (a, b):
                page.wait_for_selector("#d-duel-end[open]", timeout=5000)
            assert b.text_content("#duel-end-title") == "You won the duel!"
            assert "resigned" in (a.text_content("#duel-end-why") or "")
            assert b.locator("#duel-table tbody tr").count() == 5
            # both reviews side by side, each saying where the chance went
            b.click("#duel-review")
            b.wait_for_function("document.querySelectorAll('#duel-reviews ol').length === 2",
                                timeout=60000)
            assert errors == []
        finally:
            browser.close()


class _Site:
    """A site on one SQLite file and one port, stopped and started again."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.port = 0
        self.server: Any = None
        self.app: Any = None
        self.thread: threading.Thread | None = None
        self.sock: socket.socket | None = None

    def start(self) -> str:
        self.app = create_site(StoreLink.open(self.db), b"the secret of the duel restart test",
                               solver_workers=1)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", self.port))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        self.server = uvicorn.Server(uvicorn.Config(self.app, log_level="warning",
                                                    lifespan="off"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]},
                                       daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started and time.monotonic() < deadline:
            time.sleep(0.02)
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.server.should_exit = True
        assert self.thread is not None and self.sock is not None
        self.thread.join(10)
        self.sock.close()
        stop_app(self.app)
        self.app.state.link.close()


def test_a_duel_goes_on_after_a_server_restart(tmp_path: Path) -> None:
    site = _Site(tmp_path / "site.sqlite3")
    url = site.start()
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            a = browser.new_context(bypass_csp=True).new_page()
            b = browser.new_context(bypass_csp=True).new_page()
            a.goto(url + "/")
            a.wait_for_function("window.lucie && window.lucie.state")
            token = a.evaluate("""fetch('/api/duels', {method: 'POST', headers:
                {'Content-Type': 'application/json'}, body: JSON.stringify({deal: 23})})
                .then(r => r.json()).then(d => d.token)""")
            a.goto(f"{url}/duel/{token}")
            b.goto(f"{url}/duel/{token}")
            b.wait_for_selector("#duel-join", state="visible")
            b.click("#duel-join")
            for page in (a, b):
                page.wait_for_function("window.lucie.state && window.lucie.duel.view.state "
                                       "=== 'playing'")
            _sees(b, _play_one(a))
            site.stop()  # the server goes; the pages stay
            site.start()
            # the sockets reconnect by themselves; the games are in the store
            moves = _play_one(a)
            _sees(b, moves, timeout=15000)
            _sees(b, _play_one(a))
            _sees(a, _play_one(b))
        finally:
            browser.close()
            site.stop()
