"""The terminal's rough edges of issue 38: keys a variant lacks say why,
the rules page counts the fans as they are dealt and lists only the
variant's keys, a 10 in a free cell reads apart from its cell's number,
and the review shows several moves at 80x24 with the selected move's
explanation and a coloured position."""

from __future__ import annotations

import pytest
from textual.widgets import DataTable, Static

from lucie.cards import Card
from lucie.engine import Game, Position
from lucie.i18n import LANGUAGES
from lucie.rules import Rules
from lucie.store import Store
from lucie.tui.app import LucieApp
from lucie.tui.review import ReviewScreen, position_text
from lucie.tui.screens import TextScreen, fans_dealt, keys_help, rules_help
from lucie.tui.table import FOOTER_KEY
from lucie.tui.widgets import CellsView

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize(("variant", "key", "why"), [
    ("fan", "s", "this variant has no redeal"),
    ("fan", "w", "this variant has no merci"),
    ("classic", "w", "this variant has no merci"),
])
async def test_a_key_the_variant_lacks_says_why(
    store: Store, variant: str, key: str, why: str,
) -> None:
    app = LucieApp(store, "kim", Rules.parse(variant), 1, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        before = app.game.position
        await pilot.press(key)
        await pilot.pause()
        assert why in app.message
        assert app.message_kind == "error"
        assert app.game.position == before


def test_the_rules_count_the_fans_as_they_are_dealt() -> None:
    for variant in ("classic", "trefoil", "shamrocks", "fan"):
        rules = Rules.parse(variant)
        sizes = sorted((len(f) for f in Position.deal(rules, 1).fans), reverse=True)
        told = fans_dealt(rules)
        threes = sizes.count(3)
        assert told.startswith(f"{threes} fans of 3")
        assert ("1 fan of 1" in told) == (1 in sizes)
        assert fans_dealt(rules) in rules_help(rules)
    assert "18 fans" not in rules_help(Rules())


def test_the_keys_page_lists_only_the_variants_keys() -> None:
    fan = keys_help(Rules.parse("fan"))
    assert "**s**" not in fan and "**w**" not in fan and "1 … 8" not in fan
    merci = keys_help(Rules.parse("merci"))
    assert "**s**" in merci and "**w**" in merci and "merci (**w**)" in merci
    reserve = keys_help(Rules.parse("reserve"))
    assert "free cell" in reserve and "**w**" not in reserve
    assert "**w**" in keys_help()  # without a variant, every key


async def test_help_is_the_variants(store: Store) -> None:
    app = LucieApp(store, "kim", Rules.parse("fan"), 1, clock=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, TextScreen)
        assert "**s**" not in app.screen.markdown
        assert "17 fans of 3" in app.screen.markdown


async def test_a_ten_in_a_free_cell_reads_apart_from_its_number() -> None:
    view = CellsView()
    view.cells = (Card.parse("TH"), None, Card.parse("KS"), None)
    text = view.render().plain
    assert "110" not in text
    assert "1 10♥" in text and "3  K♠" in text
    assert len(text.rstrip()) <= view.width_for(4)


def test_the_small_board_has_suit_colours() -> None:
    text = position_text(Position.deal(Rules(), 7), None, None)
    reds = {text.plain[span.start:span.end] for span in text.spans
            if span.style and "#ff6b6b" in str(span.style)}
    assert reds and all(card[-1] in "♥♦" for card in reds)
    assert len(reds) >= 10


async def test_the_review_at_80x24_lists_several_moves_and_explains_the_selected(
    store: Store,
) -> None:
    game = Game(Rules(), 7)
    for _ in range(8):
        game.push(next(m for m in game.legal_moves if not m.is_redeal))
    app = LucieApp(store, "kim", Rules(), 1, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = ReviewScreen(game)
        app.push_screen(screen)
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.review is not None
        table = screen.query_one(DataTable)
        assert table.size.height >= 5  # the header and at least four moves
        assert table.region.right <= app.size.width
        await pilot.press("down")
        await pilot.pause()
        shown = str(screen.query_one("#review-position", Static).render())
        assert "Before move 2" in shown
        position = screen.query_one("#review-position", Static)
        assert position.region.bottom <= app.size.height


@pytest.mark.parametrize("lang", list(LANGUAGES))
async def test_the_footer_keeps_the_palette_at_80_columns(store: Store, lang: str) -> None:
    """The palette's key (every command) stays in the footer in every
    language at 80x24; keys the help and the palette reach give way first."""
    app = LucieApp(store, "kim", Rules(), 1, clock=False, language=lang)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.pause()
            keys = list(app.screen.query(FOOTER_KEY))
            assert any(k.has_class("-command-palette") for k in keys)
            assert {"app.undo", "app.hint", "app.help"} <= {k.action for k in keys}
            assert all(k.region.right <= 80 and k.region.width > 0 for k in keys)
    finally:
        from lucie import i18n

        i18n.set_language("en")
