"""A game's life in a real browser (issue 35): a recorded win, loss and
resignation survive "play this deal again", Restart, Undo and New; leaving
a played game asks first; the clock stops while the page is hidden.

Debian's Chromium driven by Playwright, as ``test_browser.py``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from tests.chromium import ARGS, CHROMIUM, sync_api

from lucie.engine import Game, Move
from lucie.rules import Rules

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page_at(browser: Any, live_server: Any) -> Iterator[Any]:
    pages: list[Any] = []
    errors: list[str] = []

    def open_page(path: str) -> Any:
        context = browser.new_context(viewport={"width": 1280, "height": 800},
                                      bypass_csp=True)
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(live_server.url + path)
        page.wait_for_selector("body.ready")
        pages.append(page)
        return page

    yield open_page
    for page in pages:
        page.context.close()
    assert errors == []


def state(page: Any) -> dict[str, Any]:
    data: dict[str, Any] = page.evaluate("window.lucie.state")
    return data


def fetch_json(page: Any, path: str) -> Any:
    return page.evaluate("async (p) => (await fetch(p)).json()", path)


def api_moves(page: Any, moves: list[str]) -> None:
    page.evaluate("""async (moves) => {
        const id = window.lucie.state.id;
        for (const move of moves) {
            const r = await fetch(`/api/games/${id}/move`, {method: "POST",
                headers: {"Content-Type": "application/json"}, body: JSON.stringify({move})});
            if (!r.ok) throw new Error(await r.text());
        }
    }""", moves)
    page.reload()
    page.wait_for_selector("body.ready")


def lost_line(rules: Rules, deal: int) -> list[str]:
    game = Game(rules, deal)
    moves: list[str] = []
    while not game.outcome.finished:
        move = game.legal_moves[0]
        game.play(move, autoplay=False)
        moves.append(str(move))
    assert game.outcome.status == "lost"
    return moves


@pytest.mark.parametrize("after", ["again", "restart", "undo", "new"])
@pytest.mark.parametrize("ending", ["won", "lost", "resigned"])
def test_a_recorded_result_stays(page_at: Any, win: tuple[int, list[Move]], ending: str,
                                 after: str) -> None:
    deal, line = win
    variant = {"won": "trefoil", "lost": "noredeal", "resigned": "classic"}[ending]
    number = {"won": deal, "lost": 3, "resigned": 1}[ending]
    page = page_at(f"/?variant={variant}&deal={number}")
    page.on("dialog", lambda d: d.accept())
    if ending == "won":
        api_moves(page, [str(m) for m in line])
    elif ending == "lost":
        api_moves(page, lost_line(Rules.parse(variant), number))
    else:
        api_moves(page, ["f>i"])
        page.locator("#b-resign").click()
    page.locator("#d-end").wait_for(state="visible")
    first = state(page)
    assert first["status"] == ending and first["result"] == ending
    if after == "again":
        page.locator("#end-restart").click()
    else:
        page.keyboard.press("Escape")
        page.locator("#d-end").wait_for(state="hidden")
        if after == "restart":
            page.locator("#b-restart").click()
        elif after == "undo":
            page.keyboard.press("u")
        else:
            page.locator("#b-new").click()
            page.locator("#new-ok").click()
    page.wait_for_function("(n) => window.lucie.state.moves.length !== n",
                           arg=len(first["moves"]))
    now = state(page)
    assert now["status"] == "playing"
    if after == "undo":
        assert now["practice"] and "Practice" in page.locator("#status").inner_text()
    else:
        assert now["recorded"] and not now["practice"] and now["moves"] == []
    stats = fetch_json(page, f"/api/stats?variant={variant}")
    assert (stats["games"], stats["wins"]) == (1, int(ending == "won"))
    games = fetch_json(page, f"/api/history?variant={variant}")["games"]
    assert [g["status"] for g in games if g["status"] != "playing"] == [ending]


def test_leaving_a_played_game_asks_first(page_at: Any) -> None:
    page = page_at("/?variant=classic&deal=1")
    api_moves(page, ["f>i"])
    old = state(page)["id"]
    answers = iter([False, True])
    asked: list[str] = []

    def answer(dialog: Any) -> None:
        asked.append(dialog.message)
        if next(answers):
            dialog.accept()
        else:
            dialog.dismiss()

    page.on("dialog", answer)
    page.locator("#b-new").click()
    page.locator("#new-ok").click()
    page.locator("#new-error").wait_for(state="visible")
    assert state(page)["id"] == old and "stay" in page.locator("#new-error").inner_text()
    page.locator("#new-ok").click()
    page.wait_for_function("(id) => window.lucie.state.id !== id", arg=old)
    assert len(asked) == 2 and "counts as lost" in asked[0]
    games = fetch_json(page, "/api/history?variant=classic")["games"]
    assert sorted(g["status"] for g in games) == ["playing", "resigned"]


def test_the_clock_stops_while_the_page_is_hidden(page_at: Any) -> None:
    page = page_at("/?variant=classic&deal=1")
    gid = state(page)["id"]
    page.evaluate("""() => {
        Object.defineProperty(document, "hidden", {value: true, configurable: true});
        document.dispatchEvent(new Event("visibilitychange"));
    }""")
    page.wait_for_function("window.lucie.state.clock_running === false")
    hidden = fetch_json(page, f"/api/games/{gid}")["seconds"]
    page.wait_for_timeout(1500)  # what is checked: time passes, the clock stays
    assert fetch_json(page, f"/api/games/{gid}")["seconds"] == hidden
    page.evaluate("""() => {
        Object.defineProperty(document, "hidden", {value: false, configurable: true});
        document.dispatchEvent(new Event("visibilitychange"));
    }""")
    page.wait_for_function("window.lucie.state.clock_running === true")
    page.wait_for_function(  # until the server's clock has moved on (polled)
        "async ([path, hidden]) => (await (await fetch(path)).json()).seconds > hidden",
        arg=[f"/api/games/{gid}", hidden], polling=200)
    assert fetch_json(page, f"/api/games/{gid}")["seconds"] > hidden
