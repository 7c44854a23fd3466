"""The rough edges of issue #27.3 seen through Textual's Pilot."""

from __future__ import annotations

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
        assert store.record(app.game_id).seconds == pytest.approx(at_end)
        app._t0 -= 600  # ten minutes later
        assert app.seconds() == at_end
        # taken back: the clock runs again from where it stopped
        await pilot.press("u")
        await pilot.pause()
        assert not app.game.outcome.finished
        assert at_end <= app.seconds() < at_end + 60


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
