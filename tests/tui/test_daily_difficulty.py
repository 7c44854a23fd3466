"""The new-game dialog's deal of the day and difficulty, the difficulty told
at the end of the game, and the deals of the day in the statistics."""

from __future__ import annotations

import pytest
from textual.widgets import Select, Static

from lucie.daily import daily_deal
from lucie.engine import Move
from lucie.rules import Rules
from lucie.store import Store
from lucie.tui.app import LucieApp
from lucie.tui.screens import EndScreen, NewGameScreen

pytestmark = pytest.mark.anyio


async def test_the_deal_of_the_day_from_the_dialog_and_in_the_statistics(
    store: Store,
) -> None:
    app = LucieApp(store, "kim", Rules(), 1, clock=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await pilot.press("f2")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        await pilot.click("#daily")
        await pilot.pause()
        assert app.game.deal == daily_deal(Rules())
        assert "deal of the day" in app.message
        await pilot.press("f", "f8", "y")  # one pick, then resign
        await pilot.pause()
        app.action_stats()
        await pilot.pause()
        text = app.screen.markdown  # type: ignore[attr-defined]
        assert "## Deals of the day" in text
        assert f"deal {daily_deal(Rules())}, resigned" in text


async def test_a_clearable_deal_from_the_dialog(store: Store) -> None:
    from lucie.analysis.difficulty import deal_difficulty

    app = LucieApp(store, "kim", Rules(), 1, clock=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await pilot.press("f2")
        await pilot.pause()
        app.screen.query_one("#difficulty", Select).value = "clearable"
        await pilot.click("#random")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.game.deal != 1 and not app.game.moves
        assert "clearable deal" in app.message
        deal = app.game.deal
    assert deal is not None
    assert deal_difficulty(Rules(), deal, max_seconds=60).clearable is True


async def test_the_difficulty_is_told_at_the_end_and_not_before(
    store: Store, classic_win: tuple[int, list[Move]],
) -> None:
    deal, line = classic_win
    app = LucieApp(store, "kim", Rules(), deal, clock=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        app.game.push_all(line[:-1])
        assert "clearable" not in app.message
        app.respond(app.controller.play(line[-1]))
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
        await app.workers.wait_for_complete()
        await pilot.pause()
        told = str(app.screen.query_one("#difficulty", Static).render())
        assert "clearable without a redeal" in told


async def test_a_deal_picked_as_hard_is_told_hard(store: Store) -> None:
    """The end tells the rating the deal was picked by (the same figure),
    not a new estimate that could fall in another third; hints on the way
    do not give the difficulty away."""
    app = LucieApp(store, "kim", Rules(), 1, clock=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await pilot.press("f2")
        await pilot.pause()
        app.screen.query_one("#difficulty", Select).value = "hard"
        await pilot.click("#random")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        deal = app.game.deal
        assert deal is not None and deal != 1
        picked = app.session.picked
        assert picked is not None and picked.difficulty == "hard" and picked.picked
        await pilot.press("h")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "cleared" not in app.message
        await pilot.press("f8", "y")  # resign
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
        await app.workers.wait_for_complete()
        await pilot.pause()
        told = str(app.screen.query_one("#difficulty", Static).render())
    assert told.startswith(picked.text().split("(")[0]), told
    assert "This deal is hard" in told and "easy" not in told


async def test_a_picked_deal_resumed_in_a_new_program_is_told_its_pick(
    store: Store,
) -> None:
    """Issue 35: the rating a deal was picked by is kept with its game in
    the store: a terminal started again on the same store resumes the game
    and its end tells that very rating, not a new computation."""
    app = LucieApp(store, "kim", Rules(), 1, clock=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await pilot.press("f2")
        await pilot.pause()
        app.screen.query_one("#difficulty", Select).value = "hard"
        await pilot.click("#random")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        deal = app.game.deal
        picked = app.session.picked
        assert picked is not None and picked.difficulty == "hard" and deal != 1
        move = next(m for m in app.game.legal_moves if not m.is_redeal)
        app.respond(app.controller.play(move))
        await pilot.pause()
        assert len(app.game.moves) >= 1
    again = LucieApp(store, "kim", Rules(), None, clock=False)  # a new program
    async with again.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        assert again.resumed and again.game.deal == deal
        assert again.session.picked == picked
        await pilot.press("f8", "y")  # resign
        await pilot.pause()
        assert isinstance(again.screen, EndScreen)
        await again.workers.wait_for_complete()
        await pilot.pause()
        told = str(again.screen.query_one("#difficulty", Static).render())
    assert told == picked.text(), told
