"""The rough edges of issue #27.3 seen through Textual's Pilot."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from lucie.engine import FAN_NAMES, Move
from lucie.rules import Rules
from lucie.store import Store
from lucie.tui.app import LucieApp
from lucie.tui.screens import ConfirmScreen, EndScreen

pytestmark = pytest.mark.anyio


def footer_keys(app: LucieApp) -> set[str]:
    return {b.binding.description for b in app.screen.active_bindings.values()
            if b.binding.show and b.enabled}


async def test_the_palette_has_the_table_commands(store: Store) -> None:
    app = LucieApp(store, "kim", Rules.parse("merci"), 1, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        titles = {c.title for c in app.get_system_commands(app.screen)}
        assert {"Undo", "Redo", "Redeal", "Merci", "Send safe cards home",
                "Resign"} <= titles


async def test_no_redeal_in_the_footer_or_palette_of_a_variant_without_one(
    store: Store,
) -> None:
    app = LucieApp(store, "kim", Rules.parse("noredeal"), 1, clock=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert "Redeal" not in footer_keys(app)
        assert "Redeal" not in {c.title for c in app.get_system_commands(app.screen)}
        await pilot.press("s")
        await pilot.pause()
        assert "left" not in app.message
    classic = LucieApp(store, "lee", Rules(), 1, clock=False)
    async with classic.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert "Redeal" in footer_keys(classic)


async def test_the_clock_stops_at_the_end_of_the_game(
    store: Store, classic_win: tuple[int, list[Move]],
) -> None:
    deal, line = classic_win
    app = LucieApp(store, "kim", Rules(), deal, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.game.push_all(line[:-1])
        last = line[-1]
        app.respond(app.controller.play(last))
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
        at_end = app.seconds()
        assert store.record(app.game_id).seconds == pytest.approx(at_end, abs=0.006)
        assert not app.session.clock.running and app.seconds() == at_end
        # taken back: practice, the recorded time stays what it was
        await pilot.press("u")
        await pilot.pause()
        assert not app.game.outcome.finished and app.session.practice
        assert app.seconds() == at_end
        assert store.record(app.game_id).seconds == at_end


async def test_resign_ends_the_game_as_lost(store: Store) -> None:
    app = LucieApp(store, "kim", Rules(), 1, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f", "i", "f8")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
        assert "Resigned" in str(app.screen.query_one(".title").render())
        assert "in 1 move," in str(app.screen.query_one("#summary").render())
        assert "kim: 1 game," in str(app.screen.query_one("#stats").render())
        assert store.record(app.game_id).status == "resigned"


async def test_statistics_say_one_game_not_one_games(store: Store) -> None:
    app = LucieApp(store, "kim", Rules(), 1, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press(FAN_NAMES[5], FAN_NAMES[8])
        app.respond(app.controller.resign())
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        app.action_stats()
        await pilot.pause()
        text = app.screen.markdown  # type: ignore[attr-defined]
        assert "series 1: 1 game," in text and "1 games" not in text


async def _fans_on_screen(app: LucieApp, pilot: Any) -> list[str]:
    """The text of the fans as the screen shows them (the screenshot's
    text from fan a's label to the status line), once the game's screen is
    back on top (a dialog being dismissed on a busy machine takes a few
    refreshes; no clock runs, so nothing else can change the table)."""
    import re

    for _ in range(200):
        words = re.findall(r">([^<]+)</text>", app.export_screenshot())
        if "a&#160;" in words and not isinstance(app.screen, ConfirmScreen):
            start = words.index("a&#160;")
            return words[start:start + 60]
        await pilot.pause(0.05)
    raise AssertionError("the fans never showed")


async def test_a_new_game_shows_its_own_table_at_once(store: Store, tmp_path: Path) -> None:
    """After the new-game dialog, the fans on screen are the new deal's,
    before any clock tick (the old table showed under the new header)."""
    app = LucieApp(store, "kim", Rules(), 1, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f", "i", "f2")
        await pilot.pause()
        await pilot.press("2", "enter")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)  # leaving a game in progress
        await pilot.press("y")
        await pilot.pause()
        shown = await _fans_on_screen(app, pilot)
    fresh = LucieApp(Store(tmp_path / "fresh.sqlite3"), "lee", Rules(), 2, clock=False)
    async with fresh.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert await _fans_on_screen(fresh, pilot) == shown


async def test_a_terminal_too_small_says_so_instead_of_cutting_fans(store: Store) -> None:
    from textual.widgets import Static

    app = LucieApp(store, "kim", Rules(), 1, clock=False)
    async with app.run_test(size=(60, 14)) as pilot:
        await pilot.pause()
        table = app.table
        assert table is not None
        small = table.query_one("#small", Static)
        assert small.display and not table.query_one("#fans").display
        assert "needs at least 76x15" in str(small.render())
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert not small.display and table.query_one("#fans").display


@pytest.mark.parametrize(("size", "tall"), [((120, 40), True), ((119, 40), False),
                                            ((120, 39), False), ((160, 50), True)])
async def test_cards_are_three_lines_tall_from_120x40(
    store: Store, size: tuple[int, int], tall: bool,
) -> None:
    app = LucieApp(store, "kim", Rules(), 1, clock=False)
    async with app.run_test(size=size) as pilot:
        # the fans are laid out on the first refreshes (more on a busy machine)
        for _ in range(100):
            await pilot.pause()
            if app.table is not None and app.table.fan_views and all(
                    v.region.height for v in app.table.fan_views):
                break
        table = app.table
        assert table is not None
        assert {v.tall for v in table.fan_views} == {tall}
        if tall:  # and every fan is whole on the screen
            fans = table.query_one("#fans")
            assert fans.virtual_size.height <= fans.content_size.height


def test_red_cards_stay_red_on_256_and_16_colour_terminals() -> None:
    from rich.color import ColorSystem

    from lucie.cards import Card
    from lucie.tui.widgets import MARKS, card_style

    for mark in [None, *MARKS]:
        style = card_style(Card.parse("QH"), mark)
        assert style.color is not None
        for system in (ColorSystem.EIGHT_BIT, ColorSystem.STANDARD):
            r, g, b = style.color.downgrade(system).get_truecolor()
            assert r >= 100 and g <= r // 3 and b <= r // 3, (mark, system, (r, g, b))


async def test_messages_that_no_longer_apply_go_on_undo_redo_and_restart(
    store: Store,
) -> None:
    app = LucieApp(store, "kim", Rules(), 1, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f", "i")
        await pilot.pause()
        app.respond(app.controller.show_hint(app.game.position, None, "an old hint"))
        await pilot.press("u")
        await pilot.pause()
        assert "old hint" not in app.message and app.message.startswith("Undone")
        await pilot.press("a", "b")  # refused: an error message
        await pilot.pause()
        assert app.message_kind == "error"
        await pilot.press("escape", "y")
        await pilot.pause()
        assert app.message_kind != "error" and app.message.startswith("Redone")
        await pilot.press("a", "b", "f4", "y")
        await pilot.pause()
        assert app.message_kind != "error" and app.message.startswith("Back to the start")


async def test_a_hint_that_proves_the_deal_lost_offers_to_resign(store: Store) -> None:
    """No redeal, and the solver proves deal 1 cannot be cleared: the hint
    says so and offers F8, which resigns the game."""
    app = LucieApp(store, "kim", Rules.parse("noredeal"), 1, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("t")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "can no longer be won: F8 resigns" in app.message
        await pilot.press("f8", "y")
        await pilot.pause()
        assert app.game.outcome.status == "resigned"
        assert store.record(app.game_id).status == "resigned"
