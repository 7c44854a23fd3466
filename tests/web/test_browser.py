"""The page in a real browser: Debian's Chromium driven by Playwright.

Skipped when /usr/bin/chromium is absent, unless ``LUCIE_REQUIRE_BROWSER=1``
(CI sets it), in which case the absence is a failure.  Screenshots go to
``test-artifacts/`` at the top of the repository.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.chromium import ARGS, CHROMIUM, sync_api

from lucie.engine import Move, Position
from lucie.rules import Rules

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


pytestmark = pytest.mark.browser


#: Autoplay and one-click moves off (unless the test turned them on).
CLASSIC_SETTINGS = """
for (const key of ["lucie.autoplay", "lucie.oneclick"]) {
  if (localStorage.getItem(key) === null) localStorage.setItem(key, "0");
}
"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page_at(browser: Any, live_server: Any) -> Iterator[Any]:
    """Open the game at a path; page errors fail the test."""
    pages: list[Any] = []
    errors: list[str] = []

    def open_page(path: str = "/", width: int = 1280, height: int = 800, *,
                  newcomer: bool = False, **options: Any) -> Any:
        """``newcomer``: the settings of a first visit (autoplay and one-click
        moves on); else both off, as the tests of picking and putting and of
        single moves need (a setting the player changed is kept)."""
        context = browser.new_context(viewport={"width": width, "height": height},
                                      bypass_csp=True, **options)  # lets wait_for_function evaluate
        if not newcomer:
            context.add_init_script(CLASSIC_SETTINGS)
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


# -- helpers -------------------------------------------------------------------


def state(page: Any) -> dict[str, Any]:
    data: dict[str, Any] = page.evaluate("window.lucie.state")
    return data


def wait_moves(page: Any, n: int) -> None:
    page.wait_for_function(f"window.lucie.state && window.lucie.state.moves.length === {n}")


def settle(page: Any) -> None:
    """Wait until no card is still gliding to its place: a click at a point
    of a card must not land on a neighbour passing over it (a redeal
    animates every card, on a loaded machine for several frames)."""
    page.wait_for_function("document.getAnimations().length === 0")


def next_frame(page: Any) -> None:
    """Wait for the page's next frame: the events of a change (a resize)
    have been handled by then."""
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => done()))")


def center(box: dict[str, float]) -> tuple[float, float]:
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def target_selector(move: Move, card: str) -> str:
    if move.dst_kind == "foundation":
        return f"#foundations > .slot:nth-child({'CDHS'.index(card[-1]) + 1})"
    if move.dst_kind == "cell":
        return f"#cells > .slot:nth-child({move.dst + 1})"
    return f"#fans > .slot:nth-child({move.dst + 1})"


def moving_card(page: Any, move: Move) -> str:
    s = state(page)
    if move.src_kind == "fan":
        return str(s["fans"][move.src][-1])
    if move.src_kind == "cell":
        return str(s["cells"][move.src])
    return str(move.card_source)


def drag(page: Any, card: str, selector: str) -> None:
    """Drag a card with the mouse onto the slot ``selector`` (once the
    cards have stopped moving)."""
    page.wait_for_function("document.getAnimations().length === 0")
    el = page.locator(f'.card[data-card="{card}"]')
    box = el.bounding_box()
    assert box is not None, card
    x0, y0 = box["x"] + min(box["width"] / 2, 12), box["y"] + box["height"] / 2
    tbox = page.locator(selector).bounding_box()
    assert tbox is not None, selector
    x1, y1 = tbox["x"] + min(tbox["width"] / 2, 30), tbox["y"] + tbox["height"] / 2
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move(x0 + 8, y0 + 8, steps=2)
    page.mouse.move(x1, y1, steps=6)
    page.mouse.up()


def play_by_drag(page: Any, move: Move) -> None:
    n = len(state(page)["moves"])
    card = moving_card(page, move)
    drag(page, card, target_selector(move, card))
    wait_moves(page, n + 1)
    assert state(page)["moves"][-1] == str(move)


def shoot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), full_page=True)


# -- tests ---------------------------------------------------------------------


def test_the_largest_deal_number_is_shown_exactly(page_at: Any) -> None:
    """Deal numbers above 2^53 come as text and are shown digit for digit."""
    largest = str(2**63 - 1)
    page = page_at(f"/?variant=classic&deal={largest}")
    assert state(page)["deal"] == largest
    assert page.locator("#f-deal").inner_text() == largest


def test_win_a_deal_by_dragging(page_at: Any, win: tuple[int, list[Move]]) -> None:
    deal, line = win
    page = page_at(f"/?variant=trefoil&deal={deal}")
    assert state(page)["deal"] == str(deal) and page.url.endswith("/")
    assert page.locator("#title").inner_text() == "Trefoil"
    for move in line:
        play_by_drag(page, move)
    dialog = page.locator("#d-end")
    dialog.wait_for(state="visible")
    assert page.locator("#d-end-title").inner_text() == "You won!"
    assert "Score 52/52" in page.locator("#d-end-text").inner_text()
    assert page.locator("#f-score").inner_text() == "52/52"
    assert page.locator("#foundations .card").count() == 4
    shoot(page, "won-1280.png")
    # the statistics page shows the finished game
    page.locator("#end-stats").click()
    page.wait_for_url("**/stats")
    page.wait_for_selector("#chart-time circle.dot.won")
    numbers = page.locator("#stats-numbers").inner_text()
    assert "Games\n1" in numbers and "Won\n1" in numbers and "100.0%" in numbers
    assert page.locator("#chart-scores rect.bar.won").first.get_attribute("height") != "0"
    rows = page.locator("#stats-games tbody tr")
    cells = rows.first.locator("td").all_inner_texts()
    assert rows.count() == 1 and cells[1:4] == [str(deal), "won", "52"]
    shoot(page, "stats-1280.png")
    page.locator("#b-back").click()
    page.wait_for_url(lambda url: not url.endswith("/stats"))
    assert page.locator("#fans").is_visible()


def test_illegal_drop_undo_redo_redeal_reload(page_at: Any) -> None:
    page = page_at("/?variant=classic&deal=1")
    position = Position.deal(Rules(), 1)
    # an illegal drop: 4S (top of fan a) onto fan b, refused with the engine's reason
    why = position.why_illegal(Move.parse("a>b"))
    assert why is not None
    before = page.locator('.card[data-card="4S"]').bounding_box()
    drag(page, "4S", "#fans > .slot:nth-child(2)")
    page.wait_for_function("document.getElementById('status').className === 'error'")
    assert page.locator("#status").inner_text() == f"Not allowed: {why}"
    settle(page)  # the card slides back
    assert page.locator('.card[data-card="4S"]').bounding_box() == before
    assert state(page)["moves"] == []
    # legal targets light up while a card is held, then a click on the target moves it
    page.locator('.card[data-card="7D"]').click()
    lit = page.locator(".slot.target")
    assert lit.count() == 1 and lit.get_attribute("data-target") == "fan:8"
    page.locator("#fans > .slot:nth-child(9)").click()
    wait_moves(page, 1)
    assert page.locator(".slot.target").count() == 0
    # undo and redo with the buttons, then the keys
    page.locator("#b-undo").click()
    wait_moves(page, 0)
    page.locator("#b-redo").click()
    wait_moves(page, 1)
    page.keyboard.press("u")
    wait_moves(page, 0)
    page.keyboard.press("Control+y")
    wait_moves(page, 1)
    # redeal by clicking the pile
    assert page.locator("#stock-count").inner_text() == "2"
    page.locator("#stock").click()
    wait_moves(page, 2)
    assert state(page)["moves"] == ["f>i", "R"]
    assert page.locator("#stock-count").inner_text() == "1"
    assert page.locator("#f-deals").inner_text() == "1"
    fans = state(page)["fans"]
    # reload: the game is where it was
    page.reload()
    page.wait_for_selector("body.ready")
    assert state(page)["moves"] == ["f>i", "R"] and state(page)["fans"] == fans
    assert "Welcome back" in page.locator("#status").inner_text()


def test_merci_double_click_and_keyboard(page_at: Any) -> None:
    page = page_at("/?variant=merci&deal=2")
    # double-click sends a card to its foundation (deal 2: AD on top of fan h)
    assert state(page)["fans"][7][-1] == "AD"
    page.locator('.card[data-card="AD"]').dblclick()
    wait_moves(page, 1)
    assert state(page)["moves"] == ["h>f"]
    assert page.locator('#foundations .card[data-card="AD"]').count() == 1
    # keyboard only: focus fan o, Enter picks its top card, Enter on a foundation drops it
    legal = state(page)["legal_moves"]
    src = next(m for m in legal if m.endswith(">f"))
    i = "abcdefghijklmnopqr".index(src[0])
    card = state(page)["fans"][i][-1]
    page.locator(f"#fans > .slot:nth-child({i + 1})").focus()
    page.keyboard.press("Enter")
    assert page.locator(".card.held").get_attribute("data-card") == card
    suit = "CDHS".index(card[-1])
    page.locator(f"#foundations > .slot:nth-child({suit + 1})").focus()
    page.keyboard.press("Enter")
    wait_moves(page, 2)
    # two redeals with the key, then the merci: pick a buried card, then a fan
    page.keyboard.press("d")
    wait_moves(page, 3)
    page.keyboard.press("d")
    wait_moves(page, 4)
    assert page.locator("#f-merci").inner_text() == "available"
    page.locator("#b-merci").click()
    liftable = page.locator(".card.liftable")
    assert liftable.count() > 0
    s = state(page)
    fan_index = next(k for k, f in enumerate(s["fans"]) if len(f) >= 2)
    buried = s["fans"][fan_index][0]
    onto = next(k for k, f in enumerate(s["fans"]) if f and k != fan_index)
    settle(page)
    page.locator(f'.card[data-card="{buried}"]').click(position={"x": 5, "y": 20})
    assert page.locator(".card.held").get_attribute("data-card") == buried
    page.locator(f"#fans > .slot:nth-child({onto + 1})").click(position={"x": 5, "y": 5})
    wait_moves(page, 5)
    s = state(page)
    assert s["fans"][onto][-1] == buried and s["merci_used"]
    assert page.locator("#f-merci").inner_text() == "used"
    assert page.locator("#b-merci").is_disabled()
    # a move typed in the move box
    legal = [m for m in s["legal_moves"] if m != "R"]
    if legal:
        page.locator("#move-input").fill(legal[0])
        page.keyboard.press("Enter")
        wait_moves(page, 6)


def test_layout_phone_and_desktop(page_at: Any) -> None:
    for width, height in ((360, 740), (1280, 800)):
        page = page_at("/?variant=classic&deal=3", width, height)
        # nothing wider than the screen
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        # every card shows: its top-left corner is not covered by another card
        hidden = page.evaluate("""() => [...document.querySelectorAll('#fans .card')]
            .filter(c => { const r = c.getBoundingClientRect();
                           const at = document.elementFromPoint(r.left + 4, r.top + 12);
                           return !at || at.closest('.card') !== c; })
            .map(c => c.dataset.card)""")
        assert hidden == []
        assert page.locator("#fans .card").count() == 52
        # the toolbar's buttons are all reachable
        for name in ("New", "Undo", "Redo", "Stats", "Rules"):
            assert page.get_by_role("button", name=name, exact=False).first.is_visible()
        shoot(page, f"table-{width}.png")
    # the new-game dialog lists every variant
    page.locator("#b-new").click()
    options = page.locator("#new-variant option").all_inner_texts()
    assert len(options) == 10 and "Three Shuffles and a Draw" in options
    page.locator("#new-variant").select_option("trefoil")
    page.locator("#new-deal").fill("12")
    page.locator("#new-ok").click()
    page.wait_for_function("window.lucie.state.variant === 'trefoil'")
    assert state(page)["deal"] == "12"
    assert page.locator("#fans > .slot").count() == 16
    page.locator("#b-new").click()
    page.locator("#new-deal").fill("-4")
    page.locator("#new-ok").click()
    page.wait_for_function("document.getElementById('new-error').textContent !== ''")
    assert "deal" in page.locator("#new-error").inner_text()


def test_touch_taps_and_touch_drag(browser: Any, live_server: Any) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True,
                                  is_mobile=True, bypass_csp=True)
    context.add_init_script(CLASSIC_SETTINGS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(live_server.url + "/?variant=classic&deal=1")
        page.wait_for_selector("body.ready")
        # tap the card, then tap where it goes
        page.locator('.card[data-card="7D"]').tap()
        assert page.locator(".slot.target").get_attribute("data-target") == "fan:8"
        page.locator("#fans > .slot:nth-child(9)").tap(position={"x": 5, "y": 5})
        wait_moves(page, 1)
        # a finger drag: touch pointer events, as a phone sends them
        card = state(page)["fans"][12][-1]  # 8C onto fan p (9C)
        assert "m>p" in state(page)["legal_moves"]
        box = page.locator(f'.card[data-card="{card}"]').bounding_box()
        tbox = page.locator("#fans > .slot:nth-child(16)").bounding_box()
        assert box is not None and tbox is not None
        x0, y0 = box["x"] + 10, box["y"] + 20
        x1, y1 = tbox["x"] + 10, tbox["y"] + 20
        el = page.locator(f'.card[data-card="{card}"]')
        common = {"pointerId": 7, "pointerType": "touch", "isPrimary": True, "bubbles": True}
        el.dispatch_event("pointerdown", {**common, "clientX": x0, "clientY": y0, "button": 0})
        for k in range(1, 6):
            el.dispatch_event("pointermove", {**common, "clientX": x0 + (x1 - x0) * k / 5,
                                              "clientY": y0 + (y1 - y0) * k / 5})
        assert page.locator(".slot.target").count() == 1
        el.dispatch_event("pointerup", {**common, "clientX": x1, "clientY": y1})
        wait_moves(page, 2)
        assert state(page)["moves"] == ["f>i", "m>p"]
    finally:
        context.close()
    assert errors == []


def test_autoplay_hint_save_and_load(page_at: Any, tmp_path: Path) -> None:
    from lucie.engine import autoplay_moves

    page = page_at("/?variant=classic&deal=2")
    expected = [str(m) for m in autoplay_moves(Position.deal(Rules(), 2))]
    # autoplay on: the safe foundation moves are played, one move each
    page.locator("#b-auto").click()
    wait_moves(page, len(expected))
    assert state(page)["moves"] == expected
    assert page.locator("#b-auto").get_attribute("aria-pressed") == "true"
    page.locator("#b-auto").click()
    assert page.locator("#b-auto").get_attribute("aria-pressed") == "false"
    # save: the download is a saved game that replays to this position
    with page.expect_download() as info:
        page.locator("#b-save").click()
    path = tmp_path / "saved.json"
    info.value.save_as(path)
    from lucie.formats import load_game

    assert [str(m) for m in load_game(path.read_text()).moves] == expected
    # autoplay's moves are one step: one undo takes them all back
    page.keyboard.press("u")
    wait_moves(page, 0)
    assert page.locator("#status").inner_text().startswith("Undone: ")
    page.locator("#load-file").set_input_files(str(path))
    page.wait_for_function(f"window.lucie.state.moves.length === {len(expected)}")
    assert "Loaded saved.json" in page.locator("#status").inner_text()
    # a file that is not a saved game is refused with the reason
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "nothing"}')
    page.locator("#load-file").set_input_files(str(bad))
    page.wait_for_function("document.getElementById('status').className === 'error'")
    assert "not a game saved by lucie" in page.locator("#status").inner_text()
    # the hint, when the solver is there, is shown on the table
    if page.evaluate("!document.getElementById('b-hint').hidden"):
        page.keyboard.press("h")
        page.wait_for_function(
            "document.getElementById('status').className === 'hint'", timeout=30_000)
        assert page.locator("#status").inner_text().startswith("Hint: ")
        if page.locator("#stock.hint").count() == 0:  # unless the hint is to redeal
            assert page.locator(".card.hint").count() == 1
            assert page.locator(".slot.hint-target").count() == 1
            assert page.locator("#overlay line.arrow").count() == 1


# -- the rough edges of issue 27.3, and the review -------------------------------


def api_moves(page: Any, moves: list[str]) -> None:
    """Play moves through the API from the page (then reload it)."""
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


def test_a_buried_card_is_not_lifted_without_the_merci_mode(page_at: Any) -> None:
    page = page_at("/?variant=merci&deal=2")
    page.keyboard.press("d")
    wait_moves(page, 1)
    page.keyboard.press("d")
    wait_moves(page, 2)
    s = state(page)
    assert s["merci_moves"]
    fan_index = next(k for k, f in enumerate(s["fans"]) if len(f) >= 2)
    buried = s["fans"][fan_index][0]
    onto = next(k for k, f in enumerate(s["fans"]) if f and k != fan_index)
    # dragged without asking for the merci: nothing moves, the page says how to ask
    drag(page, buried, f"#fans > .slot:nth-child({onto + 1})")
    page.wait_for_function("document.getElementById('status').textContent.includes('press M')")
    assert state(page)["moves"] == ["R", "R"] and not state(page)["merci_used"]
    # with the merci mode on, the same drag lifts it
    page.keyboard.press("m")
    drag(page, buried, f"#fans > .slot:nth-child({onto + 1})")
    wait_moves(page, 3)
    assert state(page)["merci_used"] and state(page)["fans"][onto][-1] == buried


def test_the_table_scales_to_a_large_window(page_at: Any) -> None:
    page = page_at("/?variant=classic&deal=3", 2560, 1440)
    width = page.evaluate("document.getElementById('table').getBoundingClientRect().width")
    card = page.locator('#fans .card').first.bounding_box()
    assert card is not None
    assert width > 2400 and card["width"] > 150
    bottom = page.evaluate("""Math.max(...[...document.querySelectorAll('#fans .card')]
        .map(c => c.getBoundingClientRect().bottom))""")
    assert 0.6 * 1440 < bottom <= 1440  # the lower half is used, and all shows
    assert page.evaluate("document.documentElement.scrollWidth") <= 2560
    shoot(page, "table-2560.png")


def test_statistics_on_a_phone(page_at: Any, win: tuple[int, list[Move]]) -> None:
    deal, line = win
    page = page_at("/?variant=trefoil&deal=5", 390, 844)
    api_moves(page, [state(page)["legal_moves"][0]])
    page.evaluate("""async () => fetch(`/api/games/${window.lucie.state.id}/resign`,
        {method: "POST", headers: {"Content-Type": "application/json"}, body: "{}"})""")
    origin = page.evaluate("location.origin")
    page.goto(f"{origin}/?variant=trefoil&deal={deal}")
    page.wait_for_selector("body.ready")
    api_moves(page, [str(m) for m in line])
    assert state(page)["status"] == "won"
    page.goto(f"{origin}/stats")
    page.wait_for_selector("body.ready")
    page.wait_for_selector("#stats-games tbody tr >> nth=1")
    # the recent games fit the screen
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    table = page.locator("#stats-games").bounding_box()
    assert table is not None and table["x"] + table["width"] <= 390
    # the legend covers no point (the latest game, won, is at the top right)
    overlaps = page.evaluate("""() => {
        const legend = [...document.querySelectorAll('#chart-time .legend-box > *')]
            .filter(n => !n.closest('.dot')).map(n => n.getBoundingClientRect());
        const dots = [...document.querySelectorAll('#chart-time > circle.dot')]
            .map(n => n.getBoundingClientRect());
        const hit = (a, b) => a.left < b.right && b.left < a.right
            && a.top < b.bottom && b.top < a.bottom;
        return dots.filter(d => legend.some(l => hit(l, d))).length;
    }""")
    assert overlaps == 0
    shoot(page, "stats-390.png")


def test_arrows_reach_the_foundations(page_at: Any) -> None:
    page = page_at("/?variant=merci&deal=2")
    assert state(page)["fans"][7][-1] == "AD"
    page.locator("#fans > .slot:nth-child(8)").focus()  # fan h, second row
    page.keyboard.press("Enter")
    assert page.locator(".card.held").get_attribute("data-card") == "AD"
    page.keyboard.press("ArrowUp")  # fan b
    page.keyboard.press("ArrowUp")  # the top row, the slot above fan b
    assert page.evaluate("document.activeElement.closest('#top-row') !== null")
    # left and right along the top row, to the diamonds foundation
    for _ in range(8):
        page.keyboard.press("ArrowLeft")
    assert page.evaluate("document.activeElement.id") == "stock"
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.target") == "foundation:0"
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.target") == "foundation:1"
    page.keyboard.press("Enter")
    wait_moves(page, 1)
    assert state(page)["moves"] == ["h>f"]
    page.locator("#stock").focus()
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.dataset.target") == "fan:0"


def test_status_messages_are_cleared_on_undo_redo_restart(page_at: Any) -> None:
    page = page_at("/?variant=classic&deal=1")
    page.locator('.card[data-card="7D"]').click()
    page.locator("#fans > .slot:nth-child(9)").click()
    wait_moves(page, 1)

    def refused() -> None:
        drag(page, "4S", "#fans > .slot:nth-child(2)")
        page.wait_for_function("document.getElementById('status').className === 'error'")

    refused()
    page.keyboard.press("u")
    wait_moves(page, 0)
    page.wait_for_function("document.getElementById('status').className !== 'error'")
    assert page.locator("#status").inner_text() == "Undone: 7♦ from fan f onto 8♦ in fan i"
    refused()
    page.keyboard.press("y")
    wait_moves(page, 1)
    page.wait_for_function("document.getElementById('status').className !== 'error'")
    assert page.locator("#status").inner_text() == "7♦ from fan f onto 8♦ in fan i"
    refused()
    page.keyboard.press("Shift+R")
    wait_moves(page, 0)
    page.wait_for_function("document.getElementById('status').textContent === ''")


def test_resign(page_at: Any) -> None:
    page = page_at("/?variant=classic&deal=1")
    page.on("dialog", lambda d: d.accept())
    page.locator('.card[data-card="7D"]').click()
    page.locator("#fans > .slot:nth-child(9)").click()
    wait_moves(page, 1)
    page.locator("#b-resign").click()
    page.locator("#d-end").wait_for(state="visible")
    assert page.locator("#d-end-title").inner_text() == "Game resigned"
    assert state(page)["status"] == "resigned" and page.locator("#b-resign").is_disabled()


def wait_review(page: Any) -> None:
    """Wait for the review page's answer: its chart, or the error it shows
    in its place (then the test fails with that error, not a timeout)."""
    # the review works out every position of the game: on a busy 2-core
    # machine (the whole suite at once) that takes a minute or more
    page.wait_for_function(
        "document.querySelector('#chart-review circle.pt') !== null"
        " || !document.getElementById('review-summary').textContent.startsWith('Reviewing')",
        timeout=240_000)
    summary = page.locator("#review-summary").inner_text()
    assert page.locator("#chart-review circle.pt").count() > 0, summary


def test_review_from_the_end_and_from_the_statistics(page_at: Any,
                                                     win: tuple[int, list[Move]]) -> None:
    deal, line = win
    page = page_at(f"/?variant=trefoil&deal={deal}")
    api_moves(page, [str(m) for m in line])
    page.locator("#d-end").wait_for(state="visible")
    page.locator("#end-review").click()
    wait_review(page)
    assert page.locator("#chart-review circle.pt").count() == len(line) + 1
    assert "No mistake" in page.locator("#review-mistakes").inner_text()
    assert "Winning chance at the start: 100%" in page.locator("#review-summary").inner_text()
    page.locator("#chart-review circle.pt").nth(2).click()
    text = page.locator("#review-move-text").inner_text()
    before = Position.deal(Rules.parse("trefoil"), deal)
    for move in line[:2]:
        before = before.apply(move)
    said = before.describe(line[2])  # the move in words, never its notation
    assert text.startswith(f"Move 3: {said} (best)") and "before: 100%" in text
    assert str(line[2]) not in text
    assert page.locator("#review-board .card").count() > 40
    assert page.locator("#review-board .card.played").count() == 1
    shoot(page, "review-1280.png")
    page.locator("#b-review-back").click()
    assert page.locator("#fans").is_visible()
    # the statistics' recent games: Review on the row
    page.keyboard.press("Escape")
    page.keyboard.press("s")
    page.wait_for_selector("#stats-games button.review")
    page.locator("#stats-games button.review").first.click()
    wait_review(page)
    assert page.locator("#chart-review circle.pt").count() == len(line) + 1
    page.locator("#b-review-back").click()
    assert page.locator("#stats-page").is_visible()


def test_new_game_by_difficulty_and_the_deal_of_the_day(page_at: Any) -> None:
    import datetime

    from lucie.daily import daily_deal

    page = page_at("/?variant=classic&deal=1")
    page.on("dialog", lambda d: d.accept())
    page.locator("#b-new").click()
    page.locator("#new-difficulty").select_option("clearable")
    page.locator("#new-ok").click()
    page.wait_for_function("window.lucie.state.deal !== '1'", timeout=60_000)
    assert state(page)["difficulty"] is None  # not told before the end
    assert "told at the end" in page.locator("#status").inner_text()
    api_moves(page, [state(page)["legal_moves"][0]])
    page.locator("#b-resign").click()
    page.locator("#d-end").wait_for(state="visible")
    page.wait_for_function(
        "document.getElementById('d-end-difficulty').textContent.includes('clearable without')",
        timeout=60_000)
    assert "You asked for a clearable deal. " in page.locator("#d-end-difficulty").inner_text()
    page.locator("#end-new").click()
    page.locator("#new-daily").click()
    page.wait_for_function("window.lucie.state.daily !== null")
    today = datetime.datetime.now(datetime.UTC).date()
    assert state(page)["deal"] == str(daily_deal(Rules(), today))
    assert "deal of the day" in page.locator("#f-deal").inner_text()


def test_resign_is_offered_when_the_solver_proves_the_game_lost(page_at: Any) -> None:
    page = page_at("/?variant=noredeal&deal=1")  # no redeal, and no way to clear it
    page.on("dialog", lambda d: d.accept())
    assert page.locator("#resign-offer").is_hidden()
    page.keyboard.press("h")
    page.locator("#resign-offer").wait_for(state="visible", timeout=30_000)
    assert "can no longer be won" in page.locator("#resign-offer").inner_text()
    page.locator("#offer-resign").click()
    page.locator("#d-end").wait_for(state="visible")
    assert state(page)["status"] == "resigned"
    assert page.locator("#resign-offer").is_hidden()


def test_odds_cut_short_claim_nothing(page_at: Any) -> None:
    """Shamrocks deal 9's odds are cut short by the budget: the page shows
    no "exact" figure, offers no resignation and says nothing is proved (the
    claim is the server's ``proved``; the page does not infer it)."""
    page = page_at("/?variant=shamrocks&deal=9")
    # the page's own request, with a shorter budget than its 10 s default
    page.route("**/odds", lambda route: route.continue_(url=route.request.url + "?seconds=0.5"))
    page.keyboard.press("o")
    page.wait_for_function(
        "!document.getElementById('odds').textContent.includes('Estimating')", timeout=30_000)
    text = page.locator("#odds").inner_text()
    assert "not measured" in text and "budget ran out" in text, text
    assert "exact" not in text and "0%" not in text, text
    assert page.locator("#resign-offer").is_hidden()
