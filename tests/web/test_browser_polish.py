"""What players of the best solitaire sites expect, in a real browser
(issue 38): one-click moves, autoplay for a newcomer, messages in view, a
stale second tab, the win's cascade, themes, readable long fans, the hint
arrow, the merci by drag, the statistics' pages.

Skipped when /usr/bin/chromium is absent (see ``test_browser``).
"""

from __future__ import annotations

from typing import Any

import pytest
from tests.web import test_browser as base
from tests.web.test_browser import (
    CLASSIC_SETTINGS,
    api_moves,
    drag,
    next_frame,
    settle,
    shoot,
    state,
    wait_moves,
)

from lucie.cards import Card
from lucie.engine import Move, Position
from lucie.rules import Rules

pytestmark = pytest.mark.browser

# the fixtures of the browser tests: Chromium, and a page on a live server
browser = base.browser
page_at = base.page_at

#: The sizes the page is made for: phones upright and sideways, a tablet, laptops, a large screen.
SIZES = [(360, 640), (390, 844), (844, 390), (768, 1024), (1280, 720), (1280, 800), (2560, 1440)]


def fan_line(variant: str, deal: int, steps: int = 25) -> list[str]:
    """Fan-to-fan moves that build the longest fans they can (greedy), as a
    player piling cards up would."""
    p = Position.deal(Rules.parse(variant), deal)
    line: list[str] = []
    seen = {p.key()}
    for _ in range(steps):
        best: tuple[tuple[int, int], Move, Position] | None = None
        for m in p.legal_moves():
            if m.is_redeal or m.src_kind != "fan" or m.dst_kind != "fan":
                continue
            q = p.apply(m)
            if q.key() in seen:
                continue
            score = (max(len(f) for f in q.fans), sum(len(f) ** 2 for f in q.fans))
            if best is None or score > best[0]:
                best = (score, m, q)
        if best is None:
            break
        seen.add(best[2].key())
        line.append(str(best[1]))
        p = best[2]
    return line


def in_view(page: Any, selector: str) -> bool:
    """Whether the element shows whole inside the window, without scrolling."""
    return bool(page.evaluate("""(sel) => {
        const r = document.querySelector(sel).getBoundingClientRect();
        return r.height > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight
            && r.right <= innerWidth; }""", selector))


# -- one-click moves and autoplay ------------------------------------------------


def test_one_click_moves_for_a_newcomer_and_the_setting(page_at: Any) -> None:
    page = page_at("/?variant=classic&deal=1", newcomer=True)
    # 7D has one place to go (onto 8D, fan i): a click plays it there
    s = state(page)
    assert [t["target"] for t in s["sources"]["7D"]["targets"]] == ["fan:8"]
    page.locator('.card[data-card="7D"]').click()
    page.wait_for_function("window.lucie.state.moves.length >= 1")
    assert state(page)["moves"][0] == "f>i"
    # a card with several places to go is picked up, its places lit
    settle(page)
    s = state(page)
    several = next((c for c, src in s["sources"].items()
                    if len(src["targets"]) > 1 and src["where"].startswith("fan:")), None)
    if several is not None:
        page.locator(f'.card[data-card="{several}"]').click()
        assert page.locator(".card.held").get_attribute("data-card") == several
        assert page.locator(".slot.target").count() == len(s["sources"][several]["targets"])
        page.keyboard.press("Escape")
    # the setting turns it off, and is kept across a reload
    page.locator("#b-settings").click()
    page.locator("#set-oneclick").uncheck()
    page.locator("#settings-close").click()
    page.reload()
    page.wait_for_selector("body.ready")
    n = len(state(page)["moves"])
    one = next(c for c, src in state(page)["sources"].items()
               if len(src["targets"]) == 1 and src["where"].startswith("fan:"))
    settle(page)
    page.locator(f'.card[data-card="{one}"]').click()
    assert page.locator(".card.held").get_attribute("data-card") == one
    assert len(state(page)["moves"]) == n
    page.locator("#b-settings").click()
    assert not page.locator("#set-oneclick").is_checked()


def test_a_double_click_sends_home_once(browser: Any, live_server: Any) -> None:
    """With one-click moves on, a double-click on a card whose one place is
    its foundation plays one move: the second click does not play the card
    uncovered by the first."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    context.add_init_script('localStorage.setItem("lucie.autoplay", "0")')
    try:
        page = context.new_page()
        page.goto(live_server.url + "/?variant=merci&deal=2")
        page.wait_for_selector("body.ready")
        assert state(page)["fans"][7][-1] == "AD"
        page.locator('.card[data-card="AD"]').dblclick()
        wait_moves(page, 1)
        page.wait_for_timeout(600)
        assert state(page)["moves"] == ["h>f"]
    finally:
        context.close()


def test_autoplay_is_on_for_a_newcomer_in_one_line(page_at: Any) -> None:
    page = page_at("/?variant=classic&deal=3", 390, 844, newcomer=True)
    assert page.locator("#b-auto").get_attribute("aria-pressed") == "true"
    # a deal is not played by itself (a game left without a move is no game lost)
    assert state(page)["moves"] == []
    # deal 3 has 18 safe cards: after the player's first (AH home), autoplay
    # sends the 17 others, said in one line
    page.locator('.card[data-card="AH"]').dblclick()
    page.wait_for_function("window.lucie.state.moves.length === 18")
    text = page.locator("#status").inner_text()
    assert text.startswith("A♥ from fan k to the foundation; autoplay sent 17 cards home")
    assert in_view(page, "#status")
    # turned off, it stays off
    page.locator("#b-auto").click()
    page.reload()
    page.wait_for_selector("body.ready")
    assert page.locator("#b-auto").get_attribute("aria-pressed") == "false"
    page.locator("#b-settings").click()
    assert not page.locator("#set-autoplay").is_checked()


# -- messages where the eye is -------------------------------------------------


@pytest.mark.parametrize(("width", "height"), [(390, 844), (768, 1024), (1280, 720)])
def test_a_refusal_is_seen_without_scrolling(page_at: Any, width: int, height: int) -> None:
    page = page_at("/?variant=classic&deal=1", width, height)
    drag(page, "4S", "#fans > .slot:nth-child(2)")  # a>b: refused
    page.wait_for_function("document.getElementById('status').className === 'error'")
    assert page.locator("#status").inner_text().startswith("Not allowed: ")
    assert in_view(page, "#status")
    assert page.evaluate("document.documentElement.scrollHeight") <= height
    shoot(page, f"message-{width}x{height}.png")


def test_the_resign_offer_is_seen_without_scrolling(page_at: Any) -> None:
    page = page_at("/?variant=noredeal&deal=1", 1280, 800)
    page.keyboard.press("h")
    page.locator("#resign-offer").wait_for(state="visible", timeout=30_000)
    assert in_view(page, "#resign-offer") and in_view(page, "#offer-resign")


def test_welcome_back_to_a_finished_game_says_so(page_at: Any) -> None:
    page = page_at("/?variant=classic&deal=1")
    page.on("dialog", lambda d: d.accept())
    page.locator('.card[data-card="7D"]').click()
    page.locator("#fans > .slot:nth-child(9)").click()
    wait_moves(page, 1)
    page.locator("#b-resign").click()
    page.locator("#d-end").wait_for(state="visible")
    page.reload()
    page.wait_for_selector("body.ready")
    text = page.locator("#status").inner_text()
    assert text == "Welcome back: this game was resigned. New (N) deals another."


# -- a stale second tab ----------------------------------------------------------


def test_a_stale_tab_shows_the_game_as_it_is_now(browser: Any, live_server: Any) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    context.add_init_script(CLASSIC_SETTINGS)
    try:
        first = context.new_page()
        first.goto(live_server.url + "/?variant=classic&deal=1")
        first.wait_for_selector("body.ready")
        second = context.new_page()  # the same game, in a second tab
        second.goto(live_server.url + "/")
        second.wait_for_selector("body.ready")
        assert state(second)["id"] == state(first)["id"]
        # the first tab plays 7D onto 8D; the second still shows the deal
        first.locator('.card[data-card="7D"]').click()
        first.locator("#fans > .slot:nth-child(9)").click()
        wait_moves(first, 1)
        assert state(second)["moves"] == []
        # the second tab's move (8C onto 9C, legal in both positions) is refused:
        # the page shows the game as it is now, and says why
        drag(second, "8C", "#fans > .slot:nth-child(16)")
        second.wait_for_function("document.getElementById('status').className === 'error'")
        assert "another tab" in second.locator("#status").inner_text()
        assert state(second)["moves"] == ["f>i"]
        assert second.locator('#fans > .slot:nth-child(9) .card[data-card="7D"]').count() == 1
        # now up to date, its next move is played
        drag(second, "8C", "#fans > .slot:nth-child(16)")
        wait_moves(second, 2)
        assert state(second)["moves"] == ["f>i", "m>p"]
    finally:
        context.close()


# -- the end of a won game ---------------------------------------------------------


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_the_win_cascade_and_reduced_motion(page_at: Any, win: tuple[int, list[Move]],
                                            motion: str) -> None:
    deal, line = win
    page = page_at(f"/?variant=trefoil&deal={deal}", reduced_motion=motion)
    api_moves(page, [str(m) for m in line[:-1]])
    settle(page)
    last = line[-1]
    card = state(page)["fans"][last.src][-1]
    page.locator(f'.card[data-card="{card}"]').dblclick()
    page.wait_for_function("window.lucie.state.status === 'won'")
    flying = page.evaluate("document.querySelectorAll('#celebrate .card').length")
    if motion == "reduce":
        assert flying == 0
    else:
        assert flying == 52
        assert page.evaluate("document.getAnimations().length") > 0
        shoot(page, "win-cascade.png")
    page.locator("#d-end").wait_for(state="visible", timeout=10_000)
    assert page.evaluate("document.querySelectorAll('#celebrate .card').length") == 0


def test_sounds_are_off_until_switched_on(page_at: Any) -> None:
    page = page_at("/?variant=classic&deal=1")
    page.locator('.card[data-card="7D"]').click()
    page.locator("#fans > .slot:nth-child(9)").click()
    wait_moves(page, 1)
    assert page.evaluate("window.lucie.sounds") == 0
    page.locator("#b-settings").click()
    page.locator("#set-sounds").check()  # plays a sample
    page.locator("#settings-close").click()
    made = page.evaluate("window.lucie.sounds")
    assert made == 1
    drag(page, "4S", "#fans > .slot:nth-child(2)")  # refused: a sound
    page.wait_for_function("document.getElementById('status').className === 'error'")
    assert page.evaluate("window.lucie.sounds") == made + 1


# -- themes ------------------------------------------------------------------------


def test_themes_and_card_backs_are_kept(page_at: Any) -> None:
    page = page_at("/?variant=classic&deal=1")
    felt = "getComputedStyle(document.documentElement).getPropertyValue('--felt').trim()"
    back = "getComputedStyle(document.querySelector('#stock .back')).backgroundImage"
    green, red = page.evaluate(felt), page.evaluate(back)
    seen = {green}
    page.locator("#b-settings").click()
    for theme in ("blue", "wine", "dark", "contrast"):
        page.locator("#set-theme").select_option(theme)
        assert page.evaluate("document.documentElement.dataset.theme") == theme
        seen.add(page.evaluate(felt))
    assert len(seen) == 5  # five tables, each its own colour
    page.locator("#set-theme").select_option("dark")
    page.locator("#set-back").select_option("gold")
    page.locator("#settings-close").click()
    gold = page.evaluate(back)
    assert gold != red
    shoot(page, "theme-dark.png")
    page.reload()
    page.wait_for_selector("body.ready")
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    assert page.evaluate(felt) not in (green, "")
    assert page.evaluate(back) == gold
    page.locator("#b-settings").click()
    assert page.locator("#set-theme").input_value() == "dark"
    assert page.locator("#set-back").input_value() == "gold"


# -- long fans, small and sideways screens -----------------------------------------


def test_long_fans_are_readable_at_every_size(page_at: Any) -> None:
    line = fan_line("flower", 12)
    page = page_at("/?variant=flower&deal=12")
    api_moves(page, line)
    assert max(len(f) for f in state(page)["fans"]) >= 12
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_function(f"innerWidth === {width} && innerHeight === {height}")
        next_frame(page)
        settle(page)
        # each card's corner label: 12 px tall or more, and not covered by
        # another card (the message box set aside, each card scrolled to)
        page.evaluate("document.getElementById('messages').hidden = true")
        bad = page.evaluate("""() => [...document.querySelectorAll('#fans .card')].filter(c => {
            c.scrollIntoView({block: "center"});
            const t = c.querySelector('.rank:not(.small)').getBoundingClientRect();
            const hit = (x, y) => { const at = document.elementFromPoint(x, y);
                                    return at && at.closest('.card') === c; };
            return t.height < 12 || !hit(t.left + 1, t.top + t.height / 2)
                || !hit(t.right - 1, t.top + t.height / 2);
        }).map(c => c.dataset.card)""")
        assert bad == [], (width, height)
        page.evaluate("window.scrollTo(0, 0); document.getElementById('messages').hidden = false")
        # the table fits the window's width; and its height, but on the
        # smallest phone, where a fan of 15 beside one of 7 needs all its
        # width (three fans a row): there every label showing comes first
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        bottom = page.evaluate("""Math.max(...[...document.querySelectorAll('#fans .slot')]
            .map(s => s.getBoundingClientRect().bottom))""")
        assert bottom <= (height if width > 360 else 1.1 * height), (width, height)
        shoot(page, f"long-fans-{width}x{height}.png")


@pytest.mark.parametrize(("width", "height"), [(844, 390), (360, 640)])
def test_small_and_sideways_phones_fit_the_table(page_at: Any, width: int, height: int) -> None:
    page = page_at("/?variant=classic&deal=1", width, height)
    bottom = page.evaluate("""Math.max(...[...document.querySelectorAll(
        '#fans .slot, #top-row .slot')].map(s => s.getBoundingClientRect().bottom))""")
    assert bottom <= height
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.locator("#fans .card").count() == 52


# -- the hint arrow and the merci by drag --------------------------------------------


def test_the_hint_arrow_ends_on_the_target_top_card(page_at: Any) -> None:
    page = page_at("/?variant=classic&deal=1")
    page.keyboard.press("h")
    page.wait_for_function("document.getElementById('status').className === 'hint'",
                           timeout=30_000)
    slot = page.locator(".slot.hint-target")
    assert slot.count() == 1
    end = page.evaluate("""() => { const l = document.querySelector('#overlay line.arrow');
        const t = document.getElementById('table').getBoundingClientRect();
        return [t.left + Number(l.getAttribute('x2')), t.top + Number(l.getAttribute('y2'))]; }""")
    cards = slot.locator(".card")
    target = cards.nth(cards.count() - 1) if cards.count() else slot
    box = target.bounding_box()
    assert box is not None
    assert box["x"] <= end[0] <= box["x"] + box["width"]
    assert box["y"] <= end[1] <= box["y"] + box["height"]
    # the hinted card, once held, keeps the held colour inside the hint's
    page.locator(".card.hint").click()
    shadow = page.evaluate("getComputedStyle(document.querySelector('.card.hint')).boxShadow")
    lit = page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--lit')")
    assert page.locator(".card.held.hint").count() == 1 and shadow.count("rgb") >= 3, (shadow, lit)
    # the focus ring and the hint's glow are of different colours
    focus = page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--focus')")
    hint = page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--hint')")
    assert focus.strip() != hint.strip()


def test_the_merci_by_drag_onto_the_card_own_fan(page_at: Any) -> None:
    page = page_at("/?variant=merci&deal=2")
    page.keyboard.press("d")
    wait_moves(page, 1)
    page.keyboard.press("d")
    wait_moves(page, 2)
    s = state(page)
    k = next(i for i, f in enumerate(s["fans"]) if len(f) >= 2)
    buried = s["fans"][k][0]
    page.keyboard.press("m")
    drag(page, buried, f"#fans > .slot:nth-child({k + 1})")
    wait_moves(page, 3)
    s = state(page)
    assert s["merci_used"] and s["fans"][k][-1] == buried
    assert Card.parse(buried).glyph() in page.locator("#status").inner_text()


# -- the statistics ------------------------------------------------------------------


def test_every_played_game_is_reached_page_by_page(page_at: Any) -> None:
    page = page_at("/?variant=classic&deal=1", 390, 844)
    page.evaluate("""async () => {
        const post = (path, body) => fetch(path, {method: "POST",
            headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)})
            .then(r => r.json());
        for (let deal = 1; deal <= 27; deal++) {
            const g = await post("/api/games", {variant: "classic", deal});
            const move = g.legal_moves.find(m => m !== "R");
            await post(`/api/games/${g.id}/move`, {move});
            await post(`/api/games/${g.id}/resign`, {});
        }
        await post("/api/games", {variant: "classic", deal: 99});  // dealt, never played
    }""")
    page.goto(page.evaluate("location.origin") + "/stats")
    page.wait_for_selector("body.ready")
    page.wait_for_selector("#stats-games tbody tr >> nth=24")
    rows = page.locator("#stats-games tbody tr")
    assert rows.count() == 25
    assert page.locator("#games-range").inner_text() == "games 1–25 of 27, newest first"
    assert "99" not in [rows.nth(i).locator("td").nth(1).inner_text() for i in range(25)]
    page.locator("#games-older").click()
    page.wait_for_function("document.querySelectorAll('#stats-games tbody tr').length === 2")
    assert page.locator("#games-older").is_disabled()
    assert page.locator("#stats-games tbody tr").last.locator("td").nth(1).inner_text() == "1"
    page.locator("#games-newer").click()
    page.wait_for_function("document.querySelectorAll('#stats-games tbody tr').length === 25")
    # chart text readable on a phone
    small = page.evaluate("""Math.min(...[...document.querySelectorAll('.chart-svg .axis')]
        .map(t => t.getBoundingClientRect().height))""")
    assert small >= 11
    shoot(page, "stats-pages-390.png")


def test_the_review_of_a_resigned_game_tells_the_chance_given_up(page_at: Any) -> None:
    """Trefoil deal 5, resigned after one best move: the moves lost nothing,
    the resignation gave up the chance left (an estimate, about 13%)."""
    page = page_at("/?variant=trefoil&deal=5")
    page.on("dialog", lambda d: d.accept())
    api_moves(page, ["f>f"])
    page.locator("#b-resign").click()
    page.locator("#d-end").wait_for(state="visible")
    page.locator("#end-review").click()
    page.wait_for_selector("#chart-review circle.pt", timeout=60_000)
    summary = page.locator("#review-summary").inner_text()
    assert "chance lost by the moves: 0%" in summary
    assert "given up by resigning: " in summary
    assert "chance thrown away" not in summary


def test_the_header_and_toolbar_grow_with_the_cards(page_at: Any) -> None:
    page = page_at("/?variant=classic&deal=1", 1280, 800)
    size = "parseFloat(getComputedStyle(document.getElementById('b-new')).fontSize)"
    title = "parseFloat(getComputedStyle(document.getElementById('title')).fontSize)"
    small = page.evaluate(size), page.evaluate(title)
    page.set_viewport_size({"width": 2560, "height": 1440})
    page.wait_for_function("innerWidth === 2560")
    next_frame(page)
    large = page.evaluate(size), page.evaluate(title)
    assert large[0] >= 1.4 * small[0] and large[1] >= 1.4 * small[1]
    assert page.evaluate("document.documentElement.scrollWidth") <= 2560
