"""Help in the terminal game is fair play's business: a hint, or a review
of the game in play (it tells the chance of the position), marks the game
first; in a game that counts for the table of the day the player is asked
before, and saying no leaves the game counting (as the page does)."""

from __future__ import annotations

import pytest

from lucie.daily import daily_deal
from lucie.rules import Rules
from lucie.store import Store
from lucie.tui.app import LucieApp
from lucie.tui.review import ReviewScreen
from lucie.tui.screens import ConfirmScreen

pytestmark = pytest.mark.anyio


def _hints(store: Store, app: LucieApp) -> int | None:
    assert app.game_id is not None
    marks = store.marks(app.game_id)
    return marks.hints if marks is not None else None


async def test_a_hint_in_a_game_of_the_day_is_asked_first(store: Store) -> None:
    app = LucieApp(store, "kim", Rules(), daily_deal(Rules()), clock=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        assert app.session.counts_for_daily()
        await pilot.press("t")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        await pilot.pause()
        assert "still counts for the table of the day" in app.message
        assert _hints(store, app) == 0 and app.session.counts_for_daily()
        await pilot.press("t")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert _hints(store, app) == 1 and not app.session.counts_for_daily()
        assert app.message.startswith("Hint")
        await pilot.press("t")  # it no longer counts: nothing to ask
        await pilot.pause()
        assert not isinstance(app.screen, ConfirmScreen)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert _hints(store, app) == 2


async def test_a_review_of_the_game_in_play_is_help(store: Store) -> None:
    app = LucieApp(store, "kim", Rules(), 7, clock=False)  # not a deal of the day
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        assert not app.session.counts_for_daily()
        app.action_review()
        await pilot.pause()
        assert isinstance(app.screen, ReviewScreen)
        assert _hints(store, app) == 1  # marked, without a question


async def test_a_review_in_play_of_a_game_of_the_day_is_asked_first(store: Store) -> None:
    app = LucieApp(store, "kim", Rules(), daily_deal(Rules()), clock=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        app.action_review()
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, ReviewScreen)
        assert _hints(store, app) == 0 and app.session.counts_for_daily()
