"""The page in English, French, Dutch and German in a real browser
(Debian's Chromium driven by Playwright): the language from
Accept-Language, the texts the page and its JavaScript show, an illegal
drag's message, a hint's reason, plural forms, the language menu and its
memory, and the German page on a 390 px phone.

Skipped when /usr/bin/chromium is absent, unless ``LUCIE_REQUIRE_BROWSER=1``.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.chromium import ARGS, CHROMIUM, sync_api

from lucie.cards import Card, card_name
from lucie.engine import Move, Position
from lucie.i18n import _, ngettext, pgettext, translations, using
from lucie.rules import Rules

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


pytestmark = pytest.mark.browser

LOCALES = {"en": "en-US", "fr": "fr-FR", "nl": "nl-NL", "de": "de-DE"}


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


@pytest.fixture
def open_in(browser: Any, live_server: Any) -> Iterator[Callable[..., Any]]:
    """Open the game at a path in a browser whose language is ``lang``
    (its Accept-Language); page errors fail the test."""
    contexts: list[Any] = []
    errors: list[str] = []

    def open_page(lang: str, path: str = "/", width: int = 1280, height: int = 800) -> Any:
        context = browser.new_context(viewport={"width": width, "height": height},
                                      locale=LOCALES[lang], bypass_csp=True)
        # autoplay off: the tests play given lines, card by card
        context.add_init_script('localStorage.setItem("lucie.autoplay", "0")')
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(live_server.url + path)
        page.wait_for_selector("body.ready")
        return page

    yield open_page
    for context in contexts:
        context.close()
    assert errors == []


def state(page: Any) -> dict[str, Any]:
    data: dict[str, Any] = page.evaluate("window.lucie.state")
    return data


def drag(page: Any, card: str, selector: str) -> None:
    page.wait_for_function("document.getAnimations().length === 0")
    box = page.locator(f'.card[data-card="{card}"]').bounding_box()
    target = page.locator(selector).bounding_box()
    assert box is not None and target is not None
    x0, y0 = box["x"] + min(box["width"] / 2, 12), box["y"] + box["height"] / 2
    x1, y1 = target["x"] + min(target["width"] / 2, 30), target["y"] + target["height"] / 2
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move(x0 + 8, y0 + 8, steps=2)
    page.mouse.move(x1, y1, steps=6)
    page.mouse.up()


def post_move(url: str, game_id: str, move: Move) -> None:
    request = urllib.request.Request(
        f"{url}/api/games/{game_id}/move", data=json.dumps({"move": str(move)}).encode(),
        headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=30) as answer:
        assert answer.status == 200


def shoot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), full_page=True)


@pytest.mark.parametrize("lang", list(LOCALES))
def test_the_page_in_each_language(open_in: Callable[..., Any], lang: str) -> None:
    page = open_in(lang, "/?variant=classic&deal=1")
    with using(lang):
        assert page.evaluate("document.documentElement.lang") == lang
        assert page.locator("#lang").input_value() == lang
        # texts of the page (the template) and of its JavaScript
        assert page.locator("#b-new").inner_text() == pgettext("button", "New")
        assert page.locator("#b-hint").get_attribute("title") == _("Hint (H)")
        started = _("New game: {variant}, deal {deal}.").format(variant=Rules().name(), deal=1)
        assert page.locator("#status").inner_text() == started
        assert page.locator('.card[data-card="KH"]').get_attribute("aria-label") == card_name(
            Card.parse("KH"))
        # an illegal drag is refused with the engine's reason, in the language
        why = Position.deal(Rules(), 1).why_illegal(Move.parse("a>b"))
        assert why is not None and why.startswith("4♠") and "4S" not in why
        # the cards' corners carry the language's face letters (as the terminal's table)
        corner = page.locator('.card[data-card="KH"] text.rank').first.text_content()
        assert corner == {"en": "K", "fr": "R", "nl": "H", "de": "K"}[lang]
        # numbers the page formats itself: the language's decimal sign, no plain space
        shown = page.evaluate("LucieI18n.percent(0.098, 1)")
        assert shown.startswith("9.8" if lang == "en" else "9,8") and " " not in shown
        assert page.evaluate("LucieI18n.number(12.5, 1)") == ("12.5" if lang == "en" else "12,5")
        drag(page, "4S", "#fans > .slot:nth-child(2)")
        page.wait_for_function("document.getElementById('status').className === 'error'")
        assert page.locator("#status").inner_text() == _("Not allowed: {reason}").format(
            reason=why)
        # counted texts take the catalogue's plural forms, chosen in the page by
        # Intl.PluralRules as gettext's rule chooses them
        for n in (0, 1, 2, 3, 21, 1_000_000, 2_000_000, 1_000_001):
            shown = page.evaluate("n => LucieI18n.ngettext('{n} mistake', '{n} mistakes', n)", n)
            assert shown == ngettext("{n} mistake", "{n} mistakes", n)
            chosen = page.evaluate("n => LucieI18n.pluralForm(n)", n)
            plural = getattr(translations(lang), "plural", lambda k: int(k != 1))
            assert chosen == plural(n)
        if lang == "fr":  # three forms: "0 erreur", "2 erreurs"
            assert page.evaluate("LucieI18n.ngettext('{n} mistake', '{n} mistakes', 0)") == \
                "{n} erreur"
        # the rules dialog
        page.keyboard.press("?")
        page.locator("#d-rules").wait_for(state="visible")
        assert page.locator("#d-rules-title").inner_text() == _("How to play")
        page.keyboard.press("Escape")


@pytest.mark.parametrize("lang", list(LOCALES))
def test_a_hints_reason_in_each_language(open_in: Callable[..., Any], live_server: Any,
                                         win: tuple[int, list[Move]], lang: str) -> None:
    from lucie.analysis import hints
    deal, line = win
    page = open_in(lang, f"/?variant=trefoil&deal={deal}")
    position = Position.deal(Rules.parse("trefoil"), deal)
    for move in line[:-3]:  # three moves from the win: the hint is certain
        post_move(live_server.url, state(page)["id"], move)
        position = position.apply(move)
    page.reload()
    page.wait_for_selector("body.ready")
    assert len(state(page)["moves"]) == len(line) - 3
    page.keyboard.press("h")
    page.wait_for_function("document.getElementById('status').className === 'hint'",
                           timeout=30_000)
    with using(lang):
        expected = hints.hint(position, max_seconds=5).to_json()
        assert page.locator("#status").inner_text() == _("Hint: {text}").format(
            text=expected["text"])
    assert page.locator(".card.hint").count() == 1


def test_the_menu_switches_and_remembers(open_in: Callable[..., Any]) -> None:
    page = open_in("en", "/?variant=fan&deal=7")
    game = state(page)["id"]
    assert page.locator("#b-new").inner_text() == "New"
    with page.expect_navigation():
        page.locator("#lang").select_option("fr")
    page.wait_for_selector("body.ready")
    assert page.evaluate("document.documentElement.lang") == "fr"
    assert page.locator("#b-new").inner_text() == "Nouvelle"
    assert page.locator("#title").inner_text() == "Éventail"
    assert state(page)["id"] == game  # the game in play stays
    cookies = {c["name"]: c["value"] for c in page.context.cookies()}
    assert cookies["lucie_lang"] == "fr"
    assert page.evaluate("localStorage.getItem('lucie.lang')") == "fr"
    # remembered across a reload and in a new tab, though the browser asks for English
    page.reload()
    page.wait_for_selector("body.ready")
    assert page.evaluate("document.documentElement.lang") == "fr"
    other = page.context.new_page()
    other.goto(page.url)
    other.wait_for_selector("body.ready")
    assert other.evaluate("document.documentElement.lang") == "fr"
    assert other.locator("#b-undo").inner_text() == "Annuler"
    other.close()
    # and the menu goes on to another language
    with page.expect_navigation():
        page.locator("#lang").select_option("nl")
    page.wait_for_selector("body.ready")
    assert page.evaluate("document.documentElement.lang") == "nl"
    assert page.locator("#title").inner_text() == "De Waaier"
    # a lost cookie is set again from localStorage
    page.context.clear_cookies()
    page.reload()
    page.wait_for_function("document.documentElement.lang === 'nl'")
    page.wait_for_selector("body.ready")
    assert page.locator("#b-new").inner_text() == "Nieuw"


def _overflowing(page: Any, selector: str) -> list[str]:
    """The visible elements of ``selector`` that stick out of the window or
    whose text is cut off."""
    found: list[str] = page.evaluate(
        """sel => [...document.querySelectorAll(sel)].filter(el => {
            const r = el.getBoundingClientRect();
            if (!r.width || !r.height) return false;  // hidden
            return r.left < 0 || r.right > window.innerWidth + 0.5
                || el.scrollWidth > el.clientWidth + 1;
        }).map(el => el.id || el.textContent.trim())""", selector)
    return found


def test_the_german_page_fits_a_390_px_phone(open_in: Callable[..., Any], live_server: Any,
                                              win: tuple[int, list[Move]]) -> None:
    page = open_in("de", "/?variant=merci&deal=4", 390, 844)
    assert page.evaluate("document.documentElement.lang") == "de"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert _overflowing(page, "#bar *:not(.sr), #tools button, #tools .button, #move-form *") == []
    for name in ("Neu", "Rückgängig", "Wiederholen", "Neu verteilen", "Aufgeben", "Regeln"):
        assert page.get_by_role("button", name=name, exact=True).first.is_visible()
    shoot(page, "table-de-390.png")
    # the dialogs
    page.locator("#b-new").click()
    page.locator("#d-new").wait_for(state="visible")
    shoot(page, "new-de-390.png")
    assert _overflowing(page, "#d-new button, #d-new select, #d-new input, #d-new label") == []
    shoot(page, "new-de-390.png")
    page.locator("#new-cancel").click()
    page.locator("#b-rules").click()
    page.locator("#d-rules").wait_for(state="visible")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert _overflowing(page, "#d-rules button, #d-rules h2, #d-rules h3") == []
    page.locator("#rules-close").click()
    # the statistics, after a game won (German words in the table and charts)
    deal, line = win
    page.goto(f"{live_server.url}/?variant=trefoil&deal={deal}")
    page.wait_for_selector("body.ready")
    for move in line:
        post_move(live_server.url, state(page)["id"], move)
    page.goto(f"{live_server.url}/stats")
    page.wait_for_selector("#chart-time circle.dot.won")
    shoot(page, "stats-de-390.png")
    assert page.locator("#stats-title").inner_text() == "Statistik"
    assert "gewonnen" in page.locator("#stats-games").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert _overflowing(page, ".stats-head *") == []
