"""A recorded result is final in the terminal game (issue 35): a win, a
loss and a resignation stay recorded whatever the player does next: undo
(practice, said on screen), Restart and "same deal again" (a new game of
the deal), a new game."""

from __future__ import annotations

import pytest

from lucie.engine import Move
from lucie.rules import Rules
from lucie.session import Store
from lucie.tui import LucieApp
from lucie.tui.screens import EndScreen

pytestmark = pytest.mark.anyio


def _end(app: LucieApp, ending: str, line: list[Move]) -> None:
    """Bring the app's game to ``ending`` through the controller."""
    if ending == "won":
        app.game.push_all(line[:-1])
        app.respond(app.controller.play(line[-1]))
    elif ending == "lost":
        while not app.game.outcome.finished:
            app.respond(app.controller.play(next(iter(app.game.legal_moves))))
    else:
        app.respond(app.controller.play(next(iter(app.game.legal_moves))))
        app.respond(app.controller.resign())


@pytest.mark.parametrize("after", ["undo", "restart", "again", "new"])
@pytest.mark.parametrize("ending", ["won", "lost", "resigned"])
async def test_a_recorded_result_stays(store: Store, classic_win: tuple[int, list[Move]],
                                       ending: str, after: str) -> None:
    deal, line = classic_win
    rules = Rules.parse("noredeal") if ending == "lost" else Rules()
    app = LucieApp(store, "kim", rules, 3 if ending == "lost" else deal, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        _end(app, ending, line)
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
        first = app.game_id
        assert store.record(first).status == ending  # type: ignore[arg-type]
        if after == "undo":
            await pilot.press("u")
        elif after == "again":
            await pilot.press("a")
        else:
            await pilot.press("escape")
            await pilot.pause()
            await pilot.press("f4" if after == "restart" else "f2")
            await pilot.pause()
            if after == "new":
                await pilot.press("enter")
        await pilot.pause()
        assert not app.game.outcome.finished
        assert store.record(first).status == ending  # type: ignore[arg-type]
        stats = store.stats("kim", rules)
        assert (stats.games, stats.wins) == (1, int(ending == "won"))
        if after == "undo":
            assert app.session.practice and app.game_id == first
            assert "Practice" in app.message
        else:
            assert app.game_id != first and app.game.moves == ()
            assert store.record(app.game_id).status == "playing"  # type: ignore[arg-type]
            if after != "new":
                assert app.game.deal == store.record(first).deal  # type: ignore[arg-type]
